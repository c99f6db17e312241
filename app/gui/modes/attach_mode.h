#pragma once
// `strata --attach [--remote HOST [--ssh-option OPT]...] [--screenshot OUT.png]`: a window with
// Profile > Attach… open, listing the programs waiting for an attach session here or on HOST
// (widgets/launch/attach_dialog.h); with --screenshot, the dialog is rendered once the list has
// come, and Strata exits.
#include <QString>
#include <QStringList>

namespace strata {

int runAttachMode(const QString& remote, const QStringList& sshOptions, const QString& screenshot);

} // namespace strata
