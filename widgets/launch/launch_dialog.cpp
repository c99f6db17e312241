#include "launch/launch_dialog.h"

#include "util/shell_words.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace strata {

QWidget* LaunchDialog::row(QWidget* parent, std::initializer_list<QWidget*> widgets) {
    auto* w = new QWidget(parent);
    auto* h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    for (QWidget* x : widgets)
        h->addWidget(x, x->inherits("QLineEdit") || x->inherits("QComboBox"));
    return w;
}

QLabel* LaunchDialog::errorLabel(const char* name) {
    auto* l = new QLabel(this);
    l->setObjectName(QString::fromLatin1(name));
    l->setWordWrap(true);
    l->setStyleSheet(QStringLiteral("color: #b00020;"));
    l->hide();
    return l;
}

LaunchDialog::LaunchDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Launch and Profile"));
    setObjectName(QStringLiteral("launchDialog"));
    exeError_ = errorLabel("executableError");
    argsError_ = errorLabel("argumentsError");
    dirError_ = errorLabel("workingDirectoryError");
    envError_ = errorLabel("environmentError");
    outError_ = errorLabel("outputError");
    optError_ = errorLabel("optionsError");
    collector_ = errorLabel("collectorError");
    remoteError_ = errorLabel("remoteError");
    collector_->setStyleSheet(QStringLiteral("color: #7a5500;"));
    // Made in the order the keyboard's Tab visits them.
    QWidget* configuration = createConfigurationRow();
    QWidget* program = createProgramBox();
    QWidget* capture = createCaptureBox();
    QWidget* output = createOutputBox();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    run_ = buttons->addButton(tr("Run"), QDialogButtonBox::AcceptRole);
    run_->setObjectName(QStringLiteral("runButton"));
    run_->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        recheck();
        if (problems_.ok()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* v = new QVBoxLayout(this);
    v->addWidget(configuration);
    v->addWidget(program);
    v->addWidget(capture);
    v->addWidget(output);
    v->addWidget(buttons);

    for (QLineEdit* e : {remote_, sshOptions_, executable_->lineEdit(), arguments_, workingDir_,
                         unset_, stepName_, captureRange_, output_})
        connect(e, &QLineEdit::textChanged, this, &LaunchDialog::recheck);
    connect(environment_, &QPlainTextEdit::textChanged, this, &LaunchDialog::recheck);
    for (QSpinBox* b : {wait_, warmup_, active_, repeat_, flush_, pythonHz_, cpuHz_})
        connect(b, &QSpinBox::valueChanged, this, &LaunchDialog::recheck);
    connect(duration_, &QDoubleSpinBox::valueChanged, this, &LaunchDialog::recheck);
    connect(withoutCapture_, &QCheckBox::toggled, this, &LaunchDialog::recheck);
    reloadNames(QString());
    resize(760, sizeHint().height());
    recheck();
}

// Saved configurations: the name and what can be done with it.
QWidget* LaunchDialog::createConfigurationRow() {
    configs_ = new QComboBox(this);
    configs_->setObjectName(QStringLiteral("configName"));
    configs_->setMinimumContentsLength(24);
    configs_->setToolTip(tr("A saved launch configuration: choose one to fill the dialog in"));
    auto* saveB = new QPushButton(tr("Save As\u2026"), this);
    saveB->setObjectName(QStringLiteral("saveConfig"));
    auto* dupB = new QPushButton(tr("Duplicate"), this);
    dupB->setObjectName(QStringLiteral("duplicateConfig"));
    auto* renB = new QPushButton(tr("Rename\u2026"), this);
    renB->setObjectName(QStringLiteral("renameConfig"));
    auto* delB = new QPushButton(tr("Delete"), this);
    delB->setObjectName(QStringLiteral("deleteConfig"));
    saveB->setToolTip(tr("Save what the dialog holds as a configuration of its own"));
    dupB->setToolTip(tr("Save a copy of this configuration under a new name"));
    renB->setToolTip(tr("Rename this configuration"));
    delB->setToolTip(tr("Delete this configuration"));
    connect(configs_, &QComboBox::textActivated, this, &LaunchDialog::pickConfig);
    connect(saveB, &QPushButton::clicked, this, &LaunchDialog::saveAs);
    connect(dupB, &QPushButton::clicked, this, &LaunchDialog::duplicateConfig);
    connect(renB, &QPushButton::clicked, this, &LaunchDialog::renameConfig);
    connect(delB, &QPushButton::clicked, this, &LaunchDialog::deleteConfig);

    return row(this, {new QLabel(tr("Configuration"), this), configs_, saveB, dupB, renB, delB});
}

