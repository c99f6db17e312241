#include "chart_export.h"

#include <qcustomplot.h>

#include "util/output_file.h"

#include <QAbstractItemModel>
#include <QBuffer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTemporaryDir>
#include <functional>

namespace strata {
namespace {

// What was made in memory, written as util/output_file.h says (never half a file; a device
// written into, never replaced). False and *error when it could not be.
bool writeOut(const QString& path, const QByteArray& bytes, QString* error) {
    std::string why;
    if (writeWholeFile(QFile::encodeName(path).toStdString(),
                       std::string_view(bytes.constData(), size_t(bytes.size())), &why))
        return true;
    if (error) *error = QString::fromStdString(why);
    return false;
}

} // namespace

QString chartFileFilter() {
    return QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)");
}

QString tableFileFilter() {
    return QObject::tr("CSV table (*.csv)");
}

bool saveChart(QCustomPlot* plot, const QString& path, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    const int w = plot->width() > 0 ? plot->width() : 900,
              h = plot->height() > 0 ? plot->height() : 500;
    bool ok = false;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (suffix == "png" || suffix == "pdf") {
        // QCustomPlot's own exporters, into a private folder; then written out from there.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("chart.") + suffix);
        ok = dir.isValid() &&
             (suffix == "png" ? plot->savePng(file, w, h, 2.0) : plot->savePdf(file, w, h));
        QFile made(file);
        ok = ok && made.open(QIODevice::ReadOnly);
        if (ok) bytes = made.readAll();
    } else if (suffix == "svg") {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(QSize(w, h));
        svg.setViewBox(QRect(0, 0, w, h));
        svg.setTitle(plot->objectName());
        QCPPainter painter;
        ok = painter.begin(&svg);
        if (ok) {
            plot->toPainter(&painter, w, h);
            ok = painter.end();
        }
    } else {
        if (error) *error = QObject::tr("%1: not a chart format (.png, .svg or .pdf)").arg(path);
        return false;
    }
    if (!ok) {
        if (error) *error = QObject::tr("%1: could not be drawn").arg(path);
        return false;
    }
    return writeOut(path, bytes, error);
}

namespace {
QString csvCell(QString s) {
    if (s.contains(',') || s.contains('"') || s.contains('\n'))
        s = '"' + s.replace("\"", "\"\"") + '"';
    return s;
}
} // namespace

bool saveTableCsv(const QAbstractItemModel* model, const QString& path, QString* error) {
    QStringList line;
    for (int c = 0; c < model->columnCount(); ++c)
        line << csvCell(model->headerData(c, Qt::Horizontal).toString());
    QByteArray out = line.join(',').toUtf8() + '\n';
    for (int r = 0; r < model->rowCount(); ++r) {
        line.clear();
        for (int c = 0; c < model->columnCount(); ++c) {
            const QModelIndex i = model->index(r, c);
            const QVariant raw = model->data(i, Qt::UserRole);
            const bool number =
                raw.isValid() && raw.canConvert<double>() && raw.typeId() != QMetaType::QString;
            // A text column's Qt::UserRole is its exact text (a full name behind a short one).
            QString text = number ? QString::number(raw.toDouble(), 'g', 15)
                           : raw.typeId() == QMetaType::QString
                               ? raw.toString()
                               : model->data(i, Qt::DisplayRole).toString();
            if (text == QStringLiteral("—")) text.clear(); // "not applicable": an empty cell
            line << csvCell(text);
        }
        out += line.join(',').toUtf8() + '\n';
    }
    return writeOut(path, out, error);
}

bool saveWidget(QWidget* w, const QString& path, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = false;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (suffix == "png") {
        ok = w->grab().save(&buffer, "PNG");
    } else if (suffix == "svg") {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(w->size());
        svg.setViewBox(QRect(QPoint(0, 0), w->size()));
        QPainter p;
        ok = p.begin(&svg);
        if (ok) {
            w->render(&p);
            ok = p.end();
        }
    } else if (suffix == "pdf") {
        QPdfWriter pdf(&buffer);
        pdf.setPageSize(QPageSize(QSizeF(w->width(), w->height()), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        QPainter p;
        ok = p.begin(&pdf);
        if (ok) {
            w->render(&p);
            ok = p.end();
        }
    } else {
        if (error) *error = QObject::tr("%1: not a chart format (.png, .svg or .pdf)").arg(path);
        return false;
    }
    if (!ok) {
        if (error) *error = QObject::tr("%1: could not be drawn").arg(path);
        return false;
    }
    return writeOut(path, bytes, error);
}

bool saveTreeCsv(const QAbstractItemModel* model, const QString& path, QString* error) {
    QStringList line{QStringLiteral("depth")};
    for (int c = 0; c < model->columnCount(); ++c)
        line << csvCell(model->headerData(c, Qt::Horizontal).toString());
    QByteArray out = line.join(',').toUtf8() + '\n';
    std::function<void(const QModelIndex&, int)> walk = [&](const QModelIndex& parent, int depth) {
        for (int r = 0; r < model->rowCount(parent); ++r) {
            QStringList cells{QString::number(depth)};
            for (int c = 0; c < model->columnCount(parent); ++c) {
                const QModelIndex i = model->index(r, c, parent);
                const QVariant raw = model->data(i, Qt::UserRole);
                const bool number =
                    raw.isValid() && raw.typeId() != QMetaType::QString && raw.canConvert<double>();
                cells << csvCell(number ? QString::number(raw.toDouble(), 'g', 15)
                                 : raw.typeId() == QMetaType::QString
                                     ? raw.toString()
                                     : model->data(i, Qt::DisplayRole).toString());
            }
            out += cells.join(',').toUtf8() + '\n';
            walk(model->index(r, 0, parent), depth + 1);
        }
    };
    walk(QModelIndex(), 1);
    return writeOut(path, out, error);
}

void exportWidgetInteractively(QWidget* parent, QWidget* widget, const QString& baseName) {
    const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export Chart"),
                                                      baseName + ".png", chartFileFilter());
    if (path.isEmpty()) return;
    QString error;
    if (!saveWidget(widget, path, &error))
        QMessageBox::warning(parent, QObject::tr("Export Chart"), error);
}

void exportTreeInteractively(QWidget* parent, const QAbstractItemModel* model,
                             const QString& baseName) {
    const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export Table"),
                                                      baseName + ".csv", tableFileFilter());
    if (path.isEmpty()) return;
    QString error;
    if (!saveTreeCsv(model, path, &error))
        QMessageBox::warning(parent, QObject::tr("Export Table"), error);
}

void exportChartInteractively(QWidget* parent, QCustomPlot* plot, const QString& baseName) {
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export Chart"), baseName + ".png", chartFileFilter(), &filter);
    if (path.isEmpty()) return;
    QString error;
    if (!saveChart(plot, path, &error))
        QMessageBox::warning(parent, QObject::tr("Export Chart"), error);
}

void exportTableInteractively(QWidget* parent, const QAbstractItemModel* model,
                              const QString& baseName) {
    const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export Table"),
                                                      baseName + ".csv", tableFileFilter());
    if (path.isEmpty()) return;
    QString error;
    if (!saveTableCsv(model, path, &error))
        QMessageBox::warning(parent, QObject::tr("Export Table"), error);
}

} // namespace strata
