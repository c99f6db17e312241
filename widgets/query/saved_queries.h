#pragma once
// The Query dock's saved queries: the ones Strata ships (top kernels per step, copies over 1 MB,
// slow launches, ops by input shape, kernels by launching CPU op, GPU gaps by cause) and the
// user's own, kept in the settings (QSettings "query/saved": a list of {name, sql}) under the
// name the user gave; saving under a name already used replaces that query.
#include <QString>

#include <vector>

namespace strata {

struct SavedQuery {
    QString name;
    QString sql;
    bool shipped = false; // Strata's own: not removed
};

class SavedQueries {
public:
    static const std::vector<SavedQuery>& shipped();
    // The user's, in the order saved.
    static std::vector<SavedQuery> user();
    static void save(const QString& name, const QString& sql);
    static void remove(const QString& name);
    // The shipped ones, then the user's.
    static std::vector<SavedQuery> all();
};

} // namespace strata
