#!/bin/sh
# The reduce alone: strata-cli ranks over N rank digests, copies of the digests of eight DLRM ranks
# (rank k a copy of worker k % 8's, renumbered), as a cluster's reduce job reads them. SRC_DIR
# holds the eight traces to digest: ../shared/traces/multirank/param-dlrm (8 collectives, 1 step
# per rank) or the scaled ones tests/bench/mpi_ranks.sh makes (one real step repeated: more
# collectives and steps per digest). Prints the digest size, then wall time and peak RSS per N.
#   tests/bench/reduce_digests.sh BUILD_DIR SRC_DIR WORK_DIR N...
set -eu
BUILD=$1 SRC=$2 WORK=$3
shift 3
CLI=$BUILD/app/strata-cli
mkdir -p "$WORK/eight"
"$CLI" digest -o "$WORK/eight" "$SRC"/worker*.json > /dev/null
python3 - "$WORK/eight" <<'PY'
import glob, json, os, sys
d = json.load(open(sorted(glob.glob(os.path.join(sys.argv[1], "*.digest.json")))[0]))
print("# digest of one rank: %d bytes, %d collectives, %d steps" % (
    os.path.getsize(sorted(glob.glob(os.path.join(sys.argv[1], "*.digest.json")))[0]),
    len(d["collectives"]), len(d["steps"])))
PY
for n in "$@"; do
  rm -rf "$WORK/set"; mkdir -p "$WORK/set"
  python3 - "$WORK/eight" "$WORK/set" "$n" <<'PY'
import glob, json, os, sys
docs = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.digest.json")))]
for k in range(int(sys.argv[3])):
    d = dict(docs[k % 8]); d["rank"] = k; d["file"] = "rank%d.json" % k
    with open(os.path.join(sys.argv[2], "r%05d.digest.json" % k), "w") as f:
        json.dump(d, f)
PY
  ls "$WORK"/set/*.digest.json > "$WORK/list.txt"
  for i in 1 2 3; do
    /usr/bin/time -f "{\"digests\": $n, \"wall_s\": %e, \"peak_rss_kb\": %M}" \
      "$CLI" ranks --json --file-list "$WORK/list.txt" > /dev/null
  done
done
