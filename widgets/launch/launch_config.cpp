#include "launch/launch_config.h"

#include "contract/output_path.h"
#include "record/launcher.h"
#include "record/output_check.h"
#include "record/remote_host.h"
#include "util/shell_words.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>

#include <ctime>

namespace strata {
namespace {

const QString kConfigs = QStringLiteral("launch/configs");
const QString kLast = QStringLiteral("launch/last");
const QString kRecent = QStringLiteral("launch/recentExecutables");

void write(QSettings& s, const LaunchConfig& c) {
    s.setValue("name", c.name);
    s.setValue("executable", c.executable);
    s.setValue("arguments", c.arguments);
    s.setValue("workingDirectory", c.workingDirectory);
    s.setValue("environment", c.environment);
    s.setValue("unset", c.unset);
    s.setValue("capture", c.capture);
    s.setValue("wait", c.wait);
    s.setValue("warmup", c.warmup);
    s.setValue("active", c.active);
    s.setValue("repeat", c.repeat);
    s.setValue("stepName", c.stepName);
    s.setValue("captureRange", c.captureRange);
    s.setValue("durationS", c.durationS);
    s.setValue("flushMs", c.flushMs);
    s.setValue("output", c.output);
    s.setValue("withoutCapture", c.withoutCapture);
    s.setValue("live", c.live);
    RecordOptions python;
    python.python = c.python;
    s.setValue("python", QString::fromStdString(pythonRecordingText(python)).section('=', 0, 0));
    s.setValue("pythonSampleHz", c.pythonSampleHz);
    s.setValue("cpuSampleHz", c.cpuSampleHz);
    s.setValue("gpuMetrics", c.gpuMetrics);
    s.setValue("gpuMetricsIntervalUs", c.gpuMetricsIntervalUs);
    s.setValue("kernelMetrics", c.kernelMetrics);
    s.setValue("kernelMetricsSet", c.kernelMetricsSet);
    s.setValue("remote", c.remote);
    s.setValue("remoteDir", c.remoteDir);
    s.setValue("sshOptions", c.sshOptions);
    s.setValue("keepRemote", c.keepRemote);
}

LaunchConfig read(const QSettings& s) {
    LaunchConfig c;
    c.name = s.value("name").toString();
    c.executable = s.value("executable").toString();
    c.arguments = s.value("arguments").toString();
    c.workingDirectory = s.value("workingDirectory").toString();
    c.environment = s.value("environment").toString();
    c.unset = s.value("unset").toStringList();
    c.capture = s.value("capture").toStringList();
    c.wait = s.value("wait", -1).toInt();
    c.warmup = s.value("warmup", -1).toInt();
    c.active = s.value("active", -1).toInt();
    c.repeat = s.value("repeat", -1).toInt();
    c.stepName = s.value("stepName").toString();
    c.captureRange = s.value("captureRange").toString();
    c.durationS = s.value("durationS", 0.0).toDouble();
    c.flushMs = s.value("flushMs", 0).toInt();
    c.output = s.value("output").toString();
    c.withoutCapture = s.value("withoutCapture", false).toBool();
    c.live = s.value("live", true).toBool();
    RecordOptions python; // a value it does not know (a newer Strata's) keeps the default
    std::string unknown;
    if (parsePythonRecording(s.value("python", "sample").toString().toStdString(), &python,
                             &unknown))
        c.python = python.python;
    c.pythonSampleHz = s.value("pythonSampleHz", 1000).toInt();
    c.cpuSampleHz = s.value("cpuSampleHz", 0).toInt();
    c.gpuMetrics = s.value("gpuMetrics").toString();
    c.gpuMetricsIntervalUs = s.value("gpuMetricsIntervalUs", 100).toInt();
    c.kernelMetrics = s.value("kernelMetrics").toString();
    c.kernelMetricsSet = s.value("kernelMetricsSet").toString();
    c.remote = s.value("remote").toString();
    c.remoteDir = s.value("remoteDir").toString();
    c.sshOptions = s.value("sshOptions").toStringList();
    c.keepRemote = s.value("keepRemote", false).toBool();
    return c;
}

QList<LaunchConfig> readAll() {
    QSettings s;
    QList<LaunchConfig> out;
    const int n = s.beginReadArray(kConfigs);
    for (int i = 0; i < n; ++i) {
        s.setArrayIndex(i);
        out.push_back(read(s));
    }
    s.endArray();
    return out;
}

void writeAll(const QList<LaunchConfig>& configs) {
    QSettings s;
    s.remove(kConfigs);
    s.beginWriteArray(kConfigs, int(configs.size()));
    for (int i = 0; i < configs.size(); ++i) {
        s.setArrayIndex(i);
        write(s, configs[i]);
    }
    s.endArray();
}

// The executable as the launcher will find it: a path relative to the working directory, or a
// name looked up in PATH. Empty if not found.
QString resolveExecutable(const LaunchConfig& c) {
    const QString exe = c.executable.trimmed();
    if (exe.contains(QLatin1Char('/'))) {
        const QString base =
            c.workingDirectory.isEmpty() ? QDir::currentPath() : c.workingDirectory;
        return QDir(base).absoluteFilePath(exe);
    }
    return QStandardPaths::findExecutable(exe);
}

// Why `dir` takes no new file (core's check: permissions, then a file created and removed), or
// empty when it does.
QString unwritableBecause(const QString& dir) {
    std::string why;
    return checkFolderWritable(QFile::encodeName(dir).toStdString(), &why)
               ? QString()
               : QString::fromStdString(why);
}

} // namespace

QString LaunchProblems::first() const {
    for (const QString* p : {&remote, &executable, &arguments, &workingDirectory, &environment,
                             &output, &options, &collector})
        if (!p->isEmpty()) return *p;
    return {};
}

QStringList splitArguments(const QString& arguments, QString* error) {
    const std::string text = arguments.toStdString();
    const ShellSplit s = splitShellWords(text);
    QStringList out;
    if (!s.ok()) {
        if (error) *error = QString::fromStdString(s.error);
        return out;
    }
    for (const auto& w : s.words) out << QString::fromStdString(w);
    return out;
}

QString runDirectory(const LaunchConfig& c) {
    return c.workingDirectory.isEmpty() ? QDir::currentPath()
                                        : QDir(c.workingDirectory).absolutePath();
}

QString defaultOutputTemplate(const LaunchConfig& c) {
    // Where the run works, never beside the program (/bin, a Python shim's folder); a remote
    // run's trace comes back to Strata's own folder.
    const QString folder = c.remote.isEmpty() ? runDirectory(c) : QDir::currentPath();
    return QString::fromStdString(
        strata::defaultOutputTemplate(QDir::cleanPath(folder).toStdString(),
                                      QFileInfo(c.executable.trimmed()).fileName().toStdString()));
}

LaunchProblems checkLaunchConfig(const LaunchConfig& c) {
    LaunchProblems p;
    const QString exe = c.executable.trimmed();
    if (!c.remote.isEmpty()) { // the program and its folder are the other machine's
        RemoteHost host;
        std::string why;
        if (!parseRemoteHost(c.remote.trimmed().toStdString(), &host, &why))
            p.remote = QString::fromStdString(why).replace(QStringLiteral("--remote expects"),
                                                           QObject::tr("Run on: expected"));
    }
    if (exe.isEmpty()) {
        p.executable = QObject::tr("Choose the program to run.");
    } else if (c.remote.isEmpty()) {
        const QString resolved = resolveExecutable(c);
        const QFileInfo fi(resolved);
        if (resolved.isEmpty())
            p.executable = QObject::tr("%1: command not found in PATH").arg(exe);
        else if (!fi.exists())
            p.executable = QObject::tr("%1: no such file").arg(resolved);
        else if (fi.isDir())
            p.executable = QObject::tr("%1 is a folder, not a program").arg(resolved);
        else if (!fi.isExecutable())
            p.executable = QObject::tr("%1 is not executable (chmod +x?)").arg(resolved);
    }
    QString splitError;
    splitArguments(c.arguments, &splitError);
    if (!splitError.isEmpty()) p.arguments = QObject::tr("Arguments: %1").arg(splitError);
    if (c.remote.isEmpty() && !c.workingDirectory.isEmpty() &&
        !QFileInfo(c.workingDirectory).isDir())
        p.workingDirectory = QObject::tr("%1: no such folder").arg(c.workingDirectory);
    static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    const QStringList lines = c.environment.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty()) continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq <= 0 || !name.match(line.left(eq)).hasMatch()) {
            p.environment = QObject::tr("Environment line %1: expected NAME=VALUE, got '%2'")
                                .arg(i + 1)
                                .arg(line);
            break;
        }
    }
    for (const QString& u : c.unset)
        if (!name.match(u).hasMatch()) {
            p.environment = QObject::tr("Cannot unset '%1': not a variable name").arg(u);
            break;
        }
    const QString out = c.output.isEmpty() ? defaultOutputTemplate(c) : c.output;
    QString folder = QFileInfo(out).path();
    if (QFileInfo(out).isRelative() && !c.workingDirectory.isEmpty())
        folder = QFileInfo(QDir(c.workingDirectory).filePath(out)).path();
    if (!folder.contains(QLatin1Char('{'))) {
        if (!QFileInfo(folder).isDir())
            p.output = QObject::tr("Output folder %1 does not exist").arg(folder);
        else if (const QString why = unwritableBecause(folder); !why.isEmpty())
            p.output = QObject::tr("Output folder %1 is not writable (%2): choose another "
                                   "output folder or working directory")
                           .arg(folder, why.section(QStringLiteral(" is not writable: "), 1));
    }
    if (p.output.isEmpty() && QFileInfo(folder).isDir()) {
        // The file name each process will make of the template fits the file system, the folder
        // checked above (the launcher checks all again, with the existing-file check, when the
        // run starts).
        const QString path = QDir(folder).absoluteFilePath(QFileInfo(out).fileName());
        std::string why;
        if (!checkOutputFile(expandStartTime(path.toStdString(), std::time(nullptr)), "0", true,
                             &why))
            p.output = QString::fromStdString(why);
    }
    RecordOptions o;
    QString error;
    if (p.ok() && !toRecordOptions(c, QDateTime::currentDateTime(), &o, &error)) p.options = error;
    if (!c.withoutCapture) {
        std::string why;
        if (findCollector(RecordOptions{}, &why).empty())
            p.collector =
                QObject::tr("The CUPTI collector is not available on this machine (%1). Tick "
                            "\u201cRun without capture\u201d to run the program anyway: its "
                            "output and what was run are kept, without GPU activity.")
                    .arg(QString::fromStdString(why).section(QLatin1Char('\n'), 0, 0));
    }
    return p;
}

