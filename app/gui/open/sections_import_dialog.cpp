#include "open/sections_import_dialog.h"

#include "io/sections/sections_import.h"

#include <QCryptographicHash>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace strata {

SectionsImportDialog::SectionsImportDialog(const QString& path, QWidget* parent, bool remember)
    : QDialog(parent), path_(QFileInfo(path).absoluteFilePath()), remember_(remember),
      names_(new QLineEdit(this)), clock_(new QLineEdit(this)), problem_(new QLabel(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setWindowTitle(tr("Import Timer Sections"));
    auto* intro = new QLabel(
        tr("<b>%1</b><br>A timer array is read as <tt>times[section][iteration]</tt> of clock "
           "deltas. Both fields are optional and remembered for this file.")
            .arg(QFileInfo(path_).fileName().toHtmlEscaped()),
        this);
    intro->setWordWrap(true);
    names_->setPlaceholderText(tr("load, compute, store (a .npy has none: \"section 0\", …)"));
    names_->setToolTip(tr("Comma-separated, one per section in the array's order; given names "
                          "replace a .csv's or .json's"));
    clock_->setPlaceholderText(tr("e.g. 1.98e9 (Hz); empty: values stay in cycles"));
    clock_->setToolTip(tr("The SM clock rate in Hz that turns cycles into time (a .json's or "
                          ".sections file's own rate is used when this is empty)"));
    problem_->setStyleSheet(QStringLiteral("color: #b00020"));
    auto* form = new QFormLayout;
    form->addRow(tr("Section &names:"), names_);
    form->addRow(tr("&Clock rate (Hz):"), clock_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons_);
    if (remember_) {
        const QSettings s;
        names_->setText(s.value(key("names")).toString());
        clock_->setText(s.value(key("clockHz")).toString());
    }
    connect(buttons_, &QDialogButtonBox::accepted, this, &SectionsImportDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &SectionsImportDialog::reject);
    connect(clock_, &QLineEdit::textChanged, this, &SectionsImportDialog::check);
    check();
    resize(520, sizeHint().height());
}

QString SectionsImportDialog::key(const char* what) const {
    // A path holds '/', which QSettings reads as groups: the file is named by its hash.
    const QByteArray id =
        QCryptographicHash::hash(path_.toUtf8(), QCryptographicHash::Sha1).toHex().left(20);
    return QStringLiteral("sectionsImport/%1/%2").arg(QString::fromLatin1(id), what);
}

std::vector<std::string> SectionsImportDialog::splitNames(const QString& text) {
    std::vector<std::string> out;
    if (text.trimmed().isEmpty()) return out;
    for (const QString& n : text.split(QLatin1Char(','))) out.push_back(n.trimmed().toStdString());
    return out;
}

bool SectionsImportDialog::valid() const {
    const QString c = clock_->text().trimmed();
    if (c.isEmpty()) return true;
    double hz = 0;
    return parseSectionsNumber(c.toStdString(), &hz) && hz > 0 && hz <= 1e15;
}

void SectionsImportDialog::check() {
    const bool ok = valid();
    problem_->setText(ok ? QString()
                         : tr("The clock rate must be a positive number of Hz, e.g. 1980000000 "
                              "or 1.98e9."));
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(ok);
}

LoadOptions SectionsImportDialog::options() const {
    LoadOptions o;
    o.sectionNames = splitNames(names_->text());
    const QString c = clock_->text().trimmed();
    if (!c.isEmpty()) parseSectionsNumber(c.toStdString(), &o.clockHz);
    return o;
}

void SectionsImportDialog::accept() {
    if (!valid()) return;
    if (remember_) {
        QSettings s;
        s.setValue(key("names"), names_->text().trimmed());
        s.setValue(key("clockHz"), clock_->text().trimmed());
    }
    QDialog::accept();
}

} // namespace strata
