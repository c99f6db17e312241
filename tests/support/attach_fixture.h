#pragma once
// What the attach tests share (tests/collector/tst_attach*.cpp): the stand-in CUPTI harness's
// "attach" scenario started under `strata-cli record --wait-for-attach`, its progress lines read
// as they come, and a trace's kernels checked against capture windows. Needs STRATA_CLI,
// STRATA_COLLECTOR_HARNESS and STRATA_COLLECTOR_FAKE_SO (tests/collector/CMakeLists.txt).
#include "support/collector_fixture.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QProcess>

#include <functional>
#include <utility>
#include <vector>

namespace strata::test {

// One line of the harness: the last kernel's start and whether kernel activity was on.
struct AttachTick {
    qint64 t = 0;
    int enabled = -1;
};

// strata-cli record -q --wait-for-attach (stand-in collector, 50 ms flushes) of the harness's
// "attach" scenario writing `file`, which ends once `endFile` exists.
inline void startWaitingHarness(QProcess& cli, const QString& file, const QString& endFile,
                                QProcessEnvironment env) {
    env.insert(QStringLiteral("HARNESS_END_FILE"), endFile);
    cli.setProcessEnvironment(env);
    cli.start(STRATA_CLI,
              {"record", "-q", "--wait-for-attach", "--collector", STRATA_COLLECTOR_FAKE_SO,
               "--flush-ms", "50", "-o", file, "--", STRATA_COLLECTOR_HARNESS, "attach"});
}

// Reads the harness's lines (kept in `buffer` between calls) until one satisfies `ok`: false if
// the run ends first or 60 s pass (only against a hang).
inline bool waitForTick(QProcess& cli, QByteArray& buffer, AttachTick* got,
                        const std::function<bool(const AttachTick&)>& ok) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 60000) {
        for (qsizetype nl; (nl = buffer.indexOf('\n')) >= 0;) {
            const QByteArray line = buffer.left(nl);
            buffer.remove(0, nl + 1);
            if (!line.startsWith("t=")) continue;
            const QList<QByteArray> parts = line.split(' ');
            AttachTick k;
            k.t = parts.value(0).mid(2).toLongLong();
            k.enabled = parts.value(1).mid(8).toInt();
            if (ok(k)) {
                *got = k;
                return true;
            }
        }
        if (cli.state() != QProcess::Running) return false;
        cli.waitForReadyRead(100);
        buffer += cli.readAllStandardOutput();
    }
    return false;
}

// The harness's last line, "fed=N first=NS last=NS", in what it printed: {N, last}.
inline std::pair<qint64, qint64> harnessFed(const QByteArray& out) {
    const qsizetype at = out.indexOf("fed=");
    if (at < 0) return {0, 0};
    const QList<QByteArray> f = out.mid(at).split('\n')[0].split(' ');
    return {f.value(0).mid(4).toLongLong(), f.value(2).mid(5).toLongLong()};
}

// The starts of the kernels named `name` kept in `t`, each checked to lie in one of `windows`
// ([start, end)); how many lie in each, or empty when one lies outside (said with qWarning).
inline std::vector<size_t> keptPerWindow(const Trace& t, std::string_view name,
                                         const std::vector<std::pair<qint64, qint64>>& windows) {
    std::vector<size_t> in(windows.size(), 0);
    for (const SliceRef& k : slicesNamed(t, name)) {
        const qint64 s = t.start(k);
        bool inside = false;
        for (size_t i = 0; i < windows.size(); ++i)
            if (s >= windows[i].first && s < windows[i].second) {
                inside = true;
                ++in[i];
            }
        if (!inside) {
            qWarning("kernel at %lld lies outside the capture windows", (long long)s);
            return {};
        }
    }
    return in;
}

} // namespace strata::test
