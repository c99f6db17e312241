#!/bin/sh
# Loads one trace with one or more strata-bench binaries, alternating, ROUNDS times (default 12),
# and prints each binary's min, median and max seconds and its median GB/s (10^9 bytes).
#   tests/bench/ab_load.sh FILE BENCH [BENCH...]
# e.g. tests/bench/ab_load.sh /tmp/syn2m_b.strata /tmp/old/strata-bench build/tests/bench/strata-bench
# Each run's JSON line is kept in a file and read after the run: on a 2-core machine anything
# started beside a load (a parser reading it through a pipe) slows the load.
set -eu
FILE=$1
shift
ROUNDS=${ROUNDS:-12}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
i=0
while [ "$i" -lt "$ROUNDS" ]; do
  n=0
  for b in "$@"; do
    "$b" load "$FILE" > "$WORK/last"
    tail -n 1 "$WORK/last" >> "$WORK/$n"
    n=$((n + 1))
  done
  i=$((i + 1))
done
n=0
for b in "$@"; do
  sed 's/.*"bytes": \([0-9]*\).*"seconds": \([0-9.]*\).*/\2 \1/' "$WORK/$n" | sort -n |
    awk -v name="$b" '{ s[NR] = $1; bytes = $2 }
      END { m = NR % 2 ? s[(NR + 1) / 2] : (s[NR / 2] + s[NR / 2 + 1]) / 2
            printf "%s: %d runs, min %.3f s, median %.3f s, max %.3f s, median %.2f GB/s\n",
                   name, NR, s[1], m, s[NR], bytes / m / 1e9 }'
  n=$((n + 1))
done
