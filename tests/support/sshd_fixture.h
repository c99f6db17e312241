#pragma once
// A real OpenSSH server for the remote tests (issue 50): Debian's sshd, started by the test on
// 127.0.0.1 at a free port with a host key and a user key made for it in a temporary folder,
// stopped when the fixture goes. Clients reach it with sshOptions() (that key alone, the host key
// accepted into a known_hosts file of its own) as the current user.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace strata::test {

class SshdFixture {
public:
    // Empty when it runs; else why not.
    QString start() {
        if (!QFile::exists(kSshd))
            return QStringLiteral("%1 is missing (openssh-server)").arg(kSshd);
        if (!dir_.isValid()) return QStringLiteral("no temporary folder");
        ::chmod(QFile::encodeName(dir_.path()).constData(), 0700);
        for (const char* key : {"host_key", "user_key"}) {
            QProcess keygen;
            keygen.start(QStringLiteral("ssh-keygen"),
                         {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                          QStringLiteral("-N"), QString(), QStringLiteral("-f"), path(key)});
            if (!keygen.waitForFinished(30000) || keygen.exitCode() != 0)
                return QStringLiteral("ssh-keygen failed: %1").arg(keygen.readAllStandardError());
        }
        QFile::copy(path("user_key.pub"), path("authorized_keys"));
        if (::geteuid() == 0) QDir().mkpath(QStringLiteral("/run/sshd")); // privilege separation
        port_ = freePort();
        QFile config(path("sshd_config"));
        if (!config.open(QIODevice::WriteOnly)) return QStringLiteral("cannot write sshd_config");
        config.write(QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2\nPidFile %3\n"
                                    "AuthorizedKeysFile %4\nPasswordAuthentication no\n"
                                    "KbdInteractiveAuthentication no\nPermitRootLogin "
                                    "prohibit-password\nStrictModes no\nUsePAM no\n")
                         .arg(port_)
                         .arg(path("host_key"), path("sshd.pid"), path("authorized_keys"))
                         .toUtf8());
        config.close();
        sshd_.setProcessChannelMode(QProcess::MergedChannels);
        sshd_.start(kSshd, {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                            path("sshd_config")});
        if (!sshd_.waitForStarted(10000)) return QStringLiteral("sshd did not start");
        for (int i = 0; i < 200; ++i) { // listening within 20 s
            if (sshd_.state() != QProcess::Running)
                return QStringLiteral("sshd ended: %1").arg(sshd_.readAll());
            if (accepts()) return {};
            QThread::msleep(100);
        }
        return QStringLiteral("sshd does not listen on port %1").arg(port_);
    }
    ~SshdFixture() {
        sshd_.terminate();
        sshd_.waitForFinished(5000);
    }

    int port() const { return port_; }
    QString user() const {
        const passwd* pw = ::getpwuid(::getuid());
        return pw ? QString::fromLocal8Bit(pw->pw_name) : QString();
    }
    // --remote's value: user@127.0.0.1:port.
    QString remote() const { return QStringLiteral("%1@127.0.0.1:%2").arg(user()).arg(port_); }
    // --ssh-option values: the fixture's user key alone, its own known_hosts.
    QStringList sshOptions(const QString& key = {}) const {
        return {QStringLiteral("--ssh-option"),
                QStringLiteral("IdentityFile=%1").arg(key.isEmpty() ? path("user_key") : key),
                QStringLiteral("--ssh-option"),
                QStringLiteral("IdentitiesOnly=yes"),
                QStringLiteral("--ssh-option"),
                QStringLiteral("UserKnownHostsFile=%1").arg(path("known_hosts")),
                QStringLiteral("--ssh-option"),
                QStringLiteral("StrictHostKeyChecking=accept-new")};
    }
    QString path(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }
    // A stand-in collector file ($STRATA_COLLECTOR, what --remote copies there): the stand-in
    // target never loads it, and a build without the CUDA toolkit has none of its own.
    void useStandInCollector() {
        QFile f(path("libstrata_collector.so"));
        if (f.open(QIODevice::WriteOnly)) f.write("stand-in");
        qputenv("STRATA_COLLECTOR", QFile::encodeName(f.fileName()));
    }

private:
    static inline const QString kSshd = QStringLiteral("/usr/sbin/sshd");
    static int freePort() {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        ::close(fd);
        return ntohs(a.sin_port);
    }
    bool accepts() const {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(uint16_t(port_));
        const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        ::close(fd);
        return ok;
    }
    QTemporaryDir dir_;
    QProcess sshd_;
    int port_ = 0;
};

} // namespace strata::test
