#include "launch/attach_dialog.h"

#include "launch/run_controller.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strata {

namespace {

enum Column { kPid, kState, kWindows, kTrace, kCommand, kColumns };

// "START .. END s" per window (an open one: "START s .. now"), in seconds from the first start.
QString windowsText(const QJsonArray& windows) {
    if (windows.isEmpty()) return QObject::tr("none");
    const double origin = windows[0].toArray()[0].toDouble();
    QStringList parts;
    for (const QJsonValue& v : windows) {
        const QJsonArray w = v.toArray();
        const double a = (w[0].toDouble() - origin) / 1e9;
        parts << (w[1].isNull() ? QObject::tr("%1 s .. now").arg(a, 0, 'f', 1)
                                : QObject::tr("%1 .. %2 s")
                                      .arg(a, 0, 'f', 1)
                                      .arg((w[1].toDouble() - origin) / 1e9, 0, 'f', 1));
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace

AttachDialog::AttachDialog(QWidget* parent)
    : QDialog(parent), copyFolder_(QFileInfo(QDir::currentPath()).isWritable() ? QDir::currentPath()
                                                                               : QDir::homePath()) {
    setWindowTitle(tr("Attach to a Running Program"));
    host_ = new QLineEdit(this);
    host_->setObjectName(QStringLiteral("attachHost"));
    host_->setPlaceholderText(tr("this machine, or [user@]host[:port]"));
    sshOptions_ = new QLineEdit(this);
    sshOptions_->setObjectName(QStringLiteral("attachSshOptions"));
    sshOptions_->setPlaceholderText(tr("ssh -o options, e.g. IdentityFile=~/.ssh/lab"));
    refresh_ = new QPushButton(tr("&Refresh"), this);
    refresh_->setObjectName(QStringLiteral("attachRefresh"));
    auto* where = new QFormLayout;
    auto* hostRow = new QHBoxLayout;
    hostRow->addWidget(host_, 1);
    hostRow->addWidget(refresh_);
    auto* hostLabel = new QLabel(tr("&Host:"), this);
    hostLabel->setBuddy(host_);
    where->addRow(hostLabel, hostRow);
    where->addRow(tr("SSH &options:"), sshOptions_);

    table_ = new QTableWidget(0, kColumns, this);
    table_->setObjectName(QStringLiteral("attachRuns"));
    table_->setHorizontalHeaderLabels(
        {tr("PID"), tr("State"), tr("Captured"), tr("Trace"), tr("Command")});
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);

    start_ = new QPushButton(tr("&Start Capture"), this);
    start_->setObjectName(QStringLiteral("attachStart"));
    stop_ = new QPushButton(tr("S&top Capture"), this);
    stop_->setObjectName(QStringLiteral("attachStop"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(start_, QDialogButtonBox::ActionRole);
    buttons->addButton(stop_, QDialogButtonBox::ActionRole);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("attachStatus"));
    status_->setWordWrap(true);
    status_->setText(tr("Programs started with strata-cli record --wait-for-attach keep nothing "
                        "until a capture starts."));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(where);
    layout->addWidget(table_, 1);
    layout->addWidget(status_);
    layout->addWidget(buttons);
    resize(760, 360);

    connect(refresh_, &QPushButton::clicked, this, &AttachDialog::refresh);
    connect(host_, &QLineEdit::returnPressed, this, &AttachDialog::refresh);
    connect(start_, &QPushButton::clicked, this, &AttachDialog::startCapture);
    connect(stop_, &QPushButton::clicked, this, &AttachDialog::stopCapture);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(table_, &QTableWidget::itemSelectionChanged, this, &AttachDialog::updateButtons);
    updateButtons();
}

AttachDialog::~AttachDialog() {
    if (!process_) return;
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(5000);
}

void AttachDialog::setHost(const QString& host, const QString& sshOptions) {
    host_->setText(host);
    sshOptions_->setText(sshOptions);
}

QString AttachDialog::statusText() const {
    return status_->text();
}

void AttachDialog::run(const QStringList& args,
                       const std::function<void(const QJsonObject&)>& done) {
    const QString cli = strataCliPath();
    if (cli.isEmpty()) {
        status_->setText(tr("strata-cli was not found (beside strata, in PATH or $STRATA_CLI)"));
        emit requestDone(false, status_->text(), 0);
        return;
    }
    QStringList all = {QStringLiteral("attach"), QStringLiteral("--json")};
    const QString host = host_->text().trimmed();
    if (!host.isEmpty()) {
        all << QStringLiteral("--remote") << host;
        if (!remoteDir_.isEmpty()) all << QStringLiteral("--remote-dir") << remoteDir_;
        for (const QString& o : sshOptions_->text().split(
                 QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
            all << QStringLiteral("--ssh-option") << o;
    }
    all << args;
    process_ = new QProcess(this);
    updateButtons();
    connect(process_, &QProcess::finished, this, [this, done](int code, QProcess::ExitStatus st) {
        QProcess* p = process_;
        process_ = nullptr;
        p->deleteLater();
        const QByteArray out = p->readAllStandardOutput(), err = p->readAllStandardError();
        if (st != QProcess::NormalExit || code != 0) {
            QString why = QString::fromUtf8(err).section(QLatin1Char('\n'), 0, 0);
            why.remove(QRegularExpression(QStringLiteral("^strata-cli attach: ")));
            status_->setText(why.isEmpty() ? tr("strata-cli attach failed (exit %1)").arg(code)
                                           : why);
            updateButtons();
            emit requestDone(false, status_->text(), 0);
            return;
        }
        done(QJsonDocument::fromJson(out).object());
        updateButtons();
    });
    process_->start(cli, all);
}

void AttachDialog::refresh() {
    if (busy()) return;
    run({QStringLiteral("--list")}, [this](const QJsonObject& doc) { showRuns(doc); });
}

void AttachDialog::showRuns(const QJsonObject& doc) {
    const qint64 selected = selectedPid();
    const QJsonArray runs = doc[QStringLiteral("runs")].toArray();
    table_->setRowCount(int(runs.size()));
    for (int row = 0; row < runs.size(); ++row) {
        const QJsonObject r = runs[row].toObject();
        const QString cells[kColumns] = {
            QString::number(qint64(r[QStringLiteral("pid")].toDouble())),
            r[QStringLiteral("state")].toString(),
            windowsText(r[QStringLiteral("windows")].toArray()),
            r[QStringLiteral("trace")].toString(), r[QStringLiteral("command")].toString()};
        for (int c = 0; c < kColumns; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            table_->setItem(row, c, item);
        }
        if (qint64(r[QStringLiteral("pid")].toDouble()) == selected || runs.size() == 1)
            table_->selectRow(row);
    }
    for (int c = 0; c < kCommand; ++c) table_->resizeColumnToContents(c);
    const QString where =
        host_->text().trimmed().isEmpty() ? tr("here") : tr("on %1").arg(host_->text().trimmed());
    status_->setText(runs.isEmpty() ? tr("No program waits for attach %1.").arg(where)
                     : runs.size() == 1
                         ? tr("1 program waits for attach %1.").arg(where)
                         : tr("%1 programs wait for attach %2.").arg(runs.size()).arg(where));
    emit listed(int(runs.size()));
}

void AttachDialog::startCapture() {
    request(true);
}

void AttachDialog::stopCapture() {
    request(false);
}

void AttachDialog::request(bool start) {
    const qint64 pid = selectedPid();
    if (pid <= 0 || busy()) return;
    QStringList args = {start ? QStringLiteral("--start") : QStringLiteral("--stop"),
                        QString::number(pid)};
    const QString host = host_->text().trimmed();
    QString copy;
    if (!start && !host.isEmpty()) {
        // The host's trace, copied back as it stands: HOST-PID-NAME in the copy folder.
        QString safeHost = host;
        safeHost.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")),
                         QStringLiteral("_"));
        const QString name =
            QFileInfo(table_->item(table_->currentRow(), kTrace)->text()).fileName();
        copy =
            QDir(copyFolder_).filePath(QStringLiteral("%1-%2-%3").arg(safeHost).arg(pid).arg(name));
        args << QStringLiteral("-o") << copy << QStringLiteral("--force");
    }
    status_->setText(start ? tr("Starting capture in %1\u2026").arg(pid)
                           : tr("Stopping capture in %1\u2026").arg(pid));
    run(args, [this, start, pid, copy](const QJsonObject& r) {
        const qint64 at = qint64(r[QStringLiteral("served_ns")].toDouble());
        const QString note = r[QStringLiteral("note")].toString();
        const QString trace = copy.isEmpty() ? r[QStringLiteral("trace")].toString() : copy;
        const QString message =
            start ? (note.isEmpty() ? tr("Capturing in %1.").arg(pid)
                                    : tr("%1: %2.").arg(pid).arg(note))
                  : tr("Stopped capture in %1; its trace: %2").arg(pid).arg(trace);
        status_->setText(message);
        emit requestDone(true, message, at);
        if (!start) emit traceStopped(trace);
        refresh();
    });
}

qint64 AttachDialog::selectedPid() const {
    const int row = table_->currentRow();
    if (row < 0 || !table_->item(row, kPid) || table_->selectedItems().isEmpty()) return 0;
    return table_->item(row, kPid)->text().toLongLong();
}

QString AttachDialog::selectedState() const {
    const int row = table_->currentRow();
    return row >= 0 && table_->item(row, kState) && !table_->selectedItems().isEmpty()
               ? table_->item(row, kState)->text()
               : QString();
}

void AttachDialog::updateButtons() {
    const QString state = selectedState();
    refresh_->setEnabled(!busy());
    start_->setEnabled(!busy() && !state.isEmpty() && state != QLatin1String("capturing"));
    stop_->setEnabled(!busy() && state == QLatin1String("capturing"));
}

} // namespace strata