// The program: where it runs, executable, arguments (and how they split), working directory,
// environment.
QWidget* LaunchDialog::createProgramBox() {
    remote_ = new QLineEdit(this);
    remote_->setObjectName(QStringLiteral("remoteHost"));
    remote_->setPlaceholderText(tr("this machine, or [user@]host[:port] over ssh"));
    remote_->setToolTip(tr("Another machine to run on, over ssh with your keys and ~/.ssh/config "
                           "(no password is asked for). Strata copies its strata-cli and "
                           "collector there when missing; the program, its folder and its "
                           "environment are that machine's, and the trace comes back here."));
    keepRemote_ = new QCheckBox(tr("Keep the run's files there"), this);
    keepRemote_->setObjectName(QStringLiteral("keepRemote"));
    keepRemote_->setToolTip(tr("Keep the run's folder on that machine after its trace has come "
                               "back (else it is removed)"));
    sshOptions_ = new QLineEdit(this);
    sshOptions_->setObjectName(QStringLiteral("sshOptions"));
    sshOptions_->setPlaceholderText(tr("ssh -o options, e.g. IdentityFile=~/.ssh/lab"));
    sshOptions_->setToolTip(tr("Options for ssh, each passed as -o OPTION (space-separated, "
                               "quoted as in a shell); ~/.ssh/config applies too"));
    executable_ = new QComboBox(this);
    executable_->setObjectName(QStringLiteral("executable"));
    executable_->setEditable(true);
    executable_->setInsertPolicy(QComboBox::NoInsert);
    executable_->addItems(LaunchConfigStore::recentExecutables());
    executable_->setCurrentText(QString());
    executable_->setToolTip(tr("The program to run: a path, or a command found in PATH; the "
                               "list holds the recent ones"));
    executable_->lineEdit()->setPlaceholderText(
        tr("a program path, or a command in PATH (python3)"));
    auto* browse = new QToolButton(this);
    browse->setText(tr("\u2026"));
    browse->setToolTip(tr("Choose the program"));
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Program to Profile"));
        if (!f.isEmpty()) executable_->setCurrentText(f);
    });
    arguments_ = new QLineEdit(this);
    arguments_->setObjectName(QStringLiteral("arguments"));
    arguments_->setPlaceholderText(tr("train.py --epochs 1 'a name with spaces'"));
    arguments_->setToolTip(tr("The program's arguments, split as a shell would (quotes keep "
                              "spaces); how they split is shown below"));
    argv_ = new QLabel(this);
    argv_->setObjectName(QStringLiteral("argvPreview"));
    argv_->setWordWrap(true);
    argv_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    argv_->setStyleSheet(QStringLiteral("color: #555;"));
    workingDir_ = new QLineEdit(this);
    workingDir_->setObjectName(QStringLiteral("workingDirectory"));
    workingDir_->setPlaceholderText(tr("Strata's own: %1").arg(QDir::currentPath()));
    workingDir_->setToolTip(tr("The folder the program runs in, where its trace is written "
                               "unless an output path is given (default: the folder Strata "
                               "runs in)"));
    auto* browseDir = new QToolButton(this);
    browseDir->setText(tr("\u2026"));
    browseDir->setToolTip(tr("Choose the working directory"));
    connect(browseDir, &QToolButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Working Directory"));
        if (!d.isEmpty()) workingDir_->setText(d);
    });
    environment_ = new QPlainTextEdit(this);
    environment_->setObjectName(QStringLiteral("environment"));
    environment_->setPlaceholderText(tr("NAME=VALUE, one per line"));
    environment_->setFixedHeight(52);
    environment_->setTabChangesFocus(true);
    unset_ = new QLineEdit(this);
    unset_->setObjectName(QStringLiteral("unset"));
    unset_->setPlaceholderText(tr("names to remove, e.g. PYTHONPATH LD_PRELOAD"));
    unset_->setToolTip(tr("Variables removed from the program's environment"));

    auto* program = new QGroupBox(tr("Program"), this);
    auto* pf = new QFormLayout(program);
    pf->addRow(tr("Run on"), row(this, {remote_, keepRemote_}));
    pf->addRow(tr("SSH options"), sshOptions_);
    pf->addRow(QString(), remoteError_);
    pf->addRow(tr("Executable"), row(this, {executable_, browse}));
    pf->addRow(QString(), exeError_);
    pf->addRow(tr("Arguments"), arguments_);
    pf->addRow(QString(), argv_);
    pf->addRow(QString(), argsError_);
    pf->addRow(tr("Working directory"), row(this, {workingDir_, browseDir}));
    pf->addRow(QString(), dirError_);
    pf->addRow(tr("Environment"), environment_);
    pf->addRow(tr("Unset"), unset_);
    pf->addRow(QString(), envError_);

    return program;
}

