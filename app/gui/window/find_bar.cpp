#include "window/find_bar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

namespace strata {

FindBar::FindBar(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : TracePanel(workspace, navigation, parent), trace_(workspace->current()),
      edit_(new QLineEdit(this)), case_(new QToolButton(this)), regex_(new QToolButton(this)),
      prev_(new QToolButton(this)), next_(new QToolButton(this)), close_(new QToolButton(this)),
      status_(new QLabel(this)), debounce_(new QTimer(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 6, 3);
    auto* label = new QLabel(tr("Find slices and instants:"), this);
    edit_->setPlaceholderText(tr("name contains\u2026  or  key=value, grid>1024, "
                                 "name~gemm && dur>10us"));
    edit_->setClearButtonEnabled(true);
    edit_->setToolTip(
        tr("Find slices and instants whose names contain this text (Enter: next, Shift+Enter: "
           "previous), or by field or arg: key=value, key!=value, key>n, key>=n, key<n, key<=n, "
           "key~text (contains), terms joined by &&; e.g. correlation=471260, grid>1024, "
           "Input Dims~[8, 1024], name~gemm && dur>10us. Keys: any arg, and name, cat, dur "
           "(ns; 10us, 2ms), correlation, external, device, stream, grid, block (x*y*z; grid.x "
           "...), registers, shared, bytes, kind (HtoD ...). The regex applies to names only."));
    edit_->installEventFilter(this);
    case_->setText(QStringLiteral("Aa"));
    case_->setCheckable(true);
    case_->setToolTip(tr("Match case"));
    regex_->setText(QStringLiteral(".*"));
    regex_->setCheckable(true);
    regex_->setToolTip(tr("Regular expression (ECMAScript)"));
    prev_->setArrowType(Qt::UpArrow);
    prev_->setToolTip(tr("Previous match (Shift+F3, Shift+Enter)"));
    next_->setArrowType(Qt::DownArrow);
    next_->setToolTip(tr("Next match (F3, Enter)"));
    close_->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close_->setAutoRaise(true);
    close_->setToolTip(tr("Close (Esc)"));
    status_->setMinimumWidth(120);
    layout->addWidget(label);
    layout->addWidget(edit_, 1);
    layout->addWidget(case_);
    layout->addWidget(regex_);
    layout->addWidget(prev_);
    layout->addWidget(next_);
    layout->addWidget(status_);
    layout->addWidget(close_);

    debounce_->setSingleShot(true);
    debounce_->setInterval(150);
    connect(debounce_, &QTimer::timeout, this, &FindBar::search);
    auto changed = [this] {
        dirty_ = true;
        debounce_->start();
    };
    connect(edit_, &QLineEdit::textChanged, this, changed);
    connect(case_, &QToolButton::toggled, this, changed);
    connect(regex_, &QToolButton::toggled, this, changed);
    connect(prev_, &QToolButton::clicked, this, &FindBar::previous);
    connect(next_, &QToolButton::clicked, this, &FindBar::next);
    connect(close_, &QToolButton::clicked, this, [this] {
        hide();
        emit closed();
    });
    updateStatus();
}

void FindBar::traceChanged(const std::shared_ptr<const Trace>& trace) {
    trace_ = trace;
    dirty_ = true;
    matches_.clear();
    instants_.clear();
    current_ = -1;
    if (isVisible() && !edit_->text().isEmpty())
        search();
    else
        updateStatus();
}

void FindBar::activate() {
    show();
    edit_->setFocus(Qt::ShortcutFocusReason);
    edit_->selectAll();
}

void FindBar::search() {
    debounce_->stop();
    dirty_ = false;
    matches_.clear();
    instants_.clear();
    current_ = -1;
    error_.clear();
    badRegex_ = false;
    note_.clear();
    if (trace_) {
        SliceSearchResult r = findSlices(
            *trace_, {edit_->text().toStdString(), regex_->isChecked(), case_->isChecked()});
        error_ = QString::fromStdString(r.error);
        badRegex_ = r.badRegex;
        note_ = QString::fromStdString(r.note);
        matches_ = std::move(r.matches);
        instants_ = std::move(r.instants);
    }
    emit highlightsChanged(matches_);
    emit instantHighlightsChanged(instants_);
    updateStatus();
    // Select the first match so the timeline shows where it is.
    if (total() > 0) step(true);
}

void FindBar::next() {
    step(true);
}
void FindBar::previous() {
    step(false);
}

void FindBar::step(bool forward) {
    if (dirty_) {
        search(); // selects the first match
        if (forward || total() == 0) return;
    }
    const int i = nextMatchIndex(size_t(total()), current_, forward);
    if (i >= 0) makeCurrent(i);
}

void FindBar::setCurrentIndex(int i) {
    if (i < 0 || i >= total()) return;
    makeCurrent(i);
}

void FindBar::makeCurrent(int i) {
    current_ = i;
    updateStatus();
    if (i >= static_cast<int>(matches_.size())) {
        navigation()->setSelectedSlice({});
        emit instantChosen(instants_[size_t(i) - matches_.size()]);
        return;
    }
    const SliceRef r = matches_[static_cast<size_t>(i)];
    navigation()->setSelectedSlice(workspace()->ref(r), true);
    emit currentChanged(r);
}

QString FindBar::statusText() const {
    return status_->text();
}

void FindBar::updateStatus() {
    QPalette pal = status_->palette();
    pal.setColor(QPalette::WindowText, palette().color(QPalette::WindowText));
    if (!error_.isEmpty()) {
        status_->setText(badRegex_ ? tr("invalid regex") : error_);
        status_->setToolTip(error_);
        pal.setColor(QPalette::WindowText, QColor(0xc0, 0x20, 0x20));
    } else if (edit_->text().isEmpty()) {
        status_->clear();
        status_->setToolTip({});
    } else if (total() == 0) {
        status_->setText(dirty_ ? QString() : note_.isEmpty() ? tr("no matches") : note_);
        status_->setToolTip(dirty_ || note_.isEmpty() ? QString() : tr("no matches"));
    } else {
        status_->setText(tr("%1 of %2").arg(current_ + 1).arg(total()));
        status_->setToolTip(
            tr("%1 slices, %2 instants").arg(matches_.size()).arg(instants_.size()));
    }
    status_->setPalette(pal);
}

void FindBar::keyPressEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Escape) {
        hide();
        emit closed();
        return;
    }
    QWidget::keyPressEvent(e);
}

bool FindBar::eventFilter(QObject* o, QEvent* e) {
    if (o == edit_ && e->type() == QEvent::KeyPress) {
        auto* k = static_cast<QKeyEvent*>(e);
        if (k->key() == Qt::Key_Return || k->key() == Qt::Key_Enter) {
            step(!(k->modifiers() & Qt::ShiftModifier));
            return true;
        }
        if (k->key() == Qt::Key_Escape) {
            hide();
            emit closed();
            return true;
        }
    }
    return QWidget::eventFilter(o, e);
}

} // namespace strata
