"""What strata-cli shows of a file, for the readers' independent checks (expected_nsys.py,
expected_amd.py, expected_xplane.py): `summary --json`'s GPU figures, `stats --json`'s copies,
and the slices of `export --format perfetto-json` counted by category."""
import json
import subprocess
import sys
from collections import Counter


def run(cli, *args):
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout


def views(cli, path):
    summary = json.loads(run(cli, "summary", "--json", path))
    stats = json.loads(run(cli, "stats", "--json", path))
    events = json.loads(run(cli, "export", "--format", "perfetto-json", path, "-"))["traceEvents"]
    categories = Counter(e.get("cat") for e in events if e.get("ph") == "X")
    marks = sum(1 for e in events if e.get("ph") in ("i", "I") and e.get("cat") != "__metadata")
    copies = {c["kind"]: [c["count"], c["bytes"]] for c in stats["copies"]}
    return summary, copies, categories, marks


def kernel_problems(gpu, want):
    """Per device [count, total ns] against summary's GPU figures."""
    problems = []
    for dev, (n, t) in want.items():
        got = round(gpu["kernel_time_us_by_device"].get(dev, 0) * 1000)
        if got != t:
            problems.append(f"device {dev}: kernel time {got} ns, expected {t}")
    if gpu["kernels"] != sum(n for n, _ in want.values()):
        problems.append(f"kernels {gpu['kernels']}, expected {want}")
    return problems


def script_main(expected, check):
    """`SCRIPT FILE` prints expected(FILE) as JSON; `SCRIPT --check STRATA_CLI FILE...` exits 0
    when check(STRATA_CLI, FILE) holds for every FILE."""
    if sys.argv[1] == "--check":
        sys.exit(0 if all([check(sys.argv[2], p) for p in sys.argv[3:]]) else 1)
    print(json.dumps(expected(sys.argv[1]), indent=1))
