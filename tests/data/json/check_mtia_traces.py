#!/usr/bin/env python3
"""HTA's two MTIA traces load with their device work on device lanes, linked to its launches.

    check_mtia_traces.py STRATA_CLI HTA_MIRROR

HTA_MIRROR is a git directory of facebookresearch/HolisticTraceAnalysis; the traces are read
from its HEAD (git show) and never copied into this repository. Exit 77 (skipped) where the
mirror or git is absent (CI has neither).

Independent of Strata (plain json): the device ops are the 'X' events of category
mtia_ccp_events (HTA's GPU kernels, hta/common/types.py), each on its device (the pid) and its
stream (args "stream", else the tid); an op is linked when another event that is not a device
op carries the same "correlation" (mtia_runtime's "runFunction - job_prep_and_submit_for_execution"
and the other runtime calls). Compared with `strata-cli summary --json` (gaps.by_device ops,
gaps.by_stream kernels, launch_latency) and `strata-cli info --json` (no_gpu_reason is null).
"""
import collections
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

TRACES = [
    "tests/data/mtia_trace_single_rank/mtia_rank_0.json.gz",
    "tests/data/mtia_inference_trace/mtia_inference_rank_0.json.gz",
]


def expected(raw):
    events = json.loads(gzip.decompress(raw))["traceEvents"]
    ops = [e for e in events
           if e.get("ph") == "X" and e.get("cat") == "mtia_ccp_events"
           and not (e["ts"] == 0 and e["dur"] == 0)]
    op_ids = set(id(e) for e in ops)
    cpu_correlations = set(e["args"]["correlation"] for e in events
                           if e.get("ph") == "X" and id(e) not in op_ids
                           and "correlation" in e.get("args", {}))
    by_device = collections.Counter(e["pid"] for e in ops)
    by_stream = collections.Counter((e["pid"], int(e["args"].get("stream", e["tid"]))) for e in ops)
    without = sum(1 for e in ops if "correlation" not in e["args"])
    matched = sum(1 for e in ops if e["args"].get("correlation") in cpu_correlations)
    return {
        "by_device": dict(by_device),
        "by_stream": dict(by_stream),
        "kernels": len(ops),
        "matched": matched,
        "unmatched": len(ops) - matched,
        "unmatched_without_correlation": without,
    }


def measured(cli, path):
    summary = json.loads(subprocess.run([cli, "summary", "--json", path], check=True,
                                        capture_output=True, text=True).stdout)
    info = json.loads(subprocess.run([cli, "info", "--json", path], check=True,
                                     capture_output=True, text=True).stdout)
    launch = summary["launch_latency"]
    return {
        "by_device": {d["device"]: d["ops"] for d in summary["gaps"]["by_device"]},
        "by_stream": {(s["device"], s["stream"]): s["kernels"]
                      for s in summary["gaps"]["by_stream"]},
        "kernels": launch["kernels"],
        "matched": launch["matched"],
        "unmatched": launch["unmatched"],
        "unmatched_without_correlation": launch["unmatched_without_correlation"],
    }, info["no_gpu_reason"]


def main(cli, mirror):
    if not os.path.isdir(mirror) or shutil.which("git") is None:
        print("skipped: no HTA mirror at " + mirror)
        return 77
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for rel in TRACES:
            got = subprocess.run(["git", "-C", mirror, "show", "HEAD:" + rel], capture_output=True)
            if got.returncode != 0:
                print("skipped: " + rel + " is not in " + mirror)
                return 77
            path = os.path.join(tmp, os.path.basename(rel))
            with open(path, "wb") as f:
                f.write(got.stdout)
            want = expected(got.stdout)
            have, no_gpu = measured(cli, path)
            print(rel, "expected", want["kernels"], "ops,", want["matched"], "linked")
            for key in want:
                if want[key] != have[key]:
                    failed = True
                    print("  MISMATCH", key, "expected", want[key], "got", have[key])
            if no_gpu is not None:
                failed = True
                print("  MISMATCH no_gpu_reason:", no_gpu)
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
