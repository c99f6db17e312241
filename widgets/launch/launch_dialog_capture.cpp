// The Launch dialog's Capture box: the collector's activity groups, the step schedule, the capture
// range, Python and native stacks, limits and the live view. The other rows are
// launch_dialog.cpp's.
#include "launch/launch_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace strata {
namespace {

QSpinBox* stepBox(QWidget* parent, const char* name, const QString& tip) {
    auto* b = new QSpinBox(parent);
    b->setObjectName(QString::fromLatin1(name));
    b->setToolTip(tip);
    b->setRange(-1, 1'000'000);
    b->setSpecialValueText(QObject::tr("off"));
    b->setValue(-1);
    return b;
}

// What each activity group of the collector (--capture) records.
QString captureTip(const QString& group) {
    if (group == QLatin1String("api")) return QObject::tr("CUDA runtime and driver API calls");
    if (group == QLatin1String("nvtx"))
        return QObject::tr("NVTX ranges and marks (with the colours nvtx*Ex calls give them)");
    if (group == QLatin1String("kernels"))
        return QObject::tr("Kernels with their launch configuration");
    if (group == QLatin1String("memcpy"))
        return QObject::tr("Memory copies, peer-to-peer copies between GPUs included");
    if (group == QLatin1String("memset")) return QObject::tr("Memory sets");
    if (group == QLatin1String("sync"))
        return QObject::tr("Synchronizations (stream, event, context waits)");
    if (group == QLatin1String("memory"))
        return QObject::tr("Device memory allocations and frees (the Memory row)");
    return QObject::tr("Activity group %1").arg(group);
}

} // namespace

