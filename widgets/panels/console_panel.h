#pragma once
// The Console dock: a launched program's stdout and stderr as they come (stderr in red), the
// command, its elapsed time and exit, and Stop with the escalation it is at. Output of any size
// and rate never freezes the window: lines are shown in batches, at most maxLines() of them (the
// oldest trimmed, "N lines dropped" shown), while every line goes to a log file that is saved
// beside the trace when the run ends.
#include <QByteArray>
#include <QString>
#include <QTimer>
#include <QWidget>

#include <deque>
#include <memory>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTemporaryFile;

namespace strata {

class ConsolePanel : public QWidget {
    Q_OBJECT
public:
    explicit ConsolePanel(QWidget* parent = nullptr);
    ~ConsolePanel() override;

    void setMaxLines(int n); // default 5000
    int maxLines() const { return maxLines_; }
    // A line longer than this many bytes is shown cut there, with a note of how much was left
    // out (the saved log keeps it whole): memory stays bounded whatever a program prints
    // without a newline.
    static constexpr qsizetype kMaxLineBytes = 16 * 1024;
    qint64 linesCut() const { return linesCut_; }

    // A new run: clears the view and starts a new log.
    void begin(const QString& commandLine);
    void append(const QByteArray& bytes, bool isStderr);
    void setStatus(const QString& text); // "running · 12.3 s", "exited with code 3 after 2.5 s"
    void setStopStatus(const QString& text);
    void setStopEnabled(bool on);
    // The run ended: the pending partial lines are shown and the view is complete.
    void end(const QString& status);
    // Copies the full log to `path`; false (and *error) if it cannot.
    bool saveLog(const QString& path, QString* error) const;

    qint64 linesReceived() const { return received_; }
    qint64 linesDropped() const; // not shown (trimmed from the top or never shown)
    QString shownText() const;
    QString statusText() const;
    QPlainTextEdit* view() const { return text_; }

signals:
    void stopRequested();

private:
    struct Line {
        QString text;
        bool isStderr;
    };
    struct Partial {
        QByteArray bytes; // the line so far, at most kMaxLineBytes
        qint64 cut = 0;   // bytes of it past kMaxLineBytes, not kept
    };
    void takeLines(Partial& partial, const QByteArray& bytes, bool isStderr);
    void keep(Partial& partial, const char* data, qsizetype n);
    void pushLine(Partial& partial, bool isStderr);
    void flush();
    void updateDropped();

    int maxLines_ = 5000;
    QLabel* status_;
    QLabel* stopStatus_;
    QLabel* dropped_;
    QPushButton* stop_;
    QPlainTextEdit* text_;
    QTimer flushTimer_;
    std::deque<Line> pending_;
    Partial partialOut_, partialErr_;
    qint64 received_ = 0;
    qint64 linesCut_ = 0;
    qint64 droppedPending_ = 0;
    qint64 shownTotal_ = 0;
    std::unique_ptr<QTemporaryFile> log_; // already unlinked: read through its descriptor
};

} // namespace strata
