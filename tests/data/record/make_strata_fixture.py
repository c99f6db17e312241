#!/usr/bin/env python3
"""Writes python_written.strata (1.0 records), python_blocks.strata (1.1 column blocks) and
python_kernel_metrics.strata (1.7 KernelMetrics records) from docs/strata-format.md alone (an
independent writer), for tst_strata_format's and tst_strata_kernel_metrics' fixture tests. Values
are the ones the tests expect; run from this folder:
    python3 make_strata_fixture.py
"""
import struct

def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF

def rec(rtype, body):
    return struct.pack("<BI", rtype, len(body)) + body

def string(sid, text):
    return rec(1, struct.pack("<I", sid) + text.encode())

def chunk(seq, records):
    payload = b"".join(records)
    head = b"CHNK" + struct.pack("<III", seq, len(payload), len(records))
    return head + struct.pack("<I", crc32c(head + payload)) + payload

def gpu_activity(device, stream, context, grid, block, regs, ssm, dsm, nbytes, copy, src, dst,
                 graph, node):
    return struct.pack("<iqq3i3iiiiqBBBqq", device, stream, context, *grid, *block, regs, ssm,
                       dsm, nbytes, copy, src, dst, graph, node)

chunk0 = [
    string(1, "host"), rec(2, struct.pack("<I", 1) + b"gpu-box"),
    string(2, "train.py"), rec(3, struct.pack("<qI", 77, 2)),
    string(3, "main"), rec(4, struct.pack("<qqI", 77, 78, 3)),
    string(4, "NVIDIA H100"),
    rec(5, struct.pack("<iIiqiiqq", 0, 4, 132, 85899345920, 9, 0, 1980000, 2619000)),
    string(5, "cudaLaunchKernel"),
    # cpuSlice pid 77 tid 78 [1000, 1600) CudaRuntime(4) correlation 9 returnCode 2
    rec(6, struct.pack("<qqqqIBqi", 77, 78, 1000, 1600, 5, 4, 9, 2)),
    string(6, "gemm"),
    # gpuOp [2000, 5000) Kernel(6) correlation 9
    rec(11, struct.pack("<qqIBq", 2000, 5000, 6, 6, 9) +
        gpu_activity(0, 7, 1, (4, 2, 1), (128, 1, 1), 64, 1024, 2048, -1, 0, 0, 0, -1, -1)),
]
chunk1 = [
    string(7, "step"),
    rec(7, struct.pack("<qqqIB", 77, 78, 900, 7, 3)),   # cpuBegin UserAnnotation(3)
    rec(8, struct.pack("<qqq", 77, 78, 1700)),          # cpuEnd
    string(8, "Memcpy HtoD"),
    rec(11, struct.pack("<qqIBq", 6000, 6500, 8, 7, 10) +
        gpu_activity(0, 7, 1, (0, 0, 0), (0, 0, 0), -1, -1, -1, 4096, 1, 2, 3, -1, -1)),
    string(9, "mem"), rec(12, struct.pack("<qIqd", 77, 9, 1500, 2.5)),
    string(10, "mark"), rec(10, struct.pack("<qqqI", 77, 78, 1200, 10)),
    string(11, "range"), rec(9, struct.pack("<qQqqI", 77, 5, 3000, 4000, 11)),
    rec(13, b"CUPTI dropped 3 records"),
]
data = b"STRATA\x01\x00" + chunk(0, chunk0) + chunk(1, chunk1) + chunk(2, [rec(14, b"")])
with open("python_written.strata", "wb") as f:
    f.write(data)
print(len(data), "bytes")

def columns(fmt, values):
    return b"".join(struct.pack("<" + fmt, v) for v in values)

# CpuSliceBlock: pid 77 tid 78, three cudaLaunchKernel calls; the second returned 2.
cpu_block = (struct.pack("<qqI", 77, 78, 3) + columns("q", [1000, 2000, 3000]) +
             columns("q", [1500, 2400, 3100]) + columns("I", [1, 1, 1]) + columns("B", [4, 4, 4]) +
             columns("q", [9, 10, 11]) + columns("i", [0, 2, 0]))
# GpuOpBlock: two kernels on device 0 stream 7, launched by correlation 9 and 10.
gpu_block = (struct.pack("<I", 2) + columns("q", [5000, 6000]) + columns("q", [5800, 6500]) +
             columns("I", [2, 2]) + columns("B", [6, 6]) + columns("q", [9, 10]) +
             gpu_activity(0, 7, 1, (8, 1, 1), (256, 1, 1), 32, 0, 0, -1, 0, 0, 0, -1, -1) +
             gpu_activity(0, 7, 1, (16, 1, 1), (256, 1, 1), 32, 0, 0, -1, 0, 0, 0, -1, -1))
blocks = [string(1, "cudaLaunchKernel"), string(2, "gemm"), rec(15, cpu_block), rec(16, gpu_block)]
data = b"STRATA\x01\x01" + chunk(0, blocks) + chunk(1, [rec(14, b"")])
with open("python_blocks.strata", "wb") as f:
    f.write(data)
print(len(data), "bytes")

# KernelMetrics (type 24): i64 correlation, i32 device, u32 kernel, u32 names (joined by "\n"),
# then one f64 per name (NaN: not measured). Launch 9's record comes before its kernel, launch
# 10's after it (a chunk later); launch 77's kernel is not in the file.
def kernel_metrics(corr, device, kernel, names, values):
    return rec(24, struct.pack("<qiII", corr, device, kernel, names) +
               struct.pack("<%dd" % len(values), *values))

metrics = "dram__bytes_read.sum\ngpu__time_duration.sum\nsm__throughput.avg.pct_of_peak_sustained_elapsed"
def kernel_op(start, end, corr):
    return rec(11, struct.pack("<qqIBq", start, end, 1, 6, corr) +
               gpu_activity(0, 7, 1, (8, 1, 1), (256, 1, 1), 32, 0, 0, -1, 0, 0, 0, -1, -1))
chunk0 = [string(1, "gemm"), string(2, metrics),
          kernel_metrics(9, 0, 1, 2, [4096.0, 20000.0, float("nan")]),
          kernel_op(1000, 3000, 9), kernel_op(4000, 6000, 10)]
chunk1 = [kernel_metrics(10, 0, 1, 2, [8192.0, 19000.0, 50.5]),
          kernel_metrics(77, 0, 1, 2, [1.0, 2.0, 3.0])]
data = b"STRATA\x01\x07" + chunk(0, chunk0) + chunk(1, chunk1) + chunk(2, [rec(14, b"")])
with open("python_kernel_metrics.strata", "wb") as f:
    f.write(data)
print(len(data), "bytes")
