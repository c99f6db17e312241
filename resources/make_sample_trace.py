#!/usr/bin/env python3
"""Writes resources/sample_trace.json: a small, deterministic Kineto-style PyTorch profiler trace.

Three training steps of a toy two-layer MLP on one GPU (device 0) with two CUDA streams:
  - stream 7: forward/backward/optimizer kernels, launched one by one from the main thread
    (python_function > cpu_op > cudaLaunchKernel), short enough that the GPU waits for the CPU
    (visible launch gaps);
  - stream 20: the next batch's host-to-device copy (cudaMemcpyAsync) and an embedding kernel,
    overlapping stream 7.
ac2g flows link each launch to its GPU op (by correlation id); cpu_op, runtime call and GPU op
share an "External id". Timestamps are microseconds with nanosecond decimals, as Kineto writes
them. Usage: python3 make_sample_trace.py [OUT]   (default: sample_trace.json beside this file)
"""
import json
import os
import random
import sys

PID = 4242          # the Python process
TID = 4242          # main thread
GPU_PID = 0         # Kineto puts device N's activity in pid N
COMPUTE, COPY = 7, 20
BASE_US = 1_730_000_000_000.0  # an epoch-like origin in microseconds

rng = random.Random(20261121)
events = []
corr = [1000]
ext = [1]


def U(a, b):
    """A random duration on the nanosecond grid, so that sums of durations stay exact and a
    slice that ends where the next begins does not overlap it by a rounding nanosecond."""
    return round(rng.uniform(a, b), 3)


def us(t):
    """Round to whole nanoseconds, as Kineto does."""
    return round(t, 3)


def x(cat, name, pid, tid, ts, dur, args=None):
    e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
         "ts": us(BASE_US + ts), "dur": us(dur)}
    if args:
        e["args"] = args
    events.append(e)
    return e


def flow(c, launch_ts, gpu_ts, stream):
    events.append({"ph": "s", "id": c, "pid": PID, "tid": TID, "ts": us(BASE_US + launch_ts),
                   "cat": "ac2g", "name": "ac2g"})
    events.append({"ph": "f", "id": c, "pid": GPU_PID, "tid": stream,
                   "ts": us(BASE_US + gpu_ts), "cat": "ac2g", "name": "ac2g", "bp": "e"})


stream_free = {COMPUTE: 0.0, COPY: 0.0}


def launch_op(t, op, kernel, kdur, grid, block, regs, smem, stream=COMPUTE, memcpy_bytes=None):
    """cpu_op `op` at CPU time t launching one GPU op; returns the CPU time after the op."""
    e = ext[0]
    ext[0] += 1
    c = corr[0]
    corr[0] += 1
    pre = U(9, 22)
    api_dur = U(4.5, 8.5)
    post = U(2, 6)
    api_ts = t + pre
    op_dur = pre + api_dur + post
    x("cpu_op", op, PID, TID, t, op_dur,
      {"External id": e, "Record function id": 0, "Sequence number": 100 + e,
       "Fwd thread id": 0, "Ev Idx": e})
    api = "cudaMemcpyAsync" if memcpy_bytes else "cudaLaunchKernel"
    x("cuda_runtime", api, PID, TID, api_ts, api_dur,
      {"External id": e, "cbid": 41 if memcpy_bytes else 211, "correlation": c})
    gpu_ts = max(api_ts + U(3, 6), stream_free[stream] + U(0.8, 1.6))
    if memcpy_bytes:
        x("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", GPU_PID, stream, gpu_ts, kdur,
          {"External id": e, "device": 0, "context": 1, "stream": stream, "correlation": c,
           "bytes": memcpy_bytes,
           "memory bandwidth (GB/s)": round(memcpy_bytes / (kdur * 1e3), 3)})
    else:
        x("kernel", kernel, GPU_PID, stream, gpu_ts, kdur,
          {"External id": e, "queued": 0, "device": 0, "context": 1, "stream": stream,
           "correlation": c, "registers per thread": regs, "shared memory": smem,
           "blocks per SM": round(grid[0] * grid[1] / 132, 6), "warps per SM": round(
               grid[0] * grid[1] * block[0] / 32 / 132, 6), "grid": grid, "block": block,
           "est. achieved occupancy %": min(100, int(grid[0] * block[0] / 2048))})
    flow(c, api_ts, gpu_ts, stream)
    stream_free[stream] = gpu_ts + kdur
    return t + op_dur


GEMM = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
ADD = "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)"
RELU = "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)"
REDUCE = "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4>)"
EMBED = "void at::native::(anonymous namespace)::indexSelectLargeIndex<float, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<float const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)"
ADAM = "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)0, false>, float*, double, double, double, double, double, double, float*, float*>(...)"


def py(name, t0, body):
    """A python_function slice around whatever body() does from t0; returns its end."""
    t1 = body(t0 + U(2, 5)) + U(2, 5)
    x("python_function", name, PID, TID, t0, t1 - t0,
      {"Python parent id": 1, "Python id": len(events), "Python thread": 0})
    return t1


