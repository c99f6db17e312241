#pragma once
// The names of Python frames, as the PyTorch profiler's with_stack=True names its
// python_function slices: "path/file.py(LINE): function" for Python code (LINE: the function's
// first line) and "<built-in function NAME>" / "<built-in method NAME of TYPE object>" for C
// functions. A frame id (1, 2, ...) per code object or C function: looked up under the GIL on
// every call, so the table is a plain map; the names are read by the flush thread under a lock
// of their own. Code objects seen are kept alive (one reference each) so an address is never
// reused for another function.
#include "python/python_api.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strata::python {

class FrameTable {
public:
    // With the GIL held.
    uint32_t ofCode(PyObject* code);
    uint32_t ofFrame(PyFrameObject* frame); // its code's id
    uint32_t ofCFunction(PyObject* function);
    // From any thread: the name of a frame id ("" for 0 or an unknown id).
    std::string name(uint32_t id) const;

private:
    struct PairHash {
        size_t operator()(const std::pair<const void*, const void*>& p) const noexcept {
            return std::hash<const void*>{}(p.first) * 31 + std::hash<const void*>{}(p.second);
        }
    };
    uint32_t add(std::string name);
    std::unordered_map<const void*, uint32_t> codes_;
    std::unordered_map<std::pair<const void*, const void*>, uint32_t, PairHash> cFunctions_;
    mutable std::mutex namesMutex_;
    std::vector<std::string> names_; // names_[id - 1]
};

} // namespace strata::python
