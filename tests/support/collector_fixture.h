#pragma once
// What the collector tests share: a harness scenario run in a child process, lookups in its trace.
#include "analysis/sections/section_lanes.h"
#include "io/trace_loader.h"
#include "model/trace.h"
#include "support/process_run.h"

#include <QElapsedTimer>

#include <QtTest>

#include <csignal>
#include <dlfcn.h>

using namespace strata;

struct Run {
    QMap<QString, QString> out; // key=value lines of stdout
    QString stdoutText, stderrText;
    int status = -1; // shell-style: exit code, or 128 + signal
    qint64 pid = 0;
};

// Runs the harness through sh so a death by signal shows as 128 + signal, like a shell reports.
inline Run runHarness(const QString& scenario, const QStringList& env) {
    Run r;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env) e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    const strata::test::ProcessRun p = strata::test::runProcess(
        "/bin/sh",
        {"-c",
         "\"$0\" \"$1\" & child=$!; echo \"harness_pid=$child\"; wait $child; "
         "echo \"status=$?\"",
         STRATA_COLLECTOR_HARNESS, scenario},
        e, 60000);
    if (p.exitCode == -1) qWarning("harness %s timed out", qPrintable(scenario));
    r.stdoutText = QString::fromLocal8Bit(p.out);
    r.stderrText = QString::fromLocal8Bit(p.err);
    for (const QString& line : r.stdoutText.split('\n', Qt::SkipEmptyParts)) {
        const int eq = line.indexOf('=');
        if (eq > 0) r.out.insert(line.left(eq), line.mid(eq + 1));
    }
    r.status = r.out.value("status", "-1").toInt();
    if (r.stderrText.contains("Sanitizer")) { // a sanitizer build's report fails the scenario
        qWarning("%s", qPrintable(r.stderrText));
        r.status = -999;
    }
    r.pid = r.out.value("harness_pid", "0").toLongLong();
    return r;
}

inline std::vector<SliceRef> slicesNamed(const Trace& t, std::string_view name) {
    std::vector<SliceRef> out;
    for (TrackId tr = 0; tr < t.tracks().size(); ++tr) {
        const Track& track = t.track(tr);
        for (SliceIndex i = 0; i < track.slices.size(); ++i)
            if (t.str(track.slices.name[i]) == name) out.push_back({tr, i});
    }
    return out;
}

inline SliceRef only(const Trace& t, std::string_view name) {
    const auto all = slicesNamed(t, name);
    if (all.size() != 1) {
        qWarning("expected one slice named %.*s, found %zu", int(name.size()), name.data(),
                 all.size());
        return {};
    }
    return all[0];
}

inline bool hasWarning(const Trace& t, const QString& part) {
    for (const auto& w : t.warnings())
        if (QString::fromStdString(w).contains(part)) return true;
    return false;
}

inline QString meta(const Trace& t, const char* key) {
    auto it = t.metadata().find(key);
    return it == t.metadata().end() ? QString("<absent>") : QString::fromStdString(it->second);
}

inline std::shared_ptr<const Trace> load(const QString& path) {
    LoadResult r = loadTrace(path.toStdString());
    if (!r.ok()) {
        qWarning("load %s failed: %s", qPrintable(path),
                 r.error ? r.error->toString().c_str() : "?");
        return nullptr;
    }
    return r.trace;
}

// A temporary folder for the scenarios' files.
class CollectorFiles {
protected:
    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }
};
