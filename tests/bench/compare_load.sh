#!/bin/sh
# Loads one >= 400 MB Kineto-style trace with strata-bench and with Python's json.load, side by
# side, plus the same trace gzip-compressed. MB = 10^6 bytes.
#   tests/bench/compare_load.sh [BUILD_DIR] [EVENTS] [WORK_DIR]
# Defaults: build, 1900000 events (about 461 MB), /tmp/strata-compare.
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
echo "# strata-bench load (plain JSON, $BYTES bytes)"
"$BUILD/tests/bench/strata-bench" load "$F"
echo "# strata-bench load (gzip, $(stat -c %s "$F.gz") bytes on disk)"
"$BUILD/tests/bench/strata-bench" load "$F.gz"
echo "# python3 json.load (same plain file)"
/usr/bin/time -f "%e %M" -o "$WORK/python.time" python3 -c "import json; json.load(open('$F'))"
read -r SECS KB < "$WORK/python.time"
awk -v b="$BYTES" -v s="$SECS" -v kb="$KB" 'BEGIN {
  printf "{\"tool\": \"python3 json.load\", \"bytes\": %d, \"seconds\": %.3f, \"mb_per_s\": %.1f, \"peak_rss_mb\": %.1f, \"rss_ratio\": %.3f}\n",
         b, s, b / s / 1e6, kb * 1024 / 1e6, kb * 1024 / b }'
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
