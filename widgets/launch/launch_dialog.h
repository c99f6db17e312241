#pragma once
// Profile > Launch...: the program, its arguments (split as a shell would, shown as the argv the
// program will get), working directory, environment, what to capture, the schedule or capture
// range, the target's Python (sampled stacks, every call, or off) and native stack sampling,
// limits and the output path; every field checked as the user types, Run enabled only
// when the launch can start. Saved configurations are picked, saved, duplicated, renamed and
// deleted at the top (LaunchConfigStore).
#include "launch/launch_config.h"

#include <QDialog>

#include <initializer_list>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace strata {

class LaunchDialog : public QDialog {
    Q_OBJECT
public:
    explicit LaunchDialog(QWidget* parent = nullptr);

    void setConfig(const LaunchConfig& c);
    LaunchConfig config() const;
    LaunchProblems problems() const { return problems_; }
    QString argvPreview() const;
    QPushButton* runButton() const { return run_; }

private:
    void recheck();
    void pickConfig(const QString& name);
    void saveAs();
    void duplicateConfig();
    void renameConfig();
    void deleteConfig();
    void reloadNames(const QString& select);
    QLabel* errorLabel(const char* name);
    // Widgets side by side in a form row (line edits and combo boxes stretch).
    static QWidget* row(QWidget* parent, std::initializer_list<QWidget*> widgets);
    QWidget* createConfigurationRow();
    QWidget* createProgramBox();
    QWidget* createCaptureBox();
    void createStacksRows(QWidget** pythonRow, QWidget** nativeRow);
    QWidget* createGpuMetricsRow();
    QWidget* createKernelMetricsRow();
    QWidget* createOutputBox();

    QComboBox* configs_;
    QLineEdit* remote_;     // Run on: empty = this machine
    QLineEdit* sshOptions_; // ssh -o options, as shell words
    QCheckBox* keepRemote_;
    QComboBox* executable_;
    QLineEdit* arguments_;
    QLabel* argv_;
    QLineEdit* workingDir_;
    QPlainTextEdit* environment_;
    QLineEdit* unset_;
    QList<QCheckBox*> capture_;
    QSpinBox *wait_, *warmup_, *active_, *repeat_;
    QLineEdit* stepName_;
    QLineEdit* captureRange_;
    QDoubleSpinBox* duration_;
    QSpinBox* flush_;
    QLineEdit* output_;
    QCheckBox* withoutCapture_;
    QCheckBox* live_;
    QComboBox* python_;
    QSpinBox *pythonHz_, *cpuHz_;
    QCheckBox* gpuMetrics_;
    QLineEdit* gpuMetricSet_;
    QSpinBox* gpuMetricsUs_;
    QCheckBox* kernelMetrics_;
    QLineEdit* kernelRegex_;
    QLineEdit* kernelMetricSet_;
    QLabel *exeError_, *argsError_, *dirError_, *envError_, *outError_, *optError_, *collector_,
        *remoteError_;
    QPushButton* run_;
    QString name_;
    LaunchProblems problems_;
};

} // namespace strata