bool toRecordOptions(const LaunchConfig& c, const QDateTime& start, RecordOptions* out,
                     QString* error) {
    RecordOptions o;
    QString splitError;
    const QStringList args = splitArguments(c.arguments, &splitError);
    if (!splitError.isEmpty()) {
        *error = QObject::tr("Arguments: %1").arg(splitError);
        return false;
    }
    o.command.push_back(c.executable.trimmed().toStdString());
    for (const QString& a : args) o.command.push_back(a.toStdString());
    const QString output = c.output.isEmpty() ? defaultOutputTemplate(c) : c.output;
    o.output = expandStartTime(output.toStdString(), std::time_t(start.toSecsSinceEpoch()));
    for (const QString& g : c.capture) o.capture.push_back(g.toStdString());
    o.wait = c.wait;
    o.warmup = c.warmup;
    o.active = c.active;
    o.repeat = c.repeat;
    o.stepName = c.stepName.toStdString();
    o.captureRange = c.captureRange.toStdString();
    o.durationS = c.durationS;
    o.flushMs = c.flushMs;
    o.workingDirectory = c.workingDirectory.toStdString();
    for (const QString& line : c.environment.split(QLatin1Char('\n'))) {
        const QString t = line.trimmed();
        if (t.isEmpty()) continue;
        const qsizetype eq = t.indexOf(QLatin1Char('='));
        o.extraEnvironment.emplace_back(t.left(eq).toStdString(), t.mid(eq + 1).toStdString());
    }
    for (const QString& u : c.unset) o.removedEnvironment.push_back(u.toStdString());
    o.captureOutput = true;
    o.inject = !c.withoutCapture;
    o.live = c.live && o.inject;
    o.python = c.python;
    o.pythonSampleHz = c.pythonSampleHz;
    o.cpuSampleHz = c.cpuSampleHz;
    o.gpuMetrics = c.gpuMetrics.trimmed().toStdString();
    o.gpuMetricsIntervalUs = c.gpuMetricsIntervalUs;
    o.kernelMetrics = c.kernelMetrics.trimmed().toStdString();
    if (!o.kernelMetrics.empty()) o.kernelMetricsSet = c.kernelMetricsSet.trimmed().toStdString();
    std::string why;
    if (!validateRecordOptions(o, &why)) {
        *error = QString::fromStdString(why);
        return false;
    }
    *out = std::move(o);
    return true;
}

