// Anchors the resources library; the .qrc files beside it are compiled in by AUTORCC.
#include "strata_resources.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

static void initStrataQrc() {
    Q_INIT_RESOURCE(strata);
}

namespace strata {

const char* resourcesVersion() {
    return "1";
}

void initResources() {
    initStrataQrc();
}

QString sampleTracePath(QString* error) {
    initResources();
    QFile src(sampleTraceResource());
    if (!src.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("the sample trace is not compiled in: ") + src.errorString();
        return {};
    }
    const QByteArray data = src.readAll();
    QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (dir.isEmpty()) dir = QDir::tempPath() + QStringLiteral("/strata");
    QDir().mkpath(dir);
    const QString path = dir + QStringLiteral("/sample_trace.json");
    QFile existing(path);
    if (existing.open(QIODevice::ReadOnly) && existing.readAll() == data) return path;
    existing.close();
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(data) != data.size()) {
        if (error) *error = path + QStringLiteral(": cannot write: ") + out.errorString();
        return {};
    }
    return path;
}

} // namespace strata
