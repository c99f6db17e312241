#!/usr/bin/env python3
"""Where each kernel was launched from in the program's Python (issue 45), computed here from a
real trace's raw JSON (timestamps as decimals, exact to the ns), against
`strata-cli stats --by call-site --json` (its call_sites).

The rule, written independently of Strata: a kernel's launch is the cuda_runtime / cuda_driver
event with the kernel's correlation id. The launch's Python frames are the python_function events
of its thread (pid, tid) that enclose it by time (start <= its start, end >= its end), the
innermost being the one that starts last (the shorter on a tie). Its call site is the innermost
of those frames that is the user's own code, else the innermost of them at all; none when no
frame encloses it or the kernel has no launch in the trace. A frame is the user's own code when
its name reads `PATH(LINE): FUNCTION` and PATH is not a library's: a `<...>` name, a path under
site-packages/, dist-packages/, /lib/python or /usr/lib/, or one whose first folder (or file,
without .py) is a package of the standard library or the ML stack listed below. A site reads
`PATH:LINE FUNCTION`; a `<built-in ... at 0xADDR>` without the address; any other name as it is.
Per site: the kernels, their count and total GPU time, and the count of each kernel name.
Also, from `strata-cli gaps --json`: no part of a gap's breakdown names a library's Python frame
(nor a built-in) as the frame it was in: that is always a frame the user recognises.
Exit 0 when equal, 1 with what differs, 77 when the trace is absent."""
import gzip, json, os, re, subprocess, sys
from decimal import Decimal

LIBRARIES = set("""
_bootstrap _collections_abc _weakrefset abc argparse ast asyncio base64 bdb bisect builtins bz2
cProfile codecs collections concurrent contextlib contextvars copy copyreg csv ctypes dataclasses
datetime decimal difflib dis email encodings enum functools gc genericpath glob gzip hashlib heapq
hmac html http importlib inspect io ipaddress itertools json keyword linecache locale logging lzma
multiprocessing numbers opcode operator os pathlib pdb pickle pkgutil platform posixpath pprint
profile queue random re reprlib runpy sched select selectors shlex shutil signal site socket
socketserver sre_compile sre_parse ssl stat statistics string struct subprocess sysconfig tarfile
tempfile textwrap threading timeit token tokenize traceback tracemalloc types typing
typing_extensions unittest urllib uuid warnings weakref xml zipfile zipimport
accelerate apex cv2 datasets deepspeed diffusers einops fairscale fbgemm_gpu filelock flash_attn
fsspec functorch huggingface_hub jax jaxlib jinja2 lightning megatron networkx numpy packaging
pandas peft PIL pytorch_lightning regex requests safetensors scipy sentencepiece sklearn sympy
timm tokenizers torch torchaudio torchrec torchvision tqdm transformers triton vllm xformers
yaml""".split())
SOURCE = re.compile(r"^(.*)\((\d+)\): (.*)$", re.S)
BUILTIN_ADDR = re.compile(r"^(<built-in.*) at 0x[0-9a-fA-F]+>$", re.S)

def ns(x):
    return int(Decimal(str(x)) * 1000)

def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        d = json.load(f, parse_float=Decimal)
    return d["traceEvents"] if isinstance(d, dict) else d

def is_library(name):
    if name.startswith("<"):
        return True
    path = name.split("(", 1)[0]
    if any(p in path for p in ("site-packages/", "dist-packages/", "/lib/python", "/usr/lib/")):
        return True
    top = path.split("/", 1)[0]
    if len(top) > 3 and top.endswith(".py"):
        top = top[:-3]
    return top in LIBRARIES

def is_user(name):
    return SOURCE.match(name) is not None and not is_library(name)

def site_text(name):
    m = SOURCE.match(name)
    if m:
        return "%s:%s %s" % (m.group(1), m.group(2), m.group(3))
    m = BUILTIN_ADDR.match(name)
    return m.group(1) + ">" if m else name

def expected(events):
    xs = [e for e in events if e.get("ph") == "X" and "dur" in e and "ts" in e]
    frames, launches = {}, {}
    for e in xs:
        if e.get("cat") == "python_function":
            frames.setdefault((e.get("pid"), e.get("tid")), []).append(
                (ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]))
        elif e.get("cat") in ("cuda_runtime", "cuda_driver"):
            c = e.get("args", {}).get("correlation")
            if c is not None and c not in launches:
                launches[c] = e
    sites = {}
    for e in xs:
        if e.get("cat") != "kernel":
            continue
        site = None
        launch = launches.get(e.get("args", {}).get("correlation"))
        if launch is not None:
            s, t = ns(launch["ts"]), ns(launch["ts"]) + ns(launch["dur"])
            around = sorted([f for f in frames.get((launch.get("pid"), launch.get("tid")), [])
                             if f[0] <= s and f[1] >= t], key=lambda f: (f[0], -(f[1] - f[0])))
            user = [f for f in around if is_user(f[2])]
            if user:
                site = site_text(user[-1][2])
            elif around:
                site = site_text(around[-1][2])
        r = sites.setdefault(site, {"count": 0, "total_ns": 0, "kernels": {}})
        r["count"] += 1
        r["total_ns"] += ns(e["dur"])
        r["kernels"][e["name"]] = r["kernels"].get(e["name"], 0) + 1
    return sites

def measured(cli, path):
    out = subprocess.run([cli, "stats", "--by", "call-site", "--json", path], check=True,
                         capture_output=True, text=True).stdout
    return {r["site"]: {"count": r["count"], "total_us": r["total_us"],
                        "kernels": {k["name"]: k["count"] for k in r["kernels"]}}
            for r in json.loads(out)["call_sites"]}

def main():
    if len(sys.argv) != 3:
        print("usage: expected_call_sites.py STRATA_CLI TRACE", file=sys.stderr)
        return 2
    cli, path = sys.argv[1], sys.argv[2]
    if not os.path.exists(path):
        print("skipped: %s is absent" % path)
        return 77
    want, got = expected(load(path)), measured(cli, path)
    problems = []
    for site in sorted(set(want) | set(got), key=str):
        w, g = want.get(site), got.get(site)
        if w is None or g is None:
            problems.append("site %r: expected %s, strata-cli %s" % (site, w and w["count"],
                                                                      g and g["count"]))
            continue
        if w["count"] != g["count"] or abs(w["total_ns"] / 1000 - g["total_us"]) > 1e-6 * max(
                1, g["total_us"]) or w["kernels"] != g["kernels"]:
            problems.append("site %r: expected %d kernels, %.3f us; strata-cli %d, %.3f us%s" % (
                site, w["count"], w["total_ns"] / 1000, g["count"], g["total_us"],
                "" if w["kernels"] == g["kernels"] else " (kernel names differ)"))
    gaps = json.loads(subprocess.run([cli, "gaps", "--json", path], check=True,
                                     capture_output=True, text=True).stdout)
    for g in gaps["gaps"]:
        for part in g["breakdown"]["parts"]:
            frame = part.get("in")
            if frame and (frame.startswith("<") or (SOURCE.match(frame) and is_library(frame))):
                problems.append("gap at %s us: part %r is in a library frame %r" % (
                    g["start_us"], part["name"], frame))
    for p in problems:
        print(p)
    print("%d call sites, %d kernels: %s" % (len(want), sum(r["count"] for r in want.values()),
                                            "differ" if problems else "equal"))
    return 1 if problems else 0

if __name__ == "__main__":
    sys.exit(main())
