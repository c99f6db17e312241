#!/usr/bin/env python3
"""An OTF2 archive as Strata reads it, against `otf2-print` (the OTF2 project's own tool, Debian's
otf2-tools): every ENTER/LEAVE pair per location as a slice (region name, start and duration in ns
by the archive's ticks per second, from `otf2-print -G`'s CLOCK_PROPERTIES), every MPI_SEND and
MPI_RECV as an instant, held against the slices and instants of `strata-cli export --format
perfetto-json`.

  check_otf2.py STRATA_CLI ANCHOR.otf2...      (exit 77 without otf2-print)

And an archive missing its global definitions (a copy without the .def beside the anchor) is
refused with a message that names the anchor and the missing file.
"""
import json
import os
import re
import shutil
import tempfile
import subprocess
import sys
from collections import Counter, defaultdict


def ns(ticks, tps):
    return ticks * 1000000000 // tps


def json_ns(us):
    whole, _, frac = str(us).partition(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


def expected(anchor):
    defs = subprocess.run(["otf2-print", "-G", anchor], check=True, capture_output=True,
                          text=True).stdout
    tps = int(re.search(r"Ticks per Seconds: (\d+)", defs).group(1))
    out = subprocess.run(["otf2-print", anchor], check=True, capture_output=True, text=True).stdout
    stacks, slices, messages = defaultdict(list), [], Counter()
    for line in out.splitlines():
        m = re.match(r'(ENTER|LEAVE|MPI_SEND|MPI_RECV)\s+(\d+)\s+(\d+)\s+(.*)', line)
        if not m:
            continue
        kind, loc, t = m.group(1), int(m.group(2)), int(m.group(3))
        if kind == "ENTER":
            region = re.match(r'Region: "(.*)" <\d+>', m.group(4)).group(1)
            stacks[loc].append((region, t))
        elif kind == "LEAVE":
            region, start = stacks[loc].pop()
            slices.append((region, ns(start, tps), ns(t, tps) - ns(start, tps)))
        else:
            messages[kind] += 1
    return Counter(slices), messages


def check(cli, anchor):
    want, messages = expected(anchor)
    events = json.loads(subprocess.run([cli, "export", "--format", "perfetto-json", anchor, "-"],
                                       check=True, capture_output=True, text=True).stdout,
                        parse_float=str)["traceEvents"]
    got = Counter((e["name"], json_ns(e["ts"]), json_ns(e["dur"]))
                  for e in events if e.get("ph") == "X")
    instants = Counter(e["name"] for e in events if e.get("ph") in ("i", "I"))
    problems = []
    if got != want:
        problems.append(f"slices: {sum((got - want).values())} only in Strata "
                        f"{list((got - want))[:2]}, {sum((want - got).values())} only in otf2-print "
                        f"{list((want - got))[:2]}")
    if (instants["MPI send"], instants["MPI receive"]) != (messages["MPI_SEND"], messages["MPI_RECV"]):
        problems.append(f"MPI messages {dict(instants)} against {dict(messages)}")
    with tempfile.TemporaryDirectory() as d:
        copy = os.path.join(d, "archive")
        shutil.copytree(os.path.dirname(os.path.abspath(anchor)), copy)
        base = os.path.splitext(os.path.basename(anchor))[0]
        os.chmod(copy, 0o755)
        os.remove(os.path.join(copy, base + ".def"))
        r = subprocess.run([cli, "summary", os.path.join(copy, os.path.basename(anchor))],
                           capture_output=True, text=True)
        if r.returncode == 0 or base + ".otf2" not in r.stderr or ".def" not in r.stderr:
            problems.append(f"without its definitions: exit {r.returncode}, said {r.stderr!r}")
    print(f"{anchor}: {sum(want.values())} slices, {dict(messages)}: "
          + ("as otf2-print" if not problems else "; ".join(problems)))
    return not problems


def main():
    if not shutil.which("otf2-print"):
        print("otf2-print is not installed (Debian's otf2-tools): skipped")
        sys.exit(77)
    sys.exit(0 if all([check(sys.argv[1], a) for a in sys.argv[2:]]) else 1)


if __name__ == "__main__":
    main()
