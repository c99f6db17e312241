#!/bin/sh
# Issue 33's figures on one JSON trace, ROUNDS times (default 3), with an empty trace cache each
# round: the first open and the second (from the cache) of the window to a drawn timeline
# (strata --screenshot prints "drawn N ms after the open began"; wall = the whole process, Qt's
# start and the PNG included), the first preview while loading (strata-bench load --preview),
# and strata-cli convert with the converted file's load (strata-bench load).
#   sh tests/bench/open_twice.sh FILE [BUILD]
set -eu
FILE=$1
BUILD=${2:-build}
ROUNDS=${ROUNDS:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache" QT_QPA_PLATFORM=offscreen
wall() { # prints the seconds the command took, its stdout into $WORK/out
  s=$(date +%s.%N); "$@" > "$WORK/out" 2>"$WORK/err"; e=$(date +%s.%N)
  echo "$s $e" | awk '{ printf "%.2f", $2 - $1 }'
}
i=0
while [ "$i" -lt "$ROUNDS" ]; do
  rm -rf "$XDG_CACHE_HOME"
  w1=$(wall "$BUILD/app/strata" --screenshot "$WORK/1.png" --size 1600x900 "$FILE")
  d1=$(sed -n 's/^drawn \([0-9]*\) ms.*/\1/p' "$WORK/out")
  w2=$(wall "$BUILD/app/strata" --screenshot "$WORK/2.png" --size 1600x900 "$FILE")
  d2=$(sed -n 's/^drawn \([0-9]*\) ms.*/\1/p' "$WORK/out")
  grep -q "from the trace cache" "$WORK/out" || echo "warning: the second open did not use the cache"
  cmp -s "$WORK/1.png" "$WORK/2.png" && same=same || same=DIFFERENT
  "$BUILD/tests/bench/strata-bench" load "$FILE" --preview > "$WORK/p"
  p=$(sed 's/.*"seconds": \([0-9.]*\).*"steal_pct": \([0-9.]*\), "first_preview_s": \([-0-9.]*\).*/load \1 s, first preview \3 s, steal \2 %/' "$WORK/p")
  "$BUILD/app/strata-cli" convert "$FILE" "$WORK/c.strata" 2> "$WORK/conv"
  "$BUILD/tests/bench/strata-bench" load "$WORK/c.strata" > "$WORK/l"
  c=$(sed 's/.*"bytes": \([0-9]*\).*"seconds": \([0-9.]*\).*"steal_pct": \([0-9.]*\).*/\2 \1 \3/' "$WORK/l" |
      awk '{ printf "model file %.0f MB loads in %.3f s = %.2f GB/s (steal %s %%)", $2 / 1e6, $1, $2 / $1 / 1e9, $3 }')
  echo "round $((i + 1)): first open drawn ${d1} ms (wall ${w1} s), second drawn ${d2} ms (wall ${w2} s), pictures $same; $p; $c"
  sed 's/^strata-cli convert: /  convert: /' "$WORK/conv"
  i=$((i + 1))
done