bool toRemoteArguments(const LaunchConfig& c, const QDateTime& start, QStringList* args,
                       RecordOptions* options, QString* error) {
    RecordOptions o;
    if (!toRecordOptions(c, start, &o, error)) return false;
    QStringList a{QStringLiteral("record"), QStringLiteral("--remote"), c.remote.trimmed()};
    for (const QString& opt : c.sshOptions) a << QStringLiteral("--ssh-option") << opt;
    if (!c.remoteDir.isEmpty()) a << QStringLiteral("--remote-dir") << c.remoteDir;
    if (c.keepRemote) a << QStringLiteral("--keep-remote");
    for (const std::string& w : recordArguments(o)) a << QString::fromStdString(w);
    a << QStringLiteral("-o") << QString::fromStdString(o.output) << QStringLiteral("--");
    for (const std::string& w : o.command) a << QString::fromStdString(w);
    *args = a;
    *options = std::move(o);
    return true;
}

QStringList LaunchConfigStore::names() {
    QStringList out;
    for (const LaunchConfig& c : readAll()) out << c.name;
    out.sort(Qt::CaseInsensitive);
    return out;
}

bool LaunchConfigStore::load(const QString& name, LaunchConfig* out) {
    for (const LaunchConfig& c : readAll())
        if (c.name == name) {
            *out = c;
            return true;
        }
    return false;
}

