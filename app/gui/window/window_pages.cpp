#include "window/window_pages.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace strata {

WindowPages::WindowPages(QWidget* timeline, QWidget* parent)
    : QStackedWidget(parent), report_(new QLabel(this)), timeline_(timeline) {
    welcome_ = makeWelcome();
    loading_ = makeLoading(); // sets the loading page's parts (declared after it)
    report_->setObjectName(QStringLiteral("digestPage"));
    report_->setAlignment(Qt::AlignCenter);
    report_->setWordWrap(true);
    report_->setTextFormat(Qt::RichText);
    addWidget(welcome_);
    addWidget(loading_);
    addWidget(timeline_);
    addWidget(report_);
    setCurrentWidget(welcome_);
}

QWidget* WindowPages::makeWelcome() {
    auto* page = new QWidget(this);
    auto* v = new QVBoxLayout(page);
    v->addStretch(2);
    auto* logo = new QLabel(page);
    logo->setPixmap(QPixmap(QStringLiteral(":/strata/strata.png")));
    logo->setAlignment(Qt::AlignCenter);
    auto* title = new QLabel(tr("<h2>Strata</h2><p>A trace viewer for GPU programs: PyTorch "
                                "profiler / Kineto and Chrome JSON (.json, .json.gz), "
                                "Strata traces (.strata).</p><p>Drop a trace here, or:</p>"),
                             page);
    title->setAlignment(Qt::AlignCenter);
    title->setWordWrap(true);
    auto* open = new QPushButton(tr("Open a trace\u2026"), page);
    open->setObjectName(QStringLiteral("openButton"));
    open->setToolTip(tr("Choose a trace file, or several (the ranks of a job) (Ctrl+O)"));
    auto* sample = new QPushButton(tr("Open the sample trace"), page);
    sample->setObjectName(QStringLiteral("sampleButton"));
    sample->setToolTip(tr("A small PyTorch profiler trace that comes with Strata"));
    connect(open, &QPushButton::clicked, this, &WindowPages::openRequested);
    connect(sample, &QPushButton::clicked, this, &WindowPages::sampleRequested);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(open);
    buttons->addWidget(sample);
    buttons->addStretch();
    v->addWidget(logo);
    v->addWidget(title);
    v->addLayout(buttons);
    auto* hint = new QLabel(tr("Press ? for keyboard shortcuts."), page);
    hint->setAlignment(Qt::AlignCenter);
    hint->setEnabled(false);
    v->addWidget(hint);
    v->addStretch(3);
    return page;
}

QWidget* WindowPages::makeLoading() {
    auto* page = new QWidget(this);
    page->setObjectName(QStringLiteral("loadingPage"));
    auto* v = new QVBoxLayout(page);
    v->addStretch(2);
    loadingLabel_ = new QLabel(page);
    loadingLabel_->setAlignment(Qt::AlignCenter);
    loadingLabel_->setWordWrap(true);
    loadingBar_ = new QProgressBar(page);
    loadingBar_->setRange(0, 1000);
    loadingBar_->setFormat(QStringLiteral("%p%"));
    loadingBar_->setMaximumWidth(480);
    auto* cancel = new QPushButton(tr("Cancel"), page);
    cancel->setToolTip(tr("Stop loading; the window stays as it was"));
    connect(cancel, &QPushButton::clicked, this, &WindowPages::cancelRequested);
    auto* row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(loadingBar_, 1);
    row->addWidget(cancel);
    row->addStretch();
    v->addWidget(loadingLabel_);
    v->addLayout(row);
    v->addStretch(3);
    return page;
}

void WindowPages::show(Page page) {
    switch (page) {
    case Page::Welcome:
        setCurrentWidget(welcome_);
        break;
    case Page::Loading:
        setCurrentWidget(loading_);
        break;
    case Page::Report:
        setCurrentWidget(report_);
        break;
    case Page::Timeline:
        setCurrentWidget(timeline_);
        break;
    }
}

bool WindowPages::showing(Page page) const {
    const QWidget* pages[] = {welcome_, loading_, report_, timeline_};
    return currentWidget() == pages[int(page)];
}

void WindowPages::startLoading(const QString& what, const QString& where) {
    if (!idle()) return; // the trace shown stays until the new one replaces it
    loadingLabel_->setText(
        tr("<h3>Loading %1\u2026</h3><p>%2</p>").arg(what.toHtmlEscaped(), where.toHtmlEscaped()));
    loadingBar_->setValue(0);
    setCurrentWidget(loading_);
}

void WindowPages::setProgress(double fraction) {
    loadingBar_->setValue(int(fraction * 1000));
}

void WindowPages::showReport(const QString& html) {
    report_->setText(html);
    setCurrentWidget(report_);
}

} // namespace strata
