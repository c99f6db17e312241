#include "open/trace_cache_controller.h"

#include "workspace/job_runner.h"

#include <QAction>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QThread>
#include <QThreadPool>
#include <QWidget>

namespace strata {
namespace {

const char* const kEnabledKey = "cache/enabled";
const char* const kMaxGiBKey = "cache/maxGiB";

QString megabytes(uint64_t bytes) {
    return bytes >= (uint64_t(1) << 30)
               ? QStringLiteral("%1 GB").arg(double(bytes) / 1e9, 0, 'f', 1)
               : QStringLiteral("%1 MB").arg(double(bytes) / 1e6, 0, 'f', 0);
}

} // namespace

TraceCacheController::TraceCacheController(QWidget* window, bool remember)
    : QObject(window), window_(window), remember_(remember), pool_(new QThreadPool(this)) {
    pool_->setMaxThreadCount(1); // one write at a time, beside (not in) the analyses' pool
    if (remember_) {
        QSettings s;
        settings_.enabled = s.value(kEnabledKey, true).toBool();
        const double gib = s.value(kMaxGiBKey, 20.0).toDouble();
        if (gib > 0) settings_.maxBytes = uint64_t(gib * double(uint64_t(1) << 30));
    }
    // The size from which a trace is cached (64 MB): smaller for tests and trials.
    settings_.minFileBytes = TraceCacheSettings::fromEnvironment().minFileBytes;
}

TraceCacheController::~TraceCacheController() {
    waitForWrites(-1); // an entry half written is never left behind, nor a write cut short
}

void TraceCacheController::setEnabled(bool on) {
    settings_.enabled = on;
    if (remember_) QSettings().setValue(kEnabledKey, on);
}

void TraceCacheController::addMenu(QMenu* settings) {
    QMenu* menu = settings->addMenu(tr("Trace &Cache"));
    menu->setToolTipsVisible(true);
    QAction* on = menu->addAction(tr("&Keep Large Traces in the Cache"));
    on->setObjectName(QStringLiteral("actionCacheEnabled"));
    on->setCheckable(true);
    on->setChecked(settings_.enabled);
    on->setToolTip(tr("A JSON trace of 64 MB or more is kept in Strata's own form in %1 after it "
                      "opens, so that opening it again takes a fraction of the time")
                       .arg(QString::fromStdString(cache().directory())));
    connect(on, &QAction::toggled, this, &TraceCacheController::setEnabled);
    QAction* clear = menu->addAction(tr("C&lear the Cache"));
    clear->setObjectName(QStringLiteral("actionCacheClear"));
    clear->setToolTip(tr("Remove every trace kept in the cache (the traces themselves stay)"));
    connect(clear, &QAction::triggered, this, &TraceCacheController::clearCache);
    // The size on the item, measured when the menu opens.
    connect(menu, &QMenu::aboutToShow, this, [this, clear] {
        const TraceCache c = cache();
        clear->setText(tr("C&lear the Cache (%1 in %n trace(s))", "", int(c.entryCount()))
                           .arg(megabytes(c.totalBytes())));
    });
}

void TraceCacheController::clearCache() {
    const std::string error = cache().clear();
    if (!error.empty())
        QMessageBox::warning(window_, tr("Clear the Cache"), QString::fromStdString(error));
    else
        emit message(tr("The trace cache is empty"));
}

void TraceCacheController::traceShown(const QString& path, const LoadResult& result) {
    // Only what the load stamped as unchanged while it was read (TraceCache::load): a file
    // replaced while it loaded is not kept under the new file's stamp.
    if (!result.ok() || !result.cacheSource) return;
    const TraceCache c = cache();
    const SnapshotSource* source = &*result.cacheSource;
    ++*running_;
    QPointer<TraceCacheController> self(this);
    const QString name = QFileInfo(path).fileName();
    pool_->start([self, c, s = *source, trace = result.trace, running = running_, path, name] {
        yieldToGuiThread();
        const std::string error = c.store(s, *trace);
        // Posted before the count drops: the destructor waits on the count, so the object
        // is still there to post to (and a post to it is dropped if it then goes).
        if (self)
            QMetaObject::invokeMethod(self.data(), [self, path, name, error] {
                if (!self) return;
                emit self->stored(path, QString::fromStdString(error));
                if (!error.empty())
                    emit self->message(tr("Could not keep %1 in the trace cache: %2")
                                           .arg(name, QString::fromStdString(error)));
            });
        --*running;
    });
}

bool TraceCacheController::waitForWrites(int timeoutMs) const {
    QDeadlineTimer deadline(timeoutMs < 0 ? QDeadlineTimer::Forever : timeoutMs);
    while (running_->load() > 0) {
        if (deadline.hasExpired()) return false;
        QThread::msleep(10);
    }
    return true;
}

} // namespace strata
