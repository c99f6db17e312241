#!/usr/bin/env python3
"""Writes the reference critical paths that check_critical_path.py compares Strata with, computed
by HTA itself (HolisticTraceAnalysis 0.6, hta/analyzers/critical_path_analysis.py, with
CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=1 as HTA's own tests run it) on the real traces of
../shared/traces. Not run by the tests (HTA needs pandas and networkx); run it by hand to renew
the reference:

  PYTHONPATH=/path/to/HolisticTraceAnalysis python3 tests/data/analysis/hta_critical_path_reference.py \
      ../shared/traces tests/data/analysis/hta_critical_path_reference.json.gz

Each case: the trace, HTA's annotation and instance (and Strata's options that choose the same
window under HTA's loading rules), the graph's size, the path's length and summary by bound, and
the path edge by edge: [from event, from is start, to event, to is start, edge type, weight µs].
"""
import gzip
import json
import logging
import os
import shutil
import sys
import tempfile
from collections import Counter

# (trace file, HTA annotation, HTA instance_id); "" with None: the whole trace.
CASES = [
    ("hta__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", "ProfilerStep", 1),
    ("hta__mi250_minitoy_train_ROCm6_2_kineto.json.gz", "ProfilerStep", 1),
    ("param-dlrm__worker0_step_12.1694128201545.pt.trace.json", "", None),
    ("tracelens-h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", "", None),
]
TYPES = {
    "critical_path_operator": "operator",
    "critical_path_dependency": "dependency",
    "critical_path_kernel_launch_delay": "kernel_launch_delay",
    "critical_path_kernel_kernel_delay": "kernel_kernel_delay",
    "critical_path_sync_dependency": "sync_dependency",
}


def reference(path, annotation, instance):
    from hta.trace_analysis import TraceAnalysis

    d = tempfile.mkdtemp()
    try:
        os.symlink(os.path.abspath(path), os.path.join(d, os.path.basename(path)))
        t = TraceAnalysis(trace_dir=d)
        cp, ok = t.critical_path_analysis(rank=0, annotation=annotation, instance_id=instance)
    finally:
        shutil.rmtree(d)
    df = t.t.get_trace(0)
    sym = t.t.symbol_table.get_sym_table()
    name = lambda n: sym[int(df.loc[cp.node_list[n].ev_idx, "name"])]
    nodes = cp.critical_path_nodes
    edges = []
    for u, v in zip(nodes, nodes[1:]):
        e = cp.edges[u, v]["object"]
        edges.append([name(u), bool(cp.node_list[u].is_start), name(v),
                      bool(cp.node_list[v].is_start), TYPES[e.type.value], int(e.weight)])
    by_bound = cp.get_critical_path_breakdown().groupby("bound_by").duration.sum()
    return {
        "ok": bool(ok),
        "graph_nodes": cp.number_of_nodes(),
        "graph_edges": cp.number_of_edges(),
        "edges_by_type": dict(Counter(TYPES[cp.edges[u, v]["object"].type.value]
                                      for u, v in cp.edges)),
        "length_us": int(sum(cp.edges[u, v]["weight"] for u, v in zip(nodes, nodes[1:]))),
        "by_bound_us": {k: int(v) for k, v in by_bound.items()},
        "path": edges,
    }


def main():
    os.environ["CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE"] = "1"
    logging.disable(logging.WARNING)
    traces, out = sys.argv[1], sys.argv[2]
    cases = []
    for file, annotation, instance in CASES:
        ref = reference(os.path.join(traces, file), annotation, instance)
        ref.update({"trace": file, "annotation": annotation, "instance": instance})
        cases.append(ref)
    with gzip.open(out, "wt") as f:
        json.dump({"hta": "HolisticTraceAnalysis 0.6 (f4d0062)", "cases": cases}, f,
                  separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
