#!/bin/sh
# Loads one >= 400 MB Kineto-style trace with strata-bench and with Python's json.load, side by
# side, plus the same trace gzip-compressed. MB = 10^6 bytes.
#   tests/bench/compare_load.sh [BUILD_DIR] [EVENTS] [WORK_DIR]
# Defaults: build, 1900000 events (about 461 MB), /tmp/strata-compare. Each Strata load runs
# REPEAT times (default 5; the 2-core machines are shared, so single runs scatter by +-20%);
# the run of median speed is printed last, marked "median of N".
set -eu
BUILD=${1:-build}
EVENTS=${2:-1900000}
WORK=${3:-/tmp/strata-compare}
mkdir -p "$WORK"
F="$WORK/synth.json"
echo "# machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$BUILD/app/strata-cli" synth --events "$EVENTS" --seed 1 --devices 2 --streams 4 -o "$F"
"$BUILD/app/strata-cli" synth --events "$EVENTS" --seed 1 --devices 2 --streams 4 -o "$F.gz"
BYTES=$(stat -c %s "$F")
REPEAT=${REPEAT:-5}
# Runs strata-bench load REPEAT times, printing each JSON line, then the median-speed run.
bench() {
  i=0
  : > "$WORK/runs.txt"
  while [ "$i" -lt "$REPEAT" ]; do
    "$BUILD/tests/bench/strata-bench" load "$1" | tee -a "$WORK/runs.txt"
    i=$((i + 1))
  done
  awk -v n="$REPEAT" '{ match($0, /"mb_per_s": [0-9.]+/); v[NR] = substr($0, RSTART + 12, RLENGTH - 12); l[NR] = $0 }
    END { for (i = 1; i <= NR; i++) { r = 0; for (j = 1; j <= NR; j++) if (v[j] < v[i] || (v[j] == v[i] && j < i)) r++; if (r == int((NR - 1) / 2)) print "# median of " n ": " l[i] } }' "$WORK/runs.txt"
}
echo "# strata-bench load (plain JSON, $BYTES bytes)"
bench "$F"
echo "# strata-bench load (gzip, $(stat -c %s "$F.gz") bytes on disk)"
bench "$F.gz"
echo "# python3 json.load (same plain file)"
/usr/bin/time -f "%e %M" -o "$WORK/python.time" python3 -c "import json; json.load(open('$F'))"
read -r SECS KB < "$WORK/python.time"
awk -v b="$BYTES" -v s="$SECS" -v kb="$KB" 'BEGIN {
  printf "{\"tool\": \"python3 json.load\", \"bytes\": %d, \"seconds\": %.3f, \"mb_per_s\": %.1f, \"peak_rss_mb\": %.1f, \"rss_ratio\": %.3f}\n",
         b, s, b / s / 1e6, kb * 1024 / 1e6, kb * 1024 / b }'
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
