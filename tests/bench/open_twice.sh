#!/bin/sh
# Issue 33's figures on one JSON trace, ROUNDS times (default 3), each round with an empty trace
# cache: the window's first open (strata-bench open: the first picture of what has been read,
# and the trace drawn) and, in a new process, its second open (from the cache the first wrote);
# then strata-cli convert and the load of the model file it wrote (strata-bench load).
#   sh tests/bench/open_twice.sh FILE [BUILD]
set -eu
FILE=$1
BUILD=${2:-build}
ROUNDS=${ROUNDS:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache" QT_QPA_PLATFORM=offscreen
field() { sed -n "s/.*\"$1\": \\([-0-9.a-z]*\\).*/\\1/p" "$WORK/out" | tail -n 1; }
i=0
while [ "$i" -lt "$ROUNDS" ]; do
  rm -rf "$XDG_CACHE_HOME"
  "$BUILD/tests/bench/strata-bench" open "$FILE" --rounds 1 > "$WORK/out" 2>/dev/null
  first="first open: first picture $(field first_picture_ms) ms, drawn $(field drawn_ms) ms"
  "$BUILD/tests/bench/strata-bench" open "$FILE" --rounds 1 > "$WORK/out" 2>/dev/null
  second="second open (from the cache: $(field from_cache)): drawn $(field drawn_ms) ms, steal $(field steal_pct) %"
  "$BUILD/app/strata-cli" convert "$FILE" "$WORK/c.strata" 2> "$WORK/conv"
  "$BUILD/tests/bench/strata-bench" load "$WORK/c.strata" > "$WORK/out" 2>/dev/null
  model="model file: $(field bytes) bytes in $(field seconds) s ($(field mb_per_s) MB/s, peak RSS $(field peak_rss_mb) MB)"
  echo "round $((i + 1)): $first; $second; $model"
  sed 's/^strata-cli convert: /  convert: /' "$WORK/conv"
  i=$((i + 1))
done
