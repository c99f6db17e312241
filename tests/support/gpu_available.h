#pragma once
// Whether this machine has a CUDA device the GPU tests (label `gpu`) can use: empty when it has,
// else why not ("no GPU: /dev/nvidia0 does not exist"), for the test's QSKIP.
#include <QFile>
#include <QString>

#include <dlfcn.h>

namespace strata::test {

inline QString gpuUnavailableReason() {
    if (!QFile::exists(QStringLiteral("/dev/nvidia0")))
        return QStringLiteral("no GPU: /dev/nvidia0 does not exist");
    void* h = nullptr;
    for (const char* n : {"libcudart.so.13", "libcudart.so.12", "libcudart.so"})
        if ((h = dlopen(n, RTLD_LAZY | RTLD_LOCAL))) break;
    if (!h) return QStringLiteral("no GPU: cannot load libcudart (%1)").arg(dlerror());
    using Count = int (*)(int*);
    auto count = reinterpret_cast<Count>(dlsym(h, "cudaGetDeviceCount"));
    int n = 0;
    const int err = count ? count(&n) : -1;
    if (err != 0 || n <= 0)
        return QStringLiteral("no GPU: cudaGetDeviceCount returned error %1, %2 devices")
            .arg(err)
            .arg(n);
    return {};
}

} // namespace strata::test