// What to capture and when: activity kinds, the step schedule, a capture range, limits.
QWidget* LaunchDialog::createCaptureBox() {
    auto* captureRow = new QWidget(this);
    auto* ch = new QHBoxLayout(captureRow);
    ch->setContentsMargins(0, 0, 0, 0);
    for (std::string_view g : captureGroups()) {
        auto* box = new QCheckBox(QString::fromLatin1(g.data(), qsizetype(g.size())), captureRow);
        box->setObjectName(QStringLiteral("capture_") + box->text());
        box->setToolTip(captureTip(box->text()));
        box->setChecked(true);
        capture_ << box;
        ch->addWidget(box);
        connect(box, &QCheckBox::toggled, this, &LaunchDialog::recheck);
    }
    ch->addStretch();
    // As torch.profiler.schedule, counted in the steps the step name delimits.
    wait_ = stepBox(this, "scheduleWait", tr("Steps skipped at the start of each cycle"));
    warmup_ = stepBox(this, "scheduleWarmup", tr("Steps traced but not kept, after the wait"));
    active_ = stepBox(this, "scheduleActive",
                      tr("Steps recorded in each cycle (at least 1 for a "
                         "schedule; needs a step name)"));
    repeat_ = stepBox(this, "scheduleRepeat",
                      tr("Cycles of wait, warmup and active (0: until "
                         "the program ends)"));
    stepName_ = new QLineEdit(this);
    stepName_->setObjectName(QStringLiteral("stepName"));
    stepName_->setPlaceholderText(tr("the NVTX range or mark that delimits a step (with a "
                                     "schedule), e.g. ProfilerStep"));
    stepName_->setToolTip(tr("The NVTX range or mark whose occurrences are the steps the "
                             "schedule counts"));
    auto* scheduleRow = row(
        this, {new QLabel(tr("wait"), this), wait_, new QLabel(tr("warmup"), this), warmup_,
               new QLabel(tr("active"), this), active_, new QLabel(tr("repeat"), this), repeat_});
    captureRange_ = new QLineEdit(this);
    captureRange_->setObjectName(QStringLiteral("captureRange"));
    captureRange_->setPlaceholderText(
        tr("an NVTX range name, or cudaProfilerApi (off: capture all)"));
    captureRange_->setToolTip(tr("Capture only inside NVTX ranges of this name, or between "
                                 "cudaProfilerStart and cudaProfilerStop (cudaProfilerApi)"));
    duration_ = new QDoubleSpinBox(this);
    duration_->setObjectName(QStringLiteral("maxDuration"));
    duration_->setRange(0, 1e6);
    duration_->setDecimals(1);
    duration_->setSuffix(tr(" s"));
    duration_->setSpecialValueText(tr("no limit"));
    duration_->setToolTip(tr("Stop capturing after this long (the program goes on)"));
    flush_ = new QSpinBox(this);
    flush_->setObjectName(QStringLiteral("flushInterval"));
    flush_->setRange(0, 60'000);
    flush_->setSuffix(tr(" ms"));
    flush_->setSpecialValueText(tr("default (200 ms)"));
    flush_->setToolTip(tr("How often the collector writes what it captured to the trace"));
    withoutCapture_ = new QCheckBox(tr("Run without capture (no collector: keep the output and "
                                       "what was run)"),
                                    this);
    withoutCapture_->setObjectName(QStringLiteral("withoutCapture"));
    withoutCapture_->setToolTip(tr("Run the program as it is, without the collector: its output "
                                   "and how it ended are kept, no GPU activity"));
    live_ = new QCheckBox(tr("Show the timeline while it runs"), this);
    live_->setObjectName(QStringLiteral("live"));
    live_->setToolTip(tr("The collector hands its records over every flush and the window draws "
                         "them as they come, following the newest time (Profile \u25b8 Follow)"));
    auto* capture = new QGroupBox(tr("Capture"), this);
    auto* cf = new QFormLayout(capture);
    cf->addRow(tr("Activity"), captureRow);
    cf->addRow(tr("Schedule (steps)"), scheduleRow);
    cf->addRow(tr("Step name"), stepName_);
    cf->addRow(tr("Capture range"), captureRange_);
    QWidget *pythonRow = nullptr, *nativeRow = nullptr;
    createStacksRows(&pythonRow, &nativeRow);
    cf->addRow(tr("Python"), pythonRow);
    cf->addRow(tr("Native stacks"), nativeRow);
    cf->addRow(tr("GPU metrics"), createGpuMetricsRow());
    cf->addRow(tr("Kernel metrics"), createKernelMetricsRow());
    cf->addRow(tr("Maximum duration"), duration_);
    cf->addRow(tr("Flush interval"), flush_);
    cf->addRow(QString(), optError_);
    cf->addRow(QString(), live_);
    cf->addRow(QString(), withoutCapture_);
    cf->addRow(QString(), collector_);

    return capture;
}

// The target's Python (sampled stacks at a rate, every call, or off) and its native stacks.
void LaunchDialog::createStacksRows(QWidget** pythonRow, QWidget** nativeRow) {
    python_ = new QComboBox(this);
    python_->setObjectName(QStringLiteral("python"));
    python_->addItem(tr("Sampled stacks"), int(PythonRecording::Sample));
    python_->addItem(tr("Every call"), int(PythonRecording::Calls));
    python_->addItem(tr("Off"), int(PythonRecording::Off));
    python_->setToolTip(tr("A Python program's own frames: its stacks sampled at the rate "
                           "given, or every call and return as a slice (exact, slower), or "
                           "nothing; a program that is not Python is not affected"));
    pythonHz_ = new QSpinBox(this);
    pythonHz_->setObjectName(QStringLiteral("pythonSampleHz"));
    pythonHz_->setRange(1, 10'000);
    pythonHz_->setValue(1000);
    pythonHz_->setSuffix(tr(" Hz"));
    pythonHz_->setToolTip(tr("How often the Python stacks are sampled"));
    cpuHz_ = new QSpinBox(this);
    cpuHz_->setObjectName(QStringLiteral("cpuSampleHz"));
    cpuHz_->setRange(0, 10'000);
    cpuHz_->setValue(0);
    cpuHz_->setToolTip(tr("Sample the native (C/C++) stacks of every thread of every process "
                          "this often, per second of the CPU time it uses (0: off). Any program, "
                          "Python or not; a Python thread's Python stacks stay what its "
                          "profiles show by default"));
    connect(python_, &QComboBox::currentIndexChanged, this, [this] {
        pythonHz_->setEnabled(PythonRecording(python_->currentData().toInt()) ==
                              PythonRecording::Sample);
        recheck();
    });
    // Left-aligned rows of their natural width: a stretch after the fields.
    auto* py = new QWidget(this);
    auto* ph = new QHBoxLayout(py);
    ph->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w :
         {static_cast<QWidget*>(python_), static_cast<QWidget*>(new QLabel(tr("at"), this)),
          static_cast<QWidget*>(pythonHz_)})
        ph->addWidget(w);
    ph->addStretch();
    auto* native = new QWidget(this);
    auto* nh = new QHBoxLayout(native);
    nh->setContentsMargins(0, 0, 0, 0);
    nh->addWidget(new QLabel(tr("sample at"), this));
    nh->addWidget(cpuHz_);
    nh->addWidget(new QLabel(tr("Hz of CPU time (0 = off)"), this));
    nh->addStretch();
    *pythonRow = py;
    *nativeRow = native;
}

// The GPU's own counters over time (strata-cli record --gpu-metrics): on or off, the set
// ("default" or CUPTI metric names) and the interval.
QWidget* LaunchDialog::createGpuMetricsRow() {
    gpuMetrics_ = new QCheckBox(tr("sample the GPU's counters:"), this);
    gpuMetrics_->setObjectName(QStringLiteral("gpuMetrics"));
    gpuMetrics_->setToolTip(tr("CUPTI's PM sampling: SM active, occupancy, tensor pipe, DRAM, "
                               "PCIe and NVLink throughput as rows under each GPU, and their "
                               "means per kernel (needs the right to read the GPU's counters)"));
    gpuMetricSet_ = new QLineEdit(QStringLiteral("default"), this);
    gpuMetricSet_->setObjectName(QStringLiteral("gpuMetricSet"));
    gpuMetricSet_->setToolTip(tr("default, or a comma list of CUPTI metric names "
                                 "(ncu --query-metrics-collection pmsampling lists them)"));
    gpuMetricsUs_ = new QSpinBox(this);
    gpuMetricsUs_->setObjectName(QStringLiteral("gpuMetricsIntervalUs"));
    gpuMetricsUs_->setRange(1, 1'000'000);
    gpuMetricsUs_->setValue(100);
    gpuMetricsUs_->setSuffix(tr(" \u00b5s"));
    gpuMetricsUs_->setToolTip(tr("How often the counters are sampled"));
    const auto enable = [this] {
        gpuMetricSet_->setEnabled(gpuMetrics_->isChecked());
        gpuMetricsUs_->setEnabled(gpuMetrics_->isChecked());
    };
    connect(gpuMetrics_, &QCheckBox::toggled, this, [this, enable] {
        enable();
        recheck();
    });
    connect(gpuMetricSet_, &QLineEdit::textChanged, this, &LaunchDialog::recheck);
    connect(gpuMetricsUs_, &QSpinBox::valueChanged, this, &LaunchDialog::recheck);
    enable();
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(gpuMetrics_);
    h->addWidget(gpuMetricSet_, 1);
    h->addWidget(new QLabel(tr("every"), this));
    h->addWidget(gpuMetricsUs_);
    return row;
}

// Per-kernel counters (strata-cli record --kernel-metrics): on or off, the expression the
// measured kernels' names match, and the set; the cost (each match replayed) in the tooltip.
QWidget* LaunchDialog::createKernelMetricsRow() {
    kernelMetrics_ = new QCheckBox(tr("measure the kernels matching:"), this);
    kernelMetrics_->setObjectName(QStringLiteral("kernelMetrics"));
    kernelMetrics_->setToolTip(
        tr("CUPTI's range profiler on each launch of the kernels whose name the expression "
           "matches: DRAM bytes, FLOPs, throughput, for the Roofline dock and Details. Each "
           "matching launch is serialised and replayed once per pass (the recording says how "
           "many): meant for the few kernels you tune"));
    kernelRegex_ = new QLineEdit(this);
    kernelRegex_->setObjectName(QStringLiteral("kernelMetricsRegex"));
    kernelRegex_->setPlaceholderText(tr("a regular expression, e.g. gemm|softmax"));
    kernelRegex_->setToolTip(tr("An ECMAScript regular expression searched in each launched "
                                "kernel's demangled name, as the trace names it"));
    kernelMetricSet_ = new QLineEdit(QStringLiteral("default"), this);
    kernelMetricSet_->setObjectName(QStringLiteral("kernelMetricSet"));
    kernelMetricSet_->setToolTip(tr("default (the roofline's counters), or a comma list of "
                                    "metric names (ncu --query-metrics lists them)"));
    const auto enable = [this] {
        kernelRegex_->setEnabled(kernelMetrics_->isChecked());
        kernelMetricSet_->setEnabled(kernelMetrics_->isChecked());
    };
    connect(kernelMetrics_, &QCheckBox::toggled, this, [this, enable] {
        enable();
        recheck();
    });
    connect(kernelRegex_, &QLineEdit::textChanged, this, &LaunchDialog::recheck);
    connect(kernelMetricSet_, &QLineEdit::textChanged, this, &LaunchDialog::recheck);
    enable();
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(kernelMetrics_);
    h->addWidget(kernelRegex_, 2);
    h->addWidget(new QLabel(tr("set"), this));
    h->addWidget(kernelMetricSet_, 1);
    return row;
}

} // namespace strata
