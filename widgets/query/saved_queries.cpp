#include "saved_queries.h"

#include <QSettings>
#include <QVariantMap>

namespace strata {

namespace {

const QString kKey = QStringLiteral("query/saved");

void store(const std::vector<SavedQuery>& queries) {
    QVariantList list;
    for (const SavedQuery& q : queries)
        list << QVariantMap{{QStringLiteral("name"), q.name}, {QStringLiteral("sql"), q.sql}};
    QSettings().setValue(kKey, list);
}

} // namespace

const std::vector<SavedQuery>& SavedQueries::shipped() {
    // Each runs on the real traces of ../shared/traces (checked with strata-cli query).
    static const std::vector<SavedQuery> queries = {
        {QObject::tr("Top kernels per step"),
         QStringLiteral(
             "-- The 5 kernels with the most GPU time in each step (kernels that start in it;\n"
             "-- rank: a set's rank, NULL for one trace); id: the first of them\n"
             "SELECT rank, step, step_name, kernel, kernels, total_ns, id FROM (\n"
             "  SELECT s.rank, s.step, s.name AS step_name, g.name AS kernel, count(*) AS "
             "kernels,\n"
             "         sum(g.dur) AS total_ns, min(g.id) AS id,\n"
             "         row_number() OVER (PARTITION BY s.rank, s.step ORDER BY sum(g.dur) DESC)\n"
             "           AS place\n"
             "  FROM steps s JOIN gpu_ops g\n"
             "    ON g.rank IS s.rank AND g.ts >= s.ts AND g.ts < s.end\n"
             "  WHERE g.kind = 'kernel'\n"
             "  GROUP BY s.rank, s.step, g.name)\n"
             "WHERE place <= 5\n"
             "ORDER BY rank, step, total_ns DESC"),
         true},
        {QObject::tr("Copies over 1 MB"),
         QStringLiteral("-- Memory copies of more than 1 MB, largest first (bytes per ns = GB/s)\n"
                        "SELECT id, name, copy_kind, bytes, dur, round(bytes * 1.0 / dur, 2) AS "
                        "gb_per_s, stream\n"
                        "FROM gpu_ops\n"
                        "WHERE kind = 'gpu_memcpy' AND bytes > 1000000\n"
                        "ORDER BY bytes DESC"),
         true},
        {QObject::tr("Launches slower than 50 µs"),
         QStringLiteral("-- API calls that launched GPU work and took over 50 µs, slowest first\n"
                        "SELECT id, name, dur, correlation, gpu_ops, cpu_op\n"
                        "FROM api_calls\n"
                        "WHERE gpu_ops > 0 AND dur > 50000\n"
                        "ORDER BY dur DESC"),
         true},
        {QObject::tr("Ops by input shape"),
         QStringLiteral("-- CPU ops grouped by their 'Input Dims' arg (PyTorch's record_shapes)\n"
                        "SELECT a.value AS input_dims, s.name, count(*) AS calls,\n"
                        "       sum(s.dur) AS total_ns, min(s.id) AS id\n"
                        "FROM slices s JOIN args a ON a.slice_id = s.id\n"
                        "WHERE a.key = 'Input Dims'\n"
                        "GROUP BY a.value, s.name\n"
                        "ORDER BY total_ns DESC"),
         true},
        {QObject::tr("Kernels by launching CPU op"),
         QStringLiteral("-- GPU kernel time per CPU op that launched it (the innermost cpu_op)\n"
                        "SELECT cpu_op, count(*) AS kernels, sum(dur) AS gpu_ns,\n"
                        "       min(cpu_op_id) AS cpu_op_id\n"
                        "FROM gpu_ops\n"
                        "WHERE kind = 'kernel' AND cpu_op IS NOT NULL\n"
                        "GROUP BY cpu_op\n"
                        "ORDER BY gpu_ns DESC"),
         true},
        {QObject::tr("GPU gaps by cause"),
         QStringLiteral("-- Device idle gaps over the threshold, per cause; next_id: the op that "
                        "ends the longest\n"
                        "SELECT cause, count(*) AS gaps, sum(dur) AS idle_ns, max(dur) AS "
                        "longest_ns, next_id\n"
                        "FROM gaps\n"
                        "WHERE level = 'device'\n"
                        "GROUP BY cause\n"
                        "ORDER BY idle_ns DESC"),
         true},
    };
    return queries;
}

std::vector<SavedQuery> SavedQueries::user() {
    std::vector<SavedQuery> out;
    for (const QVariant& v : QSettings().value(kKey).toList()) {
        const QVariantMap m = v.toMap();
        const QString name = m.value(QStringLiteral("name")).toString();
        const QString sql = m.value(QStringLiteral("sql")).toString();
        if (!name.isEmpty() && !sql.isEmpty()) out.push_back({name, sql, false});
    }
    return out;
}

void SavedQueries::save(const QString& name, const QString& sql) {
    std::vector<SavedQuery> queries = user();
    const auto it = std::find_if(queries.begin(), queries.end(),
                                 [&](const SavedQuery& q) { return q.name == name; });
    if (it != queries.end())
        it->sql = sql;
    else
        queries.push_back({name, sql, false});
    store(queries);
}

void SavedQueries::remove(const QString& name) {
    std::vector<SavedQuery> queries = user();
    std::erase_if(queries, [&](const SavedQuery& q) { return q.name == name; });
    store(queries);
}

std::vector<SavedQuery> SavedQueries::all() {
    std::vector<SavedQuery> out = shipped();
    for (SavedQuery& q : user()) out.push_back(std::move(q));
    return out;
}

} // namespace strata
