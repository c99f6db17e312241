#!/usr/bin/env python3
"""A job of N ranks made from the eight PARAM DLRM ranks (../shared/traces/multirank/param-dlrm):
rank k is a copy of worker k % 8 with distributedInfo.rank = k and world_size = N, every timestamp
moved by k * 3 us (so the copies of one worker are not identical). For the 64-rank figures of
docs/performance.md (opening a set in the window, scrolling the merged timeline).
    many_ranks.py SRC_DIR OUT_DIR [N]"""
import glob
import json
import os
import sys


def main():
    src, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 64
    workers = sorted(glob.glob(os.path.join(src, "worker*.json")))
    if len(workers) != 8:
        sys.exit("expected the eight worker*.json of param-dlrm in " + src)
    os.makedirs(out, exist_ok=True)
    loaded = [json.load(open(w)) for w in workers]
    for k in range(n):
        j = json.loads(json.dumps(loaded[k % 8]))
        j.setdefault("distributedInfo", {})
        j["distributedInfo"]["rank"] = k
        j["distributedInfo"]["world_size"] = n
        for e in j["traceEvents"]:
            if isinstance(e.get("ts"), int) and e.get("ph") != "M":
                e["ts"] += 3 * k
        with open(os.path.join(out, "rank%03d.json" % k), "w") as f:
            json.dump(j, f)


if __name__ == "__main__":
    main()
