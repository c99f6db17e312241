#!/usr/bin/env bash
# Makes every picture of the user guide (docs/guide/images/) with `strata --screenshot`, from the
# real traces in ../shared/traces and inputs made here, so that the guide's pictures are
# regenerated with the program, never drawn by hand.
#   scripts/guide_screenshots.sh [BUILD_DIR]      (default build; offscreen, no display needed)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
strata=$build/app/strata
cli=$build/app/strata-cli
traces=../shared/traces
out=docs/guide/images
work=$(mktemp -d /tmp/strata-guide.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen
shot() { # shot NAME ARGS...: docs/guide/images/NAME.png at 1600x900
    local name=$1; shift
    "$strata" --screenshot "$out/$name.png" --size 1600x900 "$@" > /dev/null 2> "$work/err" ||
        { cat "$work/err"; echo "guide: $name failed" >&2; exit 1; }
    echo "$out/$name.png"
}

qwen=$traces/tracelens-h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
# 1. Open a trace and read the first screen.
shot 01-first-screen "$qwen"
# 2. Why the GPU waited: the gaps, their causes, one step.
shot 02-gaps-dock --dock gaps "$qwen"
shot 02-gaps-zoom --range 14.5ms:16.5ms "$qwen"
shot 02-advisor --dock stats:advisor "$qwen"
# 3. Launch a program (no GPU is needed to see the dialog and a run's console).
"$strata" --launch --screenshot "$out/03-launch-dialog.png" --size 1600x900 \
    -o '/tmp/runs/train-{time}-{pid}.strata' --capture api,kernels,memcpy,nvtx \
    -- python3 train.py --epochs 1 > /dev/null 2>&1
echo "$out/03-launch-dialog.png"
"$strata" --launch --run --no-collector --screenshot "$out/03-launch-console.png" --size 1600x900 \
    -o "$work/train-{pid}.strata" \
    -- /bin/sh -c 'for i in 1 2 3; do echo "epoch $i: loss 0.$((9 - i))"; done' > /dev/null 2>&1 || true
echo "$out/03-launch-console.png"
# 4. In-kernel sections: a synthetic instrumented kernel (three launches of 1,024 blocks).
"$cli" synth-sections --launches 3 --blocks 1024 --tiles 16 -o "$work/sections.strata" > /dev/null
shot 04-sections-table --sections-tab table "$work/sections.strata"
shot 04-sections-sm --sections-tab sm "$work/sections.strata"
# 5. Compare two runs: the bundled sample against a copy whose GEMM kernels take 20 % less time.
sample=resources/sample_trace.json
python3 - "$sample" "$work/faster.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["traceEvents"]:
    if e.get("cat") == "kernel" and "gemm" in e.get("name", "").lower():
        e["dur"] = round(e["dur"] * 0.8, 3)
json.dump(d, open(sys.argv[2], "w"))
PY
shot 05-compare --compare "$sample" "$work/faster.json"
shot 05-compare-dock --compare --dock compare "$sample" "$work/faster.json"
# 6. The ranks of a job: one window, then digests as on a cluster.
shot 06-ranks-timeline $traces/multirank/param-dlrm/
shot 06-ranks-steps --dock ranks:steps $traces/multirank/param-dlrm/
"$cli" digest -o "$work/digests" $traces/multirank/param-dlrm/*.json > /dev/null
shot 06-ranks-digests "$work"/digests/*.digest.json
# 7. Export: what Perfetto opens (the export, read back by Strata).
"$cli" export --format perfetto-json "$qwen" "$work/qwen-perfetto.json" > /dev/null
shot 07-exported "$work/qwen-perfetto.json"
