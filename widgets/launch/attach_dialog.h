#pragma once
// Profile > Attach…: the programs waiting for an attach session (started with `strata-cli record
// --wait-for-attach`) on this machine or on a host over ssh, with Start capture and Stop capture.
// Each request runs this build's `strata-cli attach --json` (--remote HOST for a host, as the
// Launch dialog's remote path runs strata-cli record --remote), never blocking the window; a
// stop hands over the trace to open (for a host, a copy brought back as it stands).
#include <QDialog>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>

class QLabel;
class QLineEdit;
class QProcess;
class QPushButton;
class QTableWidget;

namespace strata {

class AttachDialog : public QDialog {
    Q_OBJECT
public:
    explicit AttachDialog(QWidget* parent = nullptr);
    // A request still running is abandoned (its strata-cli killed).
    ~AttachDialog() override;

    // "" for this machine, else [user@]host[:port]; ssh options space-separated.
    void setHost(const QString& host, const QString& sshOptions = {});
    // Strata's folder on the host (--remote-dir; empty: strata-cli's default).
    void setRemoteDir(const QString& dir) { remoteDir_ = dir; }
    // Where a host's trace is copied on Stop (default: the current folder, else the home one).
    void setCopyFolder(const QString& folder) { copyFolder_ = folder; }
    QTableWidget* table() const { return table_; }
    QString statusText() const;
    bool busy() const { return process_ != nullptr; }

    void refresh();      // lists the waiting programs
    void startCapture(); // in the selected one
    void stopCapture();

signals:
    // A list arrived (the number of programs), or a request ended: ok, what to show, and for a
    // start or stop the time it took effect there (ns, CLOCK_MONOTONIC_RAW there).
    void listed(int count);
    void requestDone(bool ok, const QString& message, qint64 servedNs);
    // A stop answered: the trace to open here.
    void traceStopped(const QString& path);

private:
    void run(const QStringList& args, const std::function<void(const QJsonObject&)>& done);
    void showRuns(const QJsonObject& doc);
    void request(bool start);
    void updateButtons();
    qint64 selectedPid() const;
    QString selectedState() const;

    QLineEdit* host_;
    QLineEdit* sshOptions_;
    QTableWidget* table_;
    QPushButton* refresh_;
    QPushButton* start_;
    QPushButton* stop_;
    QLabel* status_;
    QProcess* process_ = nullptr;
    QString copyFolder_;
    QString remoteDir_;
};

} // namespace strata
