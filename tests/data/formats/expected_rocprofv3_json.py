#!/usr/bin/env python3
"""What Strata should show of a rocprofv3 JSON (results.json), worked out with Python's json module
alone (never from Strata's output), printed as one JSON object for tst_rocprofv3_json:

  devices    {gpu index: name}: the GPU agents by gpu_index (else logical_node_type_id), named by
             product_name (else model_name, else name)
  kernels    {device: [count, total ns]}    lanes  {device: sorted stream (else queue) handles}
  copies     {"count", "bytes", "kinds": {HtoD/DtoH/DtoD/HtoH: count}}
  calls      {Strata category: count}: HIP runtime as cuda_runtime, HIP compiler as hip_compiler,
             roctx ranges as user_annotation, the rest by their kind's name
  marks      roctx records of no length (instants)
  markers    [[message, start, length]] of the roctx ranges
  links      [[kernel name, kernel start, launching call's name, its start]]
  skipped    {array: records with a field missing or of the wrong type, or an end before start}
  not_shown  {array: records} of the arrays Strata does not show
  process    [pid, program name]

  expected_rocprofv3_json.py FILE.json
"""
import json
import os
import sys
from collections import Counter, defaultdict

SHOWN = {"kernel_dispatch": "kernel", "memory_copy": "copy", "hip_api": "api", "hsa_api": "api",
         "marker_api": "api", "rccl_api": "api", "rocdecode_api": "api", "rocjpeg_api": "api"}
DIRECTIONS = {"MEMORY_COPY_HOST_TO_DEVICE": "HtoD", "MEMORY_COPY_DEVICE_TO_HOST": "DtoH",
              "MEMORY_COPY_DEVICE_TO_DEVICE": "DtoD", "MEMORY_COPY_HOST_TO_HOST": "HtoH"}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def handle(rec, *path):
    for p in path:
        rec = rec.get(p) if isinstance(rec, dict) else None
    return rec.get("handle") if isinstance(rec, dict) else None


def valid(array, r):
    if not isinstance(r, dict) or not is_int(r.get("start_timestamp")) or \
            not is_int(r.get("end_timestamp")) or r["end_timestamp"] < r["start_timestamp"]:
        return False
    if SHOWN[array] == "kernel":
        return is_int(handle(r, "dispatch_info", "agent_id"))
    if SHOWN[array] == "copy":
        return is_int(handle(r, "src_agent_id")) and is_int(handle(r, "dst_agent_id"))
    return is_int(r.get("thread_id"))


def expected(doc):
    tool = doc["rocprofiler-sdk-tool"]
    processes = tool if isinstance(tool, list) else [tool]
    out = {"devices": {}, "kernels": defaultdict(lambda: [0, 0]), "lanes": defaultdict(set),
           "copies": {"count": 0, "bytes": 0, "kinds": Counter()}, "calls": Counter(),
           "marks": 0, "markers": [], "links": [], "skipped": Counter(),
           "not_shown": Counter(), "process": None}
    for p in processes:
        agents = {a["id"]["handle"]: a for a in p.get("agents", [])}
        index = {h: a.get("gpu_index", a["logical_node_type_id"]) for h, a in agents.items()}
        for h, a in agents.items():
            if a["type"] == 2:
                out["devices"][index[h]] = a["product_name"] or a["model_name"] or a["name"]
        kinds = p.get("strings", {}).get("buffer_records", [])
        messages = {m["key"]: m["value"] for m in p.get("strings", {}).get("marker_api", [])}
        symbols = {s["kernel_id"]: s["formatted_kernel_name"] for s in p.get("kernel_symbols", [])}
        pid = p["metadata"]["pid"]
        out["process"] = [pid, os.path.basename(p["metadata"]["command"][0])]

        def op_name(r):
            return kinds[r["kind"]]["operations"][r["operation"]]

        launches = {}
        for array, records in p.get("buffer_records", {}).items():
            if array not in SHOWN:
                if records:
                    out["not_shown"][array] += len(records)
                continue
            for r in records:
                if not valid(array, r):
                    out["skipped"][array] += 1
                    continue
                start, length = r["start_timestamp"], r["end_timestamp"] - r["start_timestamp"]
                if SHOWN[array] == "kernel":
                    info = r["dispatch_info"]
                    dev = index[info["agent_id"]["handle"]]
                    out["kernels"][dev][0] += 1
                    out["kernels"][dev][1] += length
                    stream = handle(r, "stream_id") or info["queue_id"]["handle"]
                    out["lanes"][dev].add(stream)
                elif SHOWN[array] == "copy":
                    out["copies"]["count"] += 1
                    out["copies"]["bytes"] += r["bytes"]
                    out["copies"]["kinds"][DIRECTIONS[op_name(r)]] += 1
                else:
                    domain = kinds[r["kind"]]["kind"]
                    if domain.startswith("MARKER"):
                        if length == 0:
                            out["marks"] += 1
                        else:
                            out["calls"]["user_annotation"] += 1
                            out["markers"].append([messages.get(r["correlation_id"]["internal"],
                                                                op_name(r)), start, length])
                    elif domain.startswith("HIP_RUNTIME"):
                        out["calls"]["cuda_runtime"] += 1
                        launches[r["correlation_id"]["internal"]] = (op_name(r), start)
                    elif domain.startswith("HIP_COMPILER"):
                        out["calls"]["hip_compiler"] += 1
                    else:
                        out["calls"][domain] += 1
        for r in p.get("buffer_records", {}).get("kernel_dispatch", []):
            corr = r.get("correlation_id", {}).get("internal")
            if valid("kernel_dispatch", r) and corr in launches:
                name = symbols[r["dispatch_info"]["kernel_id"]]
                out["links"].append([name, r["start_timestamp"], *launches[corr]])
    out["lanes"] = {d: sorted(s) for d, s in out["lanes"].items()}
    out["links"].sort()
    out["markers"].sort()
    return out


def main():
    with open(sys.argv[1]) as f:
        print(json.dumps(expected(json.load(f)), sort_keys=True))


if __name__ == "__main__":
    main()
