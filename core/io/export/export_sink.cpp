#include "io/export/export_sink.h"

#include <zlib.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <iterator>
#include <mutex>
#include <pthread.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace strata {
namespace {

// The temporary files being written, for removeExportTemporaries() (a signal handler): fixed
// slots, no allocation, published with atomics (state 2 = the path is complete).
struct TemporarySlot {
    std::atomic<int> state{0}; // 0 free, 1 being filled, 2 holds a path
    char path[4096];
};
TemporarySlot g_temporaries[16];

// The slot now holding `path`, or -1 (all taken or too long: then no signal clean-up for it).
int registerTemporary(const std::string& path) {
    if (path.size() >= sizeof g_temporaries[0].path) return -1;
    for (int i = 0; i < int(std::size(g_temporaries)); ++i) {
        int expected = 0;
        if (!g_temporaries[i].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(g_temporaries[i].path, path.c_str(), path.size() + 1);
        g_temporaries[i].state.store(2);
        return i;
    }
    return -1;
}

void releaseTemporary(int slot) {
    if (slot >= 0) g_temporaries[slot].state.store(0);
}

// Blocks the signals whose handler removes the temporaries while one is created and
// registered (a signal in between would leave it behind).
class TerminationSignalsBlocked {
public:
    TerminationSignalsBlocked() {
        sigset_t set;
        sigemptyset(&set);
        for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&set, s);
        pthread_sigmask(SIG_BLOCK, &set, &old_);
    }
    ~TerminationSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

private:
    sigset_t old_;
};

// Plain bytes to a FILE*: a temporary file (renamed by commit) or stdout.
class FileSink : public ExportSink {
public:
    FileSink(std::FILE* f, std::string tmp, std::string final, bool closeAtEnd = false,
             int slot = -1)
        : f_(f), tmp_(std::move(tmp)), final_(std::move(final)), closeAtEnd_(closeAtEnd),
          slot_(slot) {}
    ~FileSink() override {
        if (f_) abort();
    }
    bool write(std::string_view b) override {
        if (failed_) return false;
        if (std::fwrite(b.data(), 1, b.size(), f_) != b.size()) return fail("cannot write");
        out_ += b.size();
        return true;
    }
    bool commit() override {
        if (failed_) return false;
        if (std::fflush(f_) != 0) return fail("cannot write");
        if (tmp_.empty()) { // stdout, or a device written in place
            const bool ok = !closeAtEnd_ || std::fclose(f_) == 0;
            f_ = nullptr;
            if (!ok) error_ = final_ + ": cannot write: " + std::strerror(errno);
            return ok;
        }
        if (::fsync(fileno(f_)) != 0 && errno != EINVAL) return fail("cannot sync");
        const int rc = std::fclose(f_);
        f_ = nullptr;
        if (rc != 0) {
            error_ = final_ + ": cannot write: " + std::strerror(errno);
            dropTemporary();
            return false;
        }
        if (std::rename(tmp_.c_str(), final_.c_str()) != 0) {
            error_ =
                final_ + ": cannot rename the finished file into place: " + std::strerror(errno);
            dropTemporary();
            return false;
        }
        releaseTemporary(slot_);
        slot_ = -1;
        return true;
    }
    void abort() override {
        if (!f_) return;
        if (!tmp_.empty()) {
            std::fclose(f_);
            dropTemporary();
        } else if (closeAtEnd_) {
            std::fclose(f_);
        }
        f_ = nullptr;
    }
    std::string error() const override { return error_; }
    size_t bytesOut() const override { return out_; }

protected:
    void dropTemporary() {
        std::remove(tmp_.c_str());
        releaseTemporary(slot_);
        slot_ = -1;
    }
    bool fail(const char* what) {
        if (!failed_) error_ = final_ + ": " + what + ": " + std::strerror(errno ? errno : EIO);
        failed_ = true;
        return false;
    }
    std::FILE* f_;
    std::string tmp_, final_;
    std::string error_;
    size_t out_ = 0;
    bool failed_ = false;
    bool closeAtEnd_ = false;
    int slot_ = -1; // in g_temporaries
};

// gzip on a second thread: write() queues the bytes, the thread deflates and writes them.
class GzipSink : public ExportSink {
public:
    explicit GzipSink(std::unique_ptr<FileSink> file) : file_(std::move(file)) {
        std::memset(&z_, 0, sizeof z_);
        ok_ = deflateInit2(&z_, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
        if (ok_) thread_ = std::thread([this] { run(); });
    }
    ~GzipSink() override {
        stop();
        if (ok_) deflateEnd(&z_);
        file_->abort();
    }
    bool write(std::string_view b) override {
        std::unique_lock lock(mutex_);
        // Bounded queue: the producer waits when the compressor is behind (memory stays small).
        space_.wait(lock, [&] { return queued_ < kMaxQueued || failed_; });
        if (failed_ || !ok_) return false;
        queue_.emplace_back(b);
        queued_ += b.size();
        ready_.notify_one();
        return true;
    }
    bool commit() override {
        stop();
        if (failed_ || !ok_) {
            file_->abort();
            return false;
        }
        return file_->commit();
    }
    void abort() override {
        stop();
        file_->abort();
    }
    std::string error() const override {
        return ok_ ? file_->error() : std::string("zlib: cannot start a gzip stream");
    }
    size_t bytesOut() const override { return file_->bytesOut(); }

private:
    static constexpr size_t kMaxQueued = 8u << 20;

    void stop() {
        {
            std::lock_guard lock(mutex_);
            if (done_) return;
            done_ = true;
            ready_.notify_one();
        }
        if (thread_.joinable()) thread_.join();
    }
    bool deflateSome(std::string_view in, int flush) {
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
        z_.avail_in = uInt(in.size());
        char out[1 << 16];
        do {
            z_.next_out = reinterpret_cast<Bytef*>(out);
            z_.avail_out = sizeof out;
            const int rc = deflate(&z_, flush);
            if (rc == Z_STREAM_ERROR) return false;
            const size_t n = sizeof out - z_.avail_out;
            if (n && !file_->write(std::string_view(out, n))) return false;
        } while (z_.avail_out == 0);
        return true;
    }
    void run() {
        for (;;) {
            std::string chunk;
            bool finishing = false;
            {
                std::unique_lock lock(mutex_);
                ready_.wait(lock, [&] { return !queue_.empty() || done_; });
                if (!queue_.empty()) {
                    chunk = std::move(queue_.front());
                    queue_.pop_front();
                    queued_ -= chunk.size();
                    space_.notify_one();
                } else {
                    finishing = true;
                }
            }
            if (finishing) {
                if (!failed_ && !deflateSome({}, Z_FINISH)) markFailed();
                return;
            }
            if (!failed_ && !deflateSome(chunk, Z_NO_FLUSH)) markFailed();
        }
    }
    void markFailed() {
        std::lock_guard lock(mutex_);
        failed_ = true;
        space_.notify_all();
    }

    std::unique_ptr<FileSink> file_;
    z_stream z_;
    bool ok_ = false;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable ready_, space_;
    std::deque<std::string> queue_;
    size_t queued_ = 0;
    bool done_ = false;
    bool failed_ = false;
};

} // namespace

void removeExportTemporaries() noexcept {
    for (TemporarySlot& t : g_temporaries)
        if (t.state.load() == 2) ::unlink(t.path);
}

std::unique_ptr<ExportSink> openExportSink(const std::string& path, bool gzip, std::string* error) {
    std::unique_ptr<FileSink> file;
    struct stat st {};
    if (path == "-") {
        file = std::make_unique<FileSink>(stdout, std::string(), std::string("-"));
    } else if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        // A device or a pipe (/dev/null, /dev/full, a FIFO): written as it is, never replaced.
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) {
            *error = path + ": cannot open: " + std::strerror(errno);
            return nullptr;
        }
        file = std::make_unique<FileSink>(f, std::string(), path, true);
    } else {
        std::string tmp = path + ".partial-XXXXXX";
        int fd, slot;
        {
            const TerminationSignalsBlocked blocked;
            fd = ::mkstemp(tmp.data());
            slot = fd < 0 ? -1 : registerTemporary(tmp);
        }
        if (fd < 0) {
            *error = path + ": cannot create the output file: " + std::strerror(errno);
            return nullptr;
        }
        ::fchmod(fd, 0644);
        std::FILE* f = ::fdopen(fd, "wb");
        if (!f) {
            *error = path + ": cannot open: " + std::strerror(errno);
            ::close(fd);
            std::remove(tmp.c_str());
            releaseTemporary(slot);
            return nullptr;
        }
        std::setvbuf(f, nullptr, _IOFBF, 1 << 20);
        file = std::make_unique<FileSink>(f, std::move(tmp), path, false, slot);
    }
    if (!gzip) return file;
    return std::make_unique<GzipSink>(std::move(file));
}

} // namespace strata
