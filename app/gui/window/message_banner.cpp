#include "window/message_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace strata {

MessageBanner::MessageBanner(QWidget* parent)
    : QWidget(parent), icon_(new QLabel(this)), text_(new QLabel(this)) {
    setObjectName(QStringLiteral("errorBanner"));
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    text_->setWordWrap(true);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* dismiss = new QToolButton(this);
    dismiss->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    dismiss->setAutoRaise(true);
    dismiss->setToolTip(tr("Dismiss"));
    connect(dismiss, &QToolButton::clicked, this, &QWidget::hide);
    layout->addWidget(icon_, 0, Qt::AlignTop);
    layout->addWidget(text_, 1);
    layout->addWidget(dismiss, 0, Qt::AlignTop);
    hide();
}

void MessageBanner::showError(const QString& message) {
    showMessage(message, true);
}

void MessageBanner::showNotice(const QString& message) {
    showMessage(message, false);
}

void MessageBanner::showMessage(const QString& message, bool error) {
    QPalette pal = palette();
    pal.setColor(QPalette::Window, error ? QColor(0xfd, 0xe2, 0xe1) : QColor(0xff, 0xf4, 0xce));
    pal.setColor(QPalette::WindowText, error ? QColor(0x70, 0x10, 0x10) : QColor(0x5c, 0x44, 0x00));
    setPalette(pal);
    icon_->setPixmap(
        style()
            ->standardIcon(error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxInformation)
            .pixmap(20, 20));
    text_->setText(message);
    show();
}

QString MessageBanner::text() const {
    return isVisible() ? text_->text() : QString();
}

} // namespace strata
