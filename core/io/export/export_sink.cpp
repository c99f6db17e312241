#include "io/export/export_sink.h"
#include "util/output_file.h"

#include <zlib.h>

#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace strata {
namespace {

// Plain bytes to an OutputFile (util/output_file.h: a temporary renamed by commit, or a device
// written in place) or to stdout.
class FileSink : public ExportSink {
public:
    explicit FileSink(std::unique_ptr<OutputFile> out)
        : out_(std::move(out)), f_(out_->stream()), name_(out_->path()) {}
    FileSink() : f_(stdout), name_("-") {} // standard output
    ~FileSink() override { abort(); }
    bool write(std::string_view b) override {
        if (failed_) return false;
        if (std::fwrite(b.data(), 1, b.size(), f_) != b.size()) return fail("cannot write");
        written_ += b.size();
        return true;
    }
    bool commit() override {
        if (failed_) return false;
        if (!out_) return std::fflush(f_) == 0 || fail("cannot write");
        const bool ok = out_->commit(&error_);
        out_.reset();
        failed_ = !ok;
        return ok;
    }
    void abort() override {
        if (out_) out_->abort();
        out_.reset();
    }
    std::string error() const override { return error_; }
    size_t bytesOut() const override { return written_; }

private:
    bool fail(const char* what) {
        if (!failed_) error_ = name_ + ": " + what + ": " + std::strerror(errno ? errno : EIO);
        failed_ = true;
        return false;
    }
    std::unique_ptr<OutputFile> out_; // null: stdout
    std::FILE* f_;
    std::string name_;
    std::string error_;
    size_t written_ = 0;
    bool failed_ = false;
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

std::unique_ptr<ExportSink> openExportSink(const std::string& path, bool gzip, std::string* error) {
    std::unique_ptr<FileSink> file;
    if (path == "-") {
        file = std::make_unique<FileSink>();
    } else {
        std::unique_ptr<OutputFile> out = OutputFile::open(path, error);
        if (!out) return nullptr;
        file = std::make_unique<FileSink>(std::move(out));
    }
    if (!gzip) return file;
    return std::make_unique<GzipSink>(std::move(file));
}

} // namespace strata
