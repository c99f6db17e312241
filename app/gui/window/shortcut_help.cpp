#include "window/shortcut_help.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strata {

QList<ShortcutEntry> timelineShortcuts() {
    const QString g = QObject::tr("Timeline");
    return {
        {QStringLiteral("W / S"), QObject::tr("Zoom in / out"), g},
        {QStringLiteral("A / D"), QObject::tr("Pan left / right"), g},
        {QStringLiteral("F"), QObject::tr("Zoom to the selected slice or range"), g},
        {QStringLiteral("Home"), QObject::tr("Zoom to the whole trace"), g},
        {QObject::tr("Wheel, Ctrl+Wheel"),
         QObject::tr("Zoom at the cursor (with View \u25b8 Wheel Scrolls the Tracks: the wheel "
                     "scrolls, Ctrl+Wheel zooms)"),
         g},
        {QObject::tr("Shift+Wheel"),
         QObject::tr("Scroll the tracks (with Wheel Scrolls the Tracks: pan)"), g},
        {QObject::tr("Horizontal wheel / touchpad"), QObject::tr("Pan"), g},
        {QObject::tr("Wheel over the track names"), QObject::tr("Scroll the tracks"), g},
        {QObject::tr("Drag"), QObject::tr("Pan"), g},
        {QObject::tr("Click"), QObject::tr("Select a slice (details in the Details panel)"), g},
        {QObject::tr("Drag on the ruler"), QObject::tr("Select a time range (Range panel)"), g},
        {QStringLiteral("M"), QObject::tr("Add a note at the mouse (Ctrl+click on the ruler too)"),
         g},
        {QStringLiteral("Shift+M"), QObject::tr("Add a flag over the selected range or slice"), g},
        {QObject::tr("Delete"), QObject::tr("Delete the selected note or flag"), g},
    };
}

ShortcutHelpDialog::ShortcutHelpDialog(const QList<ShortcutEntry>& entries,
                                       const QString& legendHtml, QWidget* parent)
    : QDialog(parent), table_(new QTableWidget(this)) {
    setWindowTitle(tr("Keyboard shortcuts"));
    table_->setColumnCount(3);
    table_->setHorizontalHeaderLabels({tr("Keys"), tr("Action"), tr("Where")});
    table_->setRowCount(static_cast<int>(entries.size()));
    for (int i = 0; i < entries.size(); ++i) {
        const ShortcutEntry& e = entries[i];
        auto* keys = new QTableWidgetItem(e.keys);
        QFont f = keys->font();
        f.setBold(true);
        keys->setFont(f);
        table_->setItem(i, 0, keys);
        table_->setItem(i, 1, new QTableWidgetItem(e.action));
        table_->setItem(i, 2, new QTableWidgetItem(e.group));
    }
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    table_->setAlternatingRowColors(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* legend = new QLabel(legendHtml, this);
    legend->setObjectName(QStringLiteral("timelineLegend"));
    legend->setWordWrap(true);
    legend->setTextFormat(Qt::RichText);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table_);
    layout->addWidget(legend);
    legend->setVisible(!legendHtml.isEmpty());
    layout->addWidget(buttons);
    resize(600, 680);
}

} // namespace strata
