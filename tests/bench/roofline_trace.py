#!/usr/bin/env python3
# tests/bench/roofline_trace.py N OUT.json [--counters] (issue 51 figures, docs/performance.md)
# A Kineto-shaped trace: N kernels on GPU 0 (stream 7), 5 us each with 5 us gaps, 50 names, and,
# with --counters, each kernel carrying the 21 counters of strata-cli record --kernel-metrics'
# default set as args (random values), as a recording with every kernel measured would.
import json, sys, random
n = int(sys.argv[1]); out = sys.argv[2]; counters = '--counters' in sys.argv
random.seed(1)
names = ["dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum",
         "sm__throughput.avg.pct_of_peak_sustained_elapsed",
         "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
         "sm__warps_active.avg.pct_of_peak_sustained_active",
         "dram__bytes.sum.peak_sustained", "dram__cycles_elapsed.avg.per_second",
         "sm__cycles_elapsed.avg.per_second"]
for p in "dfh":
    names += ["sm__sass_thread_inst_executed_op_%s%s_pred_on.sum" % (p, op) for op in ("fma", "add", "mul")]
    names.append("sm__sass_thread_inst_executed_op_%sfma_pred_on.sum.peak_sustained" % p)
with open(out, 'w') as f:
    f.write('{"traceEvents": [\n')
    for i in range(n):
        args = {"device": 0, "stream": 7, "correlation": i + 1}
        if counters:
            for m in names: args[m] = random.random() * 1e9
        f.write(('' if i == 0 else ',\n') + json.dumps(
            {"ph": "X", "cat": "kernel", "name": "k%d" % (i % 50), "pid": 0, "tid": 7,
             "ts": i * 10, "dur": 5, "args": args}))
    f.write('\n]}\n')
