#pragma once
// Small Kineto (PyTorch profiler) JSON traces written in a test, event by event, and read the way
// a user's file is (io/trace_loader.h). Times in microseconds, as in the format.
#include "io/trace_loader.h"
#include "support/test_files.h"

#include <QTemporaryDir>

#include <memory>
#include <string>

namespace strata::test {

class KinetoJson {
public:
    // A complete event ("ph": "X") of category `cat`; `args` is the inside of its args object.
    KinetoJson& x(const std::string& cat, const std::string& name, int64_t pid, int64_t tid,
                  double ts, double dur, const std::string& args = {}) {
        add("{\"ph\":\"X\",\"cat\":\"" + cat + "\",\"name\":\"" + name +
            "\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
            ",\"ts\":" + num(ts) + ",\"dur\":" + num(dur) + ",\"args\":{" + args + "}}");
        return *this;
    }
    // A CUDA/HIP runtime call on thread `tid` of process 1, with its correlation id (-1: none).
    KinetoJson& call(const std::string& name, int64_t tid, double ts, double dur,
                     int64_t correlation = -1) {
        return x("cuda_runtime", name, 1, tid, ts, dur,
                 correlation < 0 ? "" : "\"correlation\":" + std::to_string(correlation));
    }
    // A CPU op on thread `tid` of process 1.
    KinetoJson& cpuOp(const std::string& name, int64_t tid, double ts, double dur) {
        return x("cpu_op", name, 1, tid, ts, dur);
    }
    // A kernel on stream 7 of GPU 0.
    KinetoJson& kernel(const std::string& name, double ts, double dur, int64_t correlation) {
        return x("kernel", name, 0, 7, ts, dur, gpuArgs(correlation));
    }
    // A copy on stream 7 of GPU 0, named as Kineto names it ("Memcpy DtoH (Device -> Pageable)").
    KinetoJson& copy(const std::string& name, double ts, double dur, int64_t correlation,
                     int64_t bytes) {
        return x("gpu_memcpy", name, 0, 7, ts, dur,
                 gpuArgs(correlation) + ",\"bytes\":" + std::to_string(bytes));
    }
    KinetoJson& threadName(int64_t tid, const std::string& name) {
        add("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":" + std::to_string(tid) +
            ",\"args\":{\"name\":\"" + name + "\"}}");
        return *this;
    }

    // Any event, written as given (a JSON object).
    KinetoJson& event(const std::string& json) {
        add(json);
        return *this;
    }

    std::string text() const { return "{\"traceEvents\": [\n" + events_ + "\n]}"; }
    // The events as a file in a temporary folder (kept while this object or a copy lives).
    std::string write() const {
        const std::string path = dir_->filePath(QStringLiteral("trace.json")).toStdString();
        writeAll(path, text());
        return path;
    }
    std::shared_ptr<const Trace> load() const { return loadTrace(write()).trace; }

private:
    static std::string num(double v) {
        std::string s = std::to_string(v);
        while (s.size() > 1 && s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
        return s;
    }
    static std::string gpuArgs(int64_t correlation) {
        return "\"device\":0,\"stream\":7,\"correlation\":" + std::to_string(correlation);
    }
    void add(const std::string& e) { events_ += (events_.empty() ? "" : ",\n") + e; }
    std::string events_;
    std::shared_ptr<QTemporaryDir> dir_ = std::make_shared<QTemporaryDir>();
};

} // namespace strata::test