// Where the trace goes.
QWidget* LaunchDialog::createOutputBox() {
    output_ = new QLineEdit(this);
    output_->setObjectName(QStringLiteral("output"));
    output_->setToolTip(tr("The trace file: {pid} {rank} {host} and {time} are filled in"));
    auto* browseOut = new QToolButton(this);
    browseOut->setText(tr("Folder\u2026"));
    browseOut->setToolTip(tr("Choose the folder the trace goes to"));
    connect(browseOut, &QToolButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Output Folder"));
        if (!d.isEmpty())
            output_->setText(d + QStringLiteral("/") +
                             QFileInfo(defaultOutputTemplate(config())).fileName());
    });

    auto* outBox = new QGroupBox(tr("Output"), this);
    auto* of = new QFormLayout(outBox);
    of->addRow(tr("Trace file"), row(this, {output_, browseOut}));
    auto* outHelp = new QLabel(tr("{pid} {rank} {host} and {time} are filled in; a program that "
                                  "execs others writes one file each."),
                               this);
    outHelp->setStyleSheet(QStringLiteral("color: #555;"));
    of->addRow(QString(), outHelp);
    of->addRow(QString(), outError_);

    return outBox;
}

void LaunchDialog::setConfig(const LaunchConfig& c) {
    name_ = c.name;
    remote_->setText(c.remote);
    sshOptions_->setText(QString::fromStdString(joinShellWords([&] {
        std::vector<std::string> w;
        for (const QString& o : c.sshOptions) w.push_back(o.toStdString());
        return w;
    }())));
    keepRemote_->setChecked(c.keepRemote);
    executable_->setCurrentText(c.executable);
    arguments_->setText(c.arguments);
    workingDir_->setText(c.workingDirectory);
    environment_->setPlainText(c.environment);
    unset_->setText(c.unset.join(QLatin1Char(' ')));
    for (QCheckBox* b : capture_)
        b->setChecked(c.capture.isEmpty() || c.capture.contains(b->text()));
    wait_->setValue(c.wait);
    warmup_->setValue(c.warmup);
    active_->setValue(c.active);
    repeat_->setValue(c.repeat);
    stepName_->setText(c.stepName);
    captureRange_->setText(c.captureRange);
    duration_->setValue(c.durationS);
    flush_->setValue(c.flushMs);
    output_->setText(c.output);
    withoutCapture_->setChecked(c.withoutCapture);
    live_->setChecked(c.live);
    python_->setCurrentIndex(std::max(0, python_->findData(int(c.python))));
    pythonHz_->setValue(c.pythonSampleHz);
    cpuHz_->setValue(c.cpuSampleHz);
    gpuMetrics_->setChecked(!c.gpuMetrics.isEmpty());
    gpuMetricSet_->setText(c.gpuMetrics.isEmpty() ? QStringLiteral("default") : c.gpuMetrics);
    gpuMetricsUs_->setValue(c.gpuMetricsIntervalUs);
    kernelMetrics_->setChecked(!c.kernelMetrics.isEmpty());
    kernelRegex_->setText(c.kernelMetrics);
    kernelMetricSet_->setText(c.kernelMetricsSet.isEmpty() ? QStringLiteral("default")
                                                           : c.kernelMetricsSet);
    reloadNames(c.name);
    recheck();
}

