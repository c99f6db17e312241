#!/bin/sh
# Perfetto JSON export speed beside Python's json.dumps of the same events, in one run:
#   sh tests/bench/export_vs_json_dumps.sh TRACE [BUILD_DIR]
# strata-bench export writes TRACE as Perfetto JSON to /tmp (3 rounds, median); python3 then
# reads that file back (not timed) and times json.dumps of the same document (3 rounds, median).
set -e
trace=$1
build=${2:-build}
out=/tmp/strata-export-bench.json
"$build/tests/bench/strata-bench" export "$trace" "$out" --rounds 3
python3 - "$out" <<'PY'
import json, statistics, sys, time
doc = json.load(open(sys.argv[1]))
times, size = [], 0
for _ in range(3):
    t0 = time.perf_counter()
    text = json.dumps(doc)
    times.append(time.perf_counter() - t0)
    size = len(text.encode())
m = statistics.median(times)
print(json.dumps({"python_json_dumps": True, "events": len(doc["traceEvents"]),
                  "json_mb": round(size / 1e6, 1), "median_s": round(m, 3),
                  "mb_per_s": round(size / 1e6 / m)}))
PY
rm -f "$out"
