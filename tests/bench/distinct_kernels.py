#!/usr/bin/env python3
"""A Kineto-shaped trace whose N kernels all have different names, for `strata-cli diff` on many
distinct names (docs/performance.md, issue 42): kernel i is named like a templated CUDA kernel
with i in it, launched by its own cudaLaunchKernel (correlation i) on one CPU thread, and runs
on device 0, stream 7, one after the other. --first K numbers the names from K, so that a
baseline (--first 0) and a candidate (--first N/2) share half their names: N/2 the same, N/2
removed, N/2 added. --slower F makes every kernel F times as long (a candidate that changed).

  python3 tests/bench/distinct_kernels.py /tmp/base.json 1000000
  python3 tests/bench/distinct_kernels.py /tmp/cand.json 1000000 --first 500000 --slower 1.1
  /usr/bin/time -v build/app/strata-cli diff /tmp/base.json /tmp/cand.json
"""
import argparse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("n", type=int)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--slower", type=float, default=1.0)
    a = ap.parse_args()
    with open(a.out, "w") as f:
        f.write('{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"H100","numSms":132}],\n')
        f.write('"traceEvents":[\n')
        f.write('{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}},\n')
        f.write('{"ph":"M","name":"thread_name","pid":1,"tid":10,"args":{"name":"main"}}')
        for i in range(a.n):
            k = a.first + i
            name = ("void at::native::vectorized_elementwise_kernel<4, "
                    "at::native::FillFunctor<float>, at::detail::Array<char*, %d> >" % k)
            ts = 10 * i  # us: a 2 us launch, the kernel 5 us later
            dur = 3 + (k % 5)
            f.write(',\n{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,'
                    '"tid":10,"ts":%d,"dur":2,"args":{"correlation":%d}}' % (ts, i + 1))
            f.write(',\n{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":%d,'
                    '"dur":%.3f,"args":{"device":0,"stream":7,"correlation":%d,'
                    '"grid":[%d,1,1],"block":[128,1,1]}}'
                    % (name, ts + 5, dur * a.slower, i + 1, 1 + k % 64))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