def linear(layer):
    def body(t):
        t = launch_op(t, "aten::mm", GEMM, U(38, 52), [64, 8, 1], [256, 1, 1], 168, 98304)
        t = launch_op(t, "aten::add", ADD, U(3.5, 5.5), [1024, 1, 1], [128, 1, 1], 28, 0)
        return t
    return lambda t: py(f"torch/nn/modules/linear.py(125): forward [{layer}]", t, body)


def step(n, t):
    t_step = t

    def fwd(t):
        t = py("torch/nn/modules/sparse.py(190): forward", t, lambda t: launch_op(
            t, "aten::embedding", EMBED, U(14, 18), [512, 1, 1], [128, 4, 1], 40, 0,
            stream=COPY))
        t = linear("fc1")(t)
        t = launch_op(t, "aten::relu", RELU, U(2.5, 4), [1024, 1, 1], [128, 1, 1], 20, 0)
        t = linear("fc2")(t)
        t = launch_op(t, "aten::sum", REDUCE, U(6, 9), [132, 1, 1], [32, 16, 1], 32, 16)
        return t

    def bwd(t):
        for _ in range(2):
            t = launch_op(t, "aten::mm", GEMM, U(40, 60), [64, 8, 1], [256, 1, 1], 168, 98304)
            t = launch_op(t, "aten::mm", GEMM, U(40, 60), [64, 8, 1], [256, 1, 1], 168, 98304)
            t = launch_op(t, "aten::sum", REDUCE, U(6, 9), [132, 1, 1], [32, 16, 1], 32, 16)
        return t

    def opt(t):
        return launch_op(t, "aten::_fused_adam_", ADAM, U(20, 26), [320, 1, 1], [512, 1, 1], 96, 0)

    t = launch_op(t + 4, "aten::copy_", None, U(30, 36), None, None, None, None,
                  stream=COPY, memcpy_bytes=8 * 1024 * 1024)
    t = py("train.py(58): forward", t + 3, fwd)
    t = py("torch/_tensor.py(626): backward", t + 5, bwd)
    t = py("torch/optim/adam.py(213): step", t + 5, opt)
    # The step ends by waiting for the GPU.
    done = max(stream_free.values())
    sync_ts = t + 3
    sync_end = max(sync_ts + 4, done + 2)
    c = corr[0]
    corr[0] += 1
    x("cuda_runtime", "cudaStreamSynchronize", PID, TID, sync_ts, sync_end - sync_ts,
      {"cbid": 131, "correlation": c})
    t = sync_end + 3
    x("user_annotation", f"ProfilerStep#{n}", PID, TID, t_step, t - t_step,
      {"External id": ext[0]})
    ext[0] += 1
    return t + U(40, 80)  # data loading on the CPU: the GPU idles


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "sample_trace.json")
    t = 100.0
    for n in range(4):
        t = step(n + 10, t)
    meta = [
        ("process_name", PID, 0, {"name": "python3"}),
        ("process_labels", PID, 0, {"labels": "CPU"}),
        ("process_sort_index", PID, 0, {"sort_index": PID}),
        ("thread_name", PID, TID, {"name": "python3 (main)"}),
        ("thread_sort_index", PID, TID, {"sort_index": TID}),
        ("process_name", GPU_PID, 0, {"name": "python3"}),
        ("process_labels", GPU_PID, 0, {"labels": "GPU 0"}),
        ("process_sort_index", GPU_PID, 0, {"sort_index": 5000000}),
        ("thread_name", GPU_PID, COMPUTE, {"name": f"stream {COMPUTE} "}),
        ("thread_sort_index", GPU_PID, COMPUTE, {"sort_index": COMPUTE}),
        ("thread_name", GPU_PID, COPY, {"name": f"stream {COPY} "}),
        ("thread_sort_index", GPU_PID, COPY, {"sort_index": COPY}),
    ]
    trace_events = [{"name": n, "ph": "M", "ts": us(BASE_US), "pid": p, "tid": tid, "args": a}
                    for (n, p, tid, a) in meta]
    trace_events += events
    doc = {
        "schemaVersion": 1,
        "deviceProperties": [{
            "id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 84929347584,
            "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024,
            "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536,
            "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152,
            "sharedMemPerMultiprocessor": 233472, "numSms": 132,
            "sharedMemPerBlockOptin": 232448}],
        "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 1},
        "traceName": "sample_trace.json",
        "displayTimeUnit": "ms",
        "baseTimeNanoseconds": 1730000000000000000,
    }
    # One event per line, so the file reads (and diffs) like the traces Kineto writes.
    head = {k: v for k, v in doc.items() if k != "traceEvents"}
    with open(out, "w") as f:
        f.write("{\n")
        for k, v in head.items():
            f.write(f"  {json.dumps(k)}: {json.dumps(v)},\n")
        f.write('  "traceEvents": [\n')
        f.write(",\n".join("    " + json.dumps(e) for e in trace_events))
        f.write("\n  ]\n}\n")
    json.load(open(out))  # check it parses
    kernels = sum(1 for e in events if e.get("cat") == "kernel")
    print(f"{out}: {len(trace_events)} events, {kernels} kernels, {os.path.getsize(out)} bytes")


if __name__ == "__main__":
    main()
