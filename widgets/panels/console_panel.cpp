#include "panels/console_panel.h"
#include "util/output_file.h"

#include <QFile>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTemporaryFile>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

#include <algorithm>

namespace strata {
namespace {

const QColor kStderrColor(0xb0, 0x00, 0x20);

// Copies what `log` holds to `out`, leaving `log` positioned at its end to go on writing.
bool copyLog(QFile& log, std::FILE* out) {
    const qint64 end = log.pos();
    bool ok = log.flush() && log.seek(0);
    QByteArray buf;
    for (qint64 left = end; ok && left > 0;) {
        buf = log.read(std::min<qint64>(left, qint64(1) << 20));
        ok = !buf.isEmpty() &&
             std::fwrite(buf.constData(), 1, size_t(buf.size()), out) == size_t(buf.size());
        left -= buf.size();
    }
    return log.seek(end) && ok;
}

} // namespace

ConsolePanel::ConsolePanel(QWidget* parent)
    : QWidget(parent), status_(new QLabel(this)), stopStatus_(new QLabel(this)),
      dropped_(new QLabel(this)), stop_(new QPushButton(tr("Stop"), this)),
      text_(new QPlainTextEdit(this)) {
    status_->setObjectName(QStringLiteral("consoleStatus"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stopStatus_->setObjectName(QStringLiteral("consoleStopStatus"));
    dropped_->setObjectName(QStringLiteral("consoleDropped"));
    dropped_->hide();
    stop_->setObjectName(QStringLiteral("consoleStop"));
    stop_->setEnabled(false);
    stop_->setToolTip(tr("Stop the program: SIGINT, then SIGTERM and SIGKILL if it does not "
                         "exit; what was captured is kept"));
    connect(stop_, &QPushButton::clicked, this, &ConsolePanel::stopRequested);
    text_->setObjectName(QStringLiteral("consoleText"));
    text_->setReadOnly(true);
    text_->setUndoRedoEnabled(false);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text_->setMaximumBlockCount(maxLines_);
    text_->setPlaceholderText(tr("Profile \u25b8 Launch\u2026 (Ctrl+R) runs a program here: its "
                                 "output shows as it comes, stderr in red."));

    auto* head = new QHBoxLayout;
    head->setContentsMargins(6, 4, 6, 0);
    head->addWidget(status_, 1);
    head->addWidget(stopStatus_);
    head->addWidget(stop_);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addLayout(head);
    v->addWidget(dropped_);
    v->addWidget(text_, 1);

    flushTimer_.setInterval(50);
    connect(&flushTimer_, &QTimer::timeout, this, &ConsolePanel::flush);
}

ConsolePanel::~ConsolePanel() = default;

void ConsolePanel::setMaxLines(int n) {
    maxLines_ = std::max(10, n);
    text_->setMaximumBlockCount(maxLines_);
}

void ConsolePanel::begin(const QString& commandLine) {
    text_->clear();
    pending_.clear();
    partialOut_ = Partial();
    partialErr_ = Partial();
    received_ = droppedPending_ = shownTotal_ = linesCut_ = 0;
    dropped_->hide();
    stopStatus_->clear();
    status_->setText(commandLine);
    // The log has no name from the start: it is removed as soon as it is open and lives on
    // through its descriptor, so nothing is left in TMPDIR however the process ends (a crash, a
    // kill, a window never deleted). saveLog() copies it through that descriptor.
    log_ = std::make_unique<QTemporaryFile>();
    if (!log_->open())
        log_.reset();
    else
        QFile::remove(log_->fileName());
    flushTimer_.start();
}

void ConsolePanel::append(const QByteArray& bytes, bool isStderr) {
    if (log_) { // every byte, in arrival order; stderr lines are not told apart in the file
        log_->write(bytes);
    }
    takeLines(isStderr ? partialErr_ : partialOut_, bytes, isStderr);
}

// Appends to the line what fits in kMaxLineBytes; the rest is counted.
void ConsolePanel::keep(Partial& partial, const char* data, qsizetype n) {
    const qsizetype room = std::max<qsizetype>(0, kMaxLineBytes - partial.bytes.size());
    const qsizetype take = std::min(room, n);
    partial.bytes.append(data, take);
    partial.cut += n - take;
}

void ConsolePanel::pushLine(Partial& partial, bool isStderr) {
    QString text;
    if (partial.cut > 0) {
        // Cut before a UTF-8 character the limit split, so the kept part decodes whole.
        const qsizetype size = partial.bytes.size();
        qsizetype end = size, lead = size;
        while (lead > 0 && size - lead < 4 && (uchar(partial.bytes[lead - 1]) & 0xC0) == 0x80)
            --lead;
        if (lead > 0) {
            const uchar c = uchar(partial.bytes[lead - 1]);
            const qsizetype need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            if (lead - 1 + need > size) end = lead - 1;
        }
        const qint64 left = partial.cut + (partial.bytes.size() - end);
        text = QString::fromUtf8(partial.bytes.constData(), end) +
               tr(" \u2026 [line cut: %L1 more bytes, in the saved log]").arg(left);
        ++linesCut_;
    } else {
        text = QString::fromUtf8(partial.bytes);
    }
    pending_.push_back({std::move(text), isStderr});
    partial = Partial();
    ++received_;
}

void ConsolePanel::takeLines(Partial& partial, const QByteArray& bytes, bool isStderr) {
    qsizetype from = 0;
    for (qsizetype nl; (nl = bytes.indexOf('\n', from)) >= 0; from = nl + 1) {
        keep(partial, bytes.constData() + from, nl - from);
        pushLine(partial, isStderr);
    }
    keep(partial, bytes.constData() + from, bytes.size() - from);
    // Keep at most maxLines_ waiting: more could never all be shown.
    while (qsizetype(pending_.size()) > maxLines_) {
        pending_.pop_front();
        ++droppedPending_;
    }
}

void ConsolePanel::flush() {
    if (pending_.empty()) return;
    QScrollBar* bar = text_->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    QTextCursor c(text_->document());
    c.movePosition(QTextCursor::End);
    c.beginEditBlock();
    QTextCharFormat plain;
    QTextCharFormat err;
    err.setForeground(kStderrColor);
    for (const Line& l : pending_) {
        if (shownTotal_ > 0) c.insertBlock();
        c.insertText(l.text, l.isStderr ? err : plain);
        ++shownTotal_;
    }
    c.endEditBlock();
    pending_.clear();
    if (atEnd) bar->setValue(bar->maximum());
    updateDropped();
}

qint64 ConsolePanel::linesDropped() const {
    const qint64 shownNow = shownTotal_ == 0 ? 0 : text_->document()->blockCount();
    return droppedPending_ + (shownTotal_ - shownNow);
}

void ConsolePanel::updateDropped() {
    const qint64 n = linesDropped();
    if (n <= 0 && linesCut_ == 0) return;
    QString text;
    if (n > 0)
        text = tr("%L1 earlier lines dropped from the view (it keeps the last %L2)")
                   .arg(n)
                   .arg(maxLines_);
    if (linesCut_ > 0)
        text += (text.isEmpty() ? QString() : QStringLiteral("; ")) +
                tr("%L1 lines longer than %L2 KiB cut").arg(linesCut_).arg(kMaxLineBytes / 1024);
    dropped_->setText(text + tr("; the whole output is saved beside the trace"));
    dropped_->show();
}

void ConsolePanel::setStatus(const QString& text) {
    status_->setText(text);
}

void ConsolePanel::setStopStatus(const QString& text) {
    stopStatus_->setText(text);
}

void ConsolePanel::setStopEnabled(bool on) {
    stop_->setEnabled(on);
}

void ConsolePanel::end(const QString& status) {
    for (auto [partial, isErr] : {std::pair{&partialOut_, false}, std::pair{&partialErr_, true}}) {
        if (partial->bytes.isEmpty() && partial->cut == 0) continue;
        pushLine(*partial, isErr);
    }
    flush();
    flushTimer_.stop();
    if (log_) log_->flush();
    stop_->setEnabled(false);
    stopStatus_->clear();
    status_->setText(status);
}

bool ConsolePanel::saveLog(const QString& path, QString* error) const {
    if (!log_) {
        *error = tr("no output was logged");
        return false;
    }
    // Written as util/output_file.h says: a file replaced whole, a device written into.
    std::string why;
    const std::unique_ptr<OutputFile> out =
        OutputFile::open(QFile::encodeName(path).toStdString(), &why);
    if (!out || !copyLog(*log_, out->stream()) || !out->commit(&why)) {
        *error = why.empty() ? tr("cannot write %1").arg(path) : QString::fromStdString(why);
        return false;
    }
    return true;
}

QString ConsolePanel::shownText() const {
    return text_->toPlainText();
}

QString ConsolePanel::statusText() const {
    return status_->text();
}

} // namespace strata
