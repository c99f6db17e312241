#!/bin/sh
# strata-cli ranks --mpi over a job of N ranks made from the eight PARAM DLRM ranks, each scaled to
# MB megabytes of Kineto JSON (scale_trace.py, then many_ranks.py: rank k a copy of worker k % 8
# renumbered), under `mpirun -n 1` and `-n 2` in alternating runs, against the single-process
# `strata-cli ranks` on one core (taskset) and on all; every report compared byte for byte with the
# single-process one. Prints each run's wall time and the CPU steal over it.
#   tests/bench/mpi_ranks.sh [BUILD_DIR] [WORK_DIR] [N] [MB]
# Defaults: build, /tmp/strata-mpi, 64, 10. REPEAT alternating pairs (default 3).
set -eu
BUILD=${1:-build}
WORK=${2:-/tmp/strata-mpi}
N=${3:-64}
MB=${4:-10}
REPEAT=${REPEAT:-3}
HERE=$(dirname "$0")
SRC=$HERE/../../../shared/traces/multirank/param-dlrm
CLI=$BUILD/app/strata-cli
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$WORK/src" "$WORK/set"
for f in "$SRC"/worker*.json; do
  out="$WORK/src/$(basename "$f" .pt.trace.json).json"
  [ -s "$out" ] || python3 "$HERE/scale_trace.py" "$f" "$out" --mb "$MB"
done
[ -s "$WORK/set/rank$(printf %03d $((N - 1))).json" ] || python3 "$HERE/many_ranks.py" "$WORK/src" "$WORK/set" "$N"
ls "$WORK"/set/rank*.json | head -n "$N" > "$WORK/list.txt"
echo "# machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $(wc -l < "$WORK/list.txt") files, $(cat $(cat "$WORK/list.txt") | wc -c) bytes"

steal() { awk '/^cpu /{ print $9 }' /proc/stat; }
# run NAME COMMAND...: wall seconds and steal (percent of the run's CPU time), the report kept.
run() {
  name=$1; shift
  s0=$(steal); t0=$(date +%s.%N)
  "$@" > "$WORK/$name.json" 2> "$WORK/$name.err"
  t1=$(date +%s.%N); s1=$(steal)
  awk -v n="$name" -v a="$t0" -v b="$t1" -v s="$((s1 - s0))" -v c="$(nproc)" \
    'BEGIN { w = b - a; printf "{\"run\": \"%s\", \"wall_s\": %.2f, \"steal_pct\": %.1f}\n", n, w, 100 * s / 100 / (w * c) }'
}
run single_all_cores "$CLI" ranks --json --file-list "$WORK/list.txt"
run single_one_core taskset -c 0 "$CLI" ranks --json --threads 1 --file-list "$WORK/list.txt"
i=0
while [ "$i" -lt "$REPEAT" ]; do
  run mpi_n1 mpirun --oversubscribe -n 1 "$CLI" ranks --mpi --json --file-list "$WORK/list.txt"
  run mpi_n2 mpirun --oversubscribe -n 2 "$CLI" ranks --mpi --json --file-list "$WORK/list.txt"
  i=$((i + 1))
done
for r in single_one_core mpi_n1 mpi_n2; do
  cmp -s "$WORK/single_all_cores.json" "$WORK/$r.json" && echo "# $r report: identical" || echo "# $r report: DIFFERS"
done
grep -h "digested by" "$WORK"/mpi_n*.err
