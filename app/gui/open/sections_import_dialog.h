#pragma once
// What File > Import Timer Sections… asks after the file: the section names (a .npy has none; a
// .csv's or .json's are overridden) and the SM clock rate that turns cycles into time, both
// optional, both remembered per file (QSettings, by the file's absolute path) so that importing
// it again asks nothing new. The answers become LoadOptions::sectionNames / clockHz, which the
// sections readers take (io/sections/sections_import.h).
#include "io/load_result.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace strata {

class SectionsImportDialog : public QDialog {
    Q_OBJECT
public:
    // `remember`: read and write the answers in QSettings (off in tests that must not).
    explicit SectionsImportDialog(const QString& path, QWidget* parent = nullptr,
                                  bool remember = true);

    QLineEdit* namesEdit() const { return names_; }
    QLineEdit* clockEdit() const { return clock_; }
    // The answers, as the readers take them; valid() is false while the clock rate is not a
    // positive number (OK is disabled and the reason shown).
    bool valid() const;
    LoadOptions options() const;

    void accept() override; // remembers the answers

    // The names as typed: split at commas, each trimmed; none for an empty text.
    static std::vector<std::string> splitNames(const QString& text);

private:
    void check();
    QString key(const char* what) const;

    QString path_;
    bool remember_;
    QLineEdit* names_;
    QLineEdit* clock_;
    QLabel* problem_;
    QDialogButtonBox* buttons_;
};

} // namespace strata
