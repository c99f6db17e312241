// The Launch dialog's saved configurations (launch_config.h's store): the list of names, and
// picking, saving, copying, renaming and deleting one. The dialog's rows are launch_dialog.cpp's.
#include "launch/launch_dialog.h"

#include <QComboBox>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalBlocker>

namespace strata {

void LaunchDialog::reloadNames(const QString& select) {
    QSignalBlocker block(configs_);
    configs_->clear();
    configs_->addItem(tr("(unsaved)"));
    configs_->addItems(LaunchConfigStore::names());
    const int i = select.isEmpty() ? 0 : configs_->findText(select);
    configs_->setCurrentIndex(i < 0 ? 0 : i);
}

void LaunchDialog::pickConfig(const QString& name) {
    LaunchConfig c;
    if (configs_->currentIndex() > 0 && LaunchConfigStore::load(name, &c)) setConfig(c);
}

void LaunchDialog::saveAs() {
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Save Configuration"), tr("Name:"),
                                               QLineEdit::Normal, name_, &ok)
                             .trimmed();
    if (!ok || name.isEmpty()) return;
    LaunchConfig c = config();
    c.name = name;
    LaunchConfigStore::save(c);
    name_ = name;
    reloadNames(name);
}

void LaunchDialog::duplicateConfig() {
    if (name_.isEmpty()) return;
    LaunchConfig c = config();
    c.name = LaunchConfigStore::copyName(name_);
    LaunchConfigStore::save(c);
    name_ = c.name;
    reloadNames(c.name);
}

void LaunchDialog::renameConfig() {
    if (name_.isEmpty()) return;
    bool ok = false;
    const QString to = QInputDialog::getText(this, tr("Rename Configuration"), tr("New name:"),
                                             QLineEdit::Normal, name_, &ok)
                           .trimmed();
    if (!ok || to.isEmpty() || to == name_) return;
    if (!LaunchConfigStore::rename(name_, to)) {
        QMessageBox::warning(this, tr("Rename"), tr("A configuration named %1 exists.").arg(to));
        return;
    }
    name_ = to;
    reloadNames(to);
}

void LaunchDialog::deleteConfig() {
    if (name_.isEmpty()) return;
    LaunchConfigStore::remove(name_);
    name_.clear();
    reloadNames(QString());
}

} // namespace strata
