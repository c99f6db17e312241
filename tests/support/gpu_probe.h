#pragma once
// What the GPU tests that record kernels/samples/gpu_metrics_probe share (tst_gpu_pm_sampling,
// tst_gpu_kernel_metrics): the probe's path in this build, its recording through strata-cli
// record, and a metadata value as text.
#include "io/trace_loader.h"
#include "model/trace.h"

#include <QMap>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>

namespace strata::test {

// Empty where kernels/samples are not built (no nvcc).
inline QString gpuProbePath() {
#ifdef STRATA_SAMPLES_DIR
    return QString(STRATA_SAMPLES_DIR) + "/gpu_metrics_probe";
#else
    return {};
#endif
}

// A metadata value, "<absent>" when the trace has none under `key`.
inline QString metadataText(const Trace& t, const char* key) {
    const auto it = t.metadata().find(key);
    return it == t.metadata().end() ? QString("<absent>") : QString::fromStdString(it->second);
}

// The probe recorded into `file` by `cli` (strata-cli) record with `options`, and loaded.
struct ProbeRecording {
    int exitCode = -1;             // -1: it did not end within the time given
    QMap<QString, QString> values; // the probe's key=value lines
    QString err;                   // what the run said on stderr
    std::shared_ptr<const Trace> trace;
    QString loadError; // when the file did not load
};

inline ProbeRecording recordProbe(const QString& cli, const QString& file,
                                  const QStringList& options, int timeoutMs) {
    ProbeRecording r;
    QProcess p;
    p.start(cli,
            QStringList{"record", "-q", "-o", file} + options + QStringList{"--", gpuProbePath()});
    if (!p.waitForFinished(timeoutMs)) return r;
    r.exitCode = p.exitCode();
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    const QString out = QString::fromLocal8Bit(p.readAllStandardOutput());
    for (const QString& line : out.split('\n', Qt::SkipEmptyParts))
        if (const int eq = line.indexOf('='); eq > 0) r.values[line.left(eq)] = line.mid(eq + 1);
    LoadResult loaded = loadTrace(file.toStdString());
    r.trace = loaded.trace;
    if (!loaded.ok())
        r.loadError =
            QString::fromStdString(loaded.error ? loaded.error->toString() : "load failed");
    return r;
}

} // namespace strata::test
