#include "analysis/frame_roles.h"

#include <algorithm>
#include <iterator>

namespace strata {

namespace {

bool startsWith(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}

bool contains(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

// Top-level packages whose frames are library code: the Python standard library modules that
// show in traces, and the ML stack. A package not listed counts as the user's own code.
constexpr std::string_view kLibraries[] = {
    "_bootstrap", "_collections_abc", "_weakrefset", "abc", "argparse", "ast", "asyncio", "base64",
    "bdb", "bisect", "builtins", "bz2", "cProfile", "codecs", "collections", "concurrent",
    "contextlib", "contextvars", "copy", "copyreg", "csv", "ctypes", "dataclasses", "datetime",
    "decimal", "difflib", "dis", "email", "encodings", "enum", "functools", "gc", "genericpath",
    "glob", "gzip", "hashlib", "heapq", "hmac", "html", "http", "importlib", "inspect", "io",
    "ipaddress", "itertools", "json", "keyword", "linecache", "locale", "logging", "lzma",
    "multiprocessing", "numbers", "opcode", "operator", "os", "pathlib", "pdb", "pickle", "pkgutil",
    "platform", "posixpath", "pprint", "profile", "queue", "random", "re", "reprlib", "runpy",
    "sched", "select", "selectors", "shlex", "shutil", "signal", "site", "socket", "socketserver",
    "sre_compile", "sre_parse", "ssl", "stat", "statistics", "string", "struct", "subprocess",
    "sysconfig", "tarfile", "tempfile", "textwrap", "threading", "timeit", "token", "tokenize",
    "traceback", "tracemalloc", "types", "typing", "typing_extensions", "unittest", "urllib",
    "uuid", "warnings", "weakref", "xml", "zipfile", "zipimport",
    // The ML stack.
    "accelerate", "apex", "cv2", "datasets", "deepspeed", "diffusers", "einops", "fairscale",
    "fbgemm_gpu", "filelock", "flash_attn", "fsspec", "functorch", "huggingface_hub", "jax",
    "jaxlib", "jinja2", "lightning", "megatron", "networkx", "numpy", "packaging", "pandas", "peft",
    "PIL", "pytorch_lightning", "regex", "requests", "safetensors", "scipy", "sentencepiece",
    "sklearn", "sympy", "timm", "tokenizers", "torch", "torchaudio", "torchrec", "torchvision",
    "tqdm", "transformers", "triton", "vllm", "xformers", "yaml"};

} // namespace

bool isBlockingCallName(std::string_view n) {
    if (contains(n, "Synchronize")) return true; // device/stream/event/ctx, CUDA and HIP
    // The synchronous copies, sets and the allocations that synchronize, without the API prefix
    // (cuda, hip; the driver's cu).
    static constexpr std::string_view kBlocking[] = {
        "Memcpy",           "Memcpy2D",         "Memcpy3D",   "Memset",   "MemcpyToSymbol",
        "MemcpyFromSymbol", "MemcpyWithStream", "Free",       "FreeHost", "Malloc",
        "MallocHost",       "HostAlloc",        "HostMalloc", "HostFree"};
    static constexpr std::string_view kDriver[] = {"MemcpyHtoD", "MemcpyDtoH", "MemcpyDtoD",
                                                   "Memcpy",     "MemsetD8",   "MemsetD32",
                                                   "MemFree",    "MemAlloc"};
    auto matches = [&](std::string_view rest, std::string_view b) {
        // Exactly the name, or the name with a suffix: cuMemcpyHtoD_v2, cudaMemcpy_ptds.
        return rest == b ||
               (rest.size() > b.size() && startsWith(rest, b) && rest[b.size()] == '_');
    };
    for (std::string_view prefix : {std::string_view("cuda"), std::string_view("hip")})
        if (startsWith(n, prefix))
            for (std::string_view b : kBlocking)
                if (matches(n.substr(prefix.size()), b)) return true;
    if (startsWith(n, "cu") && !startsWith(n, "cuda"))
        for (std::string_view b : kDriver)
            if (matches(n.substr(2), b)) return true;
    return false;
}

bool isLibraryPythonFrame(std::string_view n) {
    if (startsWith(n, "<")) return true; // <built-in ...>, <frozen ...>, <string>
    const size_t paren = n.find('(');
    const std::string_view path = n.substr(0, paren);
    if (contains(path, "site-packages/") || contains(path, "dist-packages/") ||
        contains(path, "/lib/python") || contains(path, "/usr/lib/"))
        return true;
    std::string_view top = path.substr(0, path.find('/'));
    if (top.size() > 3 && top.substr(top.size() - 3) == ".py") top.remove_suffix(3);
    return std::find(std::begin(kLibraries), std::end(kLibraries), top) != std::end(kLibraries);
}

bool isInputPipelineName(std::string_view n) {
    return startsWith(n, "enumerate(DataLoader") || startsWith(n, "enumerate(DataPipe") ||
           contains(n, "DataLoaderIter") || startsWith(n, "torch/utils/data/");
}

FrameRoles::FrameRoles(const Trace& trace) : trace_(trace), names_(trace.strings().size(), 0) {}

namespace {
constexpr uint8_t kDecided = 0x80, kStep = 0x40; // name cache only
} // namespace

uint8_t FrameRoles::byName(StringId name, bool pythonFrame) {
    uint8_t& cached = names_[name];
    if (!cached) {
        const std::string_view n = trace_.str(name);
        uint8_t bits = kDecided;
        if (isInputPipelineName(n)) bits |= kInputPipeline;
        if (isBlockingCallName(n)) bits |= kBlocking;
        // A Python frame the user recognises: nn.Module, or a file of their own.
        if (startsWith(n, "nn.Module") || !isLibraryPythonFrame(n)) bits |= kRecognised;
        if (startsWith(n, "ProfilerStep#")) bits |= kStep;
        cached = bits;
    }
    return uint8_t(cached & (pythonFrame ? (kRecognised | kInputPipeline | kBlocking | kStep)
                                         : (kInputPipeline | kBlocking | kStep)));
}

uint8_t FrameRoles::of(const SliceColumns& c, SliceIndex i) {
    // The profiler's step: a range only, and no context (every gap of a step would name it).
    if (c.kind[i] != SliceKind::CudaRuntime && c.kind[i] != SliceKind::CudaDriver &&
        (byName(c.name[i], false) & kStep))
        return kAnnotation;
    switch (c.kind[i]) {
    case SliceKind::CudaRuntime:
    case SliceKind::CudaDriver:
        return uint8_t(kApiCall | (byName(c.name[i], false) & kBlocking));
    case SliceKind::PythonFunction:
        return uint8_t(byName(c.name[i], true) & (kRecognised | kInputPipeline));
    case SliceKind::UserAnnotation:
        return uint8_t(kRecognised | kAnnotation | (byName(c.name[i], false) & kInputPipeline));
    case SliceKind::CpuOp:
    case SliceKind::Generic:
        return uint8_t(kRecognised | (byName(c.name[i], false) & kInputPipeline));
    default:
        return 0;
    }
}

} // namespace strata