LaunchConfig LaunchDialog::config() const {
    LaunchConfig c;
    c.name = name_;
    c.executable = executable_->currentText().trimmed();
    c.arguments = arguments_->text();
    c.workingDirectory = workingDir_->text().trimmed();
    c.environment = environment_->toPlainText();
    c.unset = unset_->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QStringList groups;
    for (QCheckBox* b : capture_)
        if (b->isChecked()) groups << b->text();
    if (groups.size() != capture_.size()) c.capture = groups; // all = empty (the default)
    c.wait = wait_->value();
    c.warmup = warmup_->value();
    c.active = active_->value();
    c.repeat = repeat_->value();
    c.stepName = stepName_->text().trimmed();
    c.captureRange = captureRange_->text().trimmed();
    c.durationS = duration_->value();
    c.flushMs = flush_->value();
    c.output = output_->text().trimmed();
    c.withoutCapture = withoutCapture_->isChecked();
    c.live = live_->isChecked();
    c.python = PythonRecording(python_->currentData().toInt());
    c.pythonSampleHz = pythonHz_->value();
    c.cpuSampleHz = cpuHz_->value();
    if (gpuMetrics_->isChecked()) // an empty set is the default one
        c.gpuMetrics = gpuMetricSet_->text().trimmed().isEmpty() ? QStringLiteral("default")
                                                                 : gpuMetricSet_->text().trimmed();
    c.gpuMetricsIntervalUs = gpuMetricsUs_->value();
    if (kernelMetrics_->isChecked()) {
        c.kernelMetrics = kernelRegex_->text().trimmed();
        c.kernelMetricsSet = kernelMetricSet_->text().trimmed().isEmpty()
                                 ? QStringLiteral("default")
                                 : kernelMetricSet_->text().trimmed();
    }
    c.remote = remote_->text().trimmed();
    c.sshOptions = splitArguments(sshOptions_->text(), nullptr);
    c.keepRemote = keepRemote_->isChecked();
    return c;
}

QString LaunchDialog::argvPreview() const {
    return argv_->text();
}

void LaunchDialog::recheck() {
    const LaunchConfig c = config();
    problems_ = checkLaunchConfig(c);
    if (kernelMetrics_->isChecked() && c.kernelMetrics.isEmpty() && problems_.options.isEmpty())
        problems_.options = tr("Kernel metrics: give the expression the measured kernels' names "
                               "match");
    auto show = [](QLabel* l, const QString& text) {
        l->setText(text);
        l->setVisible(!text.isEmpty());
    };
    show(exeError_, problems_.executable);
    show(argsError_, problems_.arguments);
    show(dirError_, problems_.workingDirectory);
    show(envError_, problems_.environment);
    show(outError_, problems_.output);
    show(optError_, problems_.options);
    show(collector_, problems_.collector);
    show(remoteError_, problems_.remote);
    keepRemote_->setEnabled(!c.remote.isEmpty());
    workingDir_->setPlaceholderText(c.remote.isEmpty()
                                        ? tr("Strata's own: %1").arg(QDir::currentPath())
                                        : tr("the login folder on %1").arg(c.remote));
    sshOptions_->setEnabled(!c.remote.isEmpty());
    QString splitError;
    const QStringList words = splitArguments(c.arguments, &splitError);
    if (splitError.isEmpty() && !c.executable.isEmpty()) {
        QStringList shown{QStringLiteral("[0] ") + c.executable};
        for (int i = 0; i < words.size(); ++i)
            shown << QStringLiteral("[%1] %2").arg(i + 1).arg(
                QString::fromStdString(quoteShellWord(words[i].toStdString())));
        argv_->setText(tr("argv: %1").arg(shown.join(QStringLiteral("  "))));
    } else {
        argv_->clear();
    }
    output_->setPlaceholderText(defaultOutputTemplate(c));
    run_->setEnabled(problems_.ok());
    run_->setToolTip(problems_.ok() ? QString() : problems_.first());
}

} // namespace strata
