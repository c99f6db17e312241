# docs/sections.md's CuPy example, with the include path of this checkout.
import sys, cupy as cp, numpy as np
inc = sys.argv[1]
src = r'''
#include <strata/sections.cuh>
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n,
        strata::SectionRecord* rec, unsigned long long* count, unsigned int capacity) {
    strata::Sections s({rec, count, capacity, 1});
    s.begin(0);                                   // load
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.f;
    __syncthreads();
    s.next(1);                                    // compute + store
    if (i < n) y[i] = a * v + y[i];
    __syncthreads();
    s.end();
}'''
k = cp.RawKernel(src, "saxpy", options=("-I" + inc, "--std=c++17"))
n, threads = 1 << 24, 256
blocks = (n + threads - 1) // threads
x, y = cp.ones(n, cp.float32), cp.zeros(n, cp.float32)
capacity = blocks * 2
rec = cp.zeros(capacity * 48, cp.uint8)
count = cp.zeros(1, cp.uint64)
k((blocks,), (threads,), (cp.float32(2), x, y, cp.int32(n), rec, count, cp.uint32(capacity)))
record = np.dtype([("start_clock", "<u8"), ("end_clock", "<u8"), ("start_ns", "<u8"),
                   ("end_ns", "<u8"), ("block", "<u4"), ("warp", "<u4"),
                   ("section", "<u2"), ("sm", "<u2"), ("launch", "<u4")])
r = rec.get().view(record)[: min(int(count.get()[0]), capacity)]
print("records", len(r), "count", int(count.get()[0]), "capacity", capacity)
r = r[np.lexsort((r["block"], r["section"]))]
times = (r["end_clock"] - r["start_clock"]).astype(np.int64).reshape(2, -1)
np.save("saxpy_sections.npy", times)
clock_hz = cp.cuda.Device().attributes["ClockRate"] * 1000
print("y[0..3]", y[:3].get(), "mean cycles", times.mean(axis=1))
print(f"strata-cli sections --names load,compute --clock-hz {clock_hz:g} saxpy_sections.npy")
open("clock_hz.txt", "w").write(f"{clock_hz:g}")