void LaunchConfigStore::save(const LaunchConfig& c) {
    QList<LaunchConfig> all = readAll();
    bool replaced = false;
    for (LaunchConfig& x : all)
        if (x.name == c.name) {
            x = c;
            replaced = true;
        }
    if (!replaced) all.push_back(c);
    writeAll(all);
}

void LaunchConfigStore::remove(const QString& name) {
    QList<LaunchConfig> all = readAll();
    all.removeIf([&](const LaunchConfig& c) { return c.name == name; });
    writeAll(all);
}

bool LaunchConfigStore::rename(const QString& from, const QString& to) {
    QList<LaunchConfig> all = readAll();
    LaunchConfig* found = nullptr;
    for (LaunchConfig& c : all) {
        if (c.name == to) return false;
        if (c.name == from) found = &c;
    }
    if (!found || to.trimmed().isEmpty()) return false;
    found->name = to;
    writeAll(all);
    return true;
}

QString LaunchConfigStore::copyName(const QString& name) {
    const QStringList taken = names();
    QString candidate = QObject::tr("%1 (copy)").arg(name);
    for (int i = 2; taken.contains(candidate); ++i)
        candidate = QObject::tr("%1 (copy %2)").arg(name).arg(i);
    return candidate;
}

void LaunchConfigStore::setLast(const LaunchConfig& c) {
    QSettings s;
    s.beginGroup(kLast);
    s.remove(QString());
    write(s, c);
    s.endGroup();
}

bool LaunchConfigStore::last(LaunchConfig* out) {
    QSettings s;
    s.beginGroup(kLast);
    const bool has = s.contains(QStringLiteral("executable"));
    if (has) *out = read(s);
    s.endGroup();
    return has;
}

QStringList LaunchConfigStore::recentExecutables() {
    return QSettings().value(kRecent).toStringList();
}

void LaunchConfigStore::addRecentExecutable(const QString& path) {
    QStringList r = recentExecutables();
    r.removeAll(path);
    r.prepend(path);
    while (r.size() > 10) r.removeLast();
    QSettings().setValue(kRecent, r);
}

} // namespace strata
