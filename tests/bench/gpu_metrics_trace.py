#!/usr/bin/env python3
# tests/bench/gpu_metrics_trace.py N OUT.json [--metrics] (issue 51 figures, docs/performance.md)
# A Kineto-shaped trace: N kernels on GPU 0 (stream 7), 5 us each with 5 us gaps, and, with
# --metrics, 4 GPU metric rows ("GPU 0" counter events) sampled every 100 us over the whole span.
import json, sys, random
n = int(sys.argv[1]); out = sys.argv[2]; metrics = '--metrics' in sys.argv
random.seed(1)
with open(out, 'w') as f:
    f.write('{"traceEvents": [\n')
    first = True
    def w(e):
        global first
        f.write(('' if first else ',\n') + json.dumps(e)); first = False
    for i in range(n):
        w({"ph": "X", "cat": "kernel", "name": "k%d" % (i % 50), "pid": 0, "tid": 7, "ts": i * 10, "dur": 5,
           "args": {"device": 0, "stream": 7, "correlation": i + 1}})
    if metrics:
        for t in range(0, n * 10, 100):
            w({"ph": "C", "name": "GPU 0", "pid": 0, "ts": t,
               "args": {"SM Active": random.random() * 100, "SM Occupancy": random.random() * 100,
                        "DRAM Read": random.random() * 2000, "DRAM Write": random.random() * 2000}})
    f.write('\n]}\n')
