#!/bin/sh
# The eight PARAM DLRM ranks scaled to about 50 MB of Kineto JSON each (tests/bench/scale_trace.py)
# and loaded as a set: one after another (--threads 1) and on all cores, every trace kept (what a
# window of several ranks holds), against the sum of the eight single loads' peak RSS; then
# strata-cli ranks over the same files (each trace let go once digested). MB = 10^6 bytes.
#   tests/bench/ranks_load.sh [BUILD_DIR] [WORK_DIR] [MB_PER_RANK]
# Defaults: build, /tmp/strata-ranks, 50. Each set load runs REPEAT times (default 3).
set -eu
BUILD=${1:-build}
WORK=${2:-/tmp/strata-ranks}
MB=${3:-50}
SRC=$(dirname "$0")/../../../shared/traces/multirank/param-dlrm
BENCH="$BUILD/tests/bench/strata-bench"
REPEAT=${REPEAT:-3}
mkdir -p "$WORK"
echo "# machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for f in "$SRC"/worker*.json; do
  out="$WORK/$(basename "$f" .pt.trace.json).${MB}mb.json"
  [ -s "$out" ] || python3 "$(dirname "$0")/scale_trace.py" "$f" "$out" --mb "$MB"
done
set -- "$WORK"/worker*."${MB}"mb.json
echo "# $# files, $(cat "$@" | wc -c) bytes"
echo "# single loads (strata-bench load each file; peak RSS summed below)"
sum=0
for f in "$@"; do
  line=$("$BENCH" load "$f")
  echo "$line"
  sum=$(echo "$line" | awk -v s="$sum" '{ match($0, /"peak_rss_mb": [0-9.]+/); print s + substr($0, RSTART + 15, RLENGTH - 15) }')
done
echo "# sum of the single loads' peak RSS: $sum MB"
i=0
while [ "$i" -lt "$REPEAT" ]; do
  echo "# one after another, all kept"
  "$BENCH" load-set --threads 1 "$@"
  echo "# on all cores, all kept"
  "$BENCH" load-set "$@"
  i=$((i + 1))
done
echo "# strata-cli ranks (digest on all cores, each trace let go)"
/usr/bin/time -f '{"strata_cli_ranks_s": %e, "peak_rss_kb": %M}' "$BUILD/app/strata-cli" ranks "$@" > "$WORK/ranks.txt"
head -3 "$WORK/ranks.txt"
