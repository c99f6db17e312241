#pragma once
// The usual columns of a RowTableModel (row_table_model.h), so that every table reads the same:
// a time in 4 significant digits (model/time_text.h: formatDuration) with the exact value to the
// ns on hover and the ns in CSV, and a name shown short (model/display_name.h) with the full name
// on hover and in CSV.
#include "row_table_model.h"

#include "model/names/time_text.h"
#include "style/qt_text.h"

#include <QString>

#include <cmath>

namespace strata {

template <typename Row>
RowColumn<Row> timeColumn(const QString& header, std::function<double(const Row&)> ns) {
    return {header,
            [ns](const Row& r) {
                return QString::fromStdString(formatDuration(TimeNs(std::llround(ns(r)))));
            },
            [ns](const Row& r) { return std::optional<double>(ns(r)); },
            [ns](const Row& r) {
                const double v = ns(r);
                const TimeNs whole = TimeNs(std::llround(v));
                // A mean is a fraction of a ns: said as such rather than rounded away.
                QString tip = QString::fromStdString(formatPreciseDuration(whole));
                if (std::fabs(v - double(whole)) > 1e-6)
                    tip += QStringLiteral(" (%1 ns)").arg(v, 0, 'f', 3);
                return tip;
            }};
}

template <typename Row>
RowColumn<Row> nameColumn(const QString& header, std::function<QString(const Row&)> shown,
                          std::function<QString(const Row&)> full) {
    // On hover in lines (a plain tooltip does not wrap a 1000-character kernel name).
    RowColumn<Row> c{
        header, shown, {}, [full](const Row& r) { return wrappedText(full(r).toStdString()); }};
    c.exact = full;
    return c;
}

} // namespace strata
