#!/bin/bash
# slurm_scripts_check.sh - packaging/slurm without a Slurm cluster (CTest: slurm_scripts).
#
#   tests/slurm/slurm_scripts_check.sh STRATA_CLI
#
# A fake `sbatch` on PATH records every submission and runs it at once: an array's tasks one
# after another with the SLURM_ARRAY_* variables a task sees, each task's output written where
# --output names it, expanded as Slurm's expand_stdio_fields does (%% one %, %A the array job,
# %a the task, %j the job, %x the name, %u the user; any other %c kept; a backslash anywhere:
# nothing expanded and every backslash dropped). Then, with the real strata-cli:
#   1. an OUTDIR whose name holds '%a', '%j' and '%%': the logs land in OUTDIR/logs under their
#      own names (digest-<job>_<task>.out, reduce-<job>.out), nowhere else, and the report is made;
#   2. an OUTDIR with a backslash is refused before anything is submitted;
#   3. a LIST that tests the --file-list rule (CRLF, blank lines, '#x.json' naming a file that
#      exists, './#x.json', ' lead.json' where only lead.json exists, an indented '#'): the
#      scripts warn as strata-cli does (same lines), digest the same files, and the report has the
#      same ranks and as many error rows as `strata-cli ranks --file-list LIST` run directly;
#   4. a LIST that is a FIFO is refused at once.
# Exit status: 0 pass, 1 fail.
set -euo pipefail

cli=${1:?usage: $0 STRATA_CLI}
[[ $cli == /* ]] || cli=$PWD/$cli
repo=$(cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)
slurm=$repo/packaging/slurm
tmp=$(mktemp -d /tmp/strata-slurm-scripts.XXXXXX)
trap 'rm -rf -- "$tmp"' EXIT

failures=0
pass() { echo "PASS: $*"; }
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
check() { # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}

mkdir -p "$tmp/bin" "$tmp/state"
cat >"$tmp/bin/sbatch" <<'FAKE'
#!/bin/bash
# The fake sbatch of slurm_scripts_check.sh.
set -uo pipefail
state=${FAKE_SLURM_STATE:?}
expand() { # PATTERN JOB ARRAYJOB TASK NAME
    local p=$1 out= i c n
    if [[ $p == *\\* ]]; then
        printf '%s' "${p//\\/}"
        return
    fi
    for ((i = 0; i < ${#p}; i++)); do
        c=${p:i:1}
        if [[ $c != % ]]; then
            out+=$c
            continue
        fi
        i=$((i + 1))
        n=${p:i:1}
        case $n in
            %) out+=% ;;
            A) out+=$3 ;;
            a) out+=$4 ;;
            j) out+=$2 ;;
            x) out+=$5 ;;
            u) out+=$(id -un) ;;
            *) out+=%$n ;;
        esac
    done
    printf '%s' "$out"
}
parsable=0 wait=0 array= output= name=
while (($#)); do
    case $1 in
        --parsable) parsable=1 ;;
        --wait) wait=1 ;;
        --array=*) array=${1#*=} ;;
        --output=*) output=${1#*=} ;;
        --job-name=*) name=${1#*=} ;;
        --*) ;;
        *) break ;;
    esac
    shift
done
script=$1
shift
printf '%s\n' "$output" >>"$state/outputs"
job=$(($(cat "$state/next" 2>/dev/null || echo 100) + 1))
[[ -n $name ]] || name=$(basename -- "$script")
[[ -n $output ]] || output=slurm-%j.out
status=0
if [[ -n $array ]]; then
    lo=${array%-*}
    hi=${array#*-}
    echo $((job + hi - lo + 1)) >"$state/next"
    for ((t = lo; t <= hi; t++)); do
        log=$(expand "$output" "$((job + t - lo + 1))" "$job" "$t" "$name")
        echo "$log" >>"$state/logs"
        SLURM_JOB_ID=$((job + t - lo + 1)) SLURM_ARRAY_JOB_ID=$job SLURM_ARRAY_TASK_ID=$t \
            SLURM_ARRAY_TASK_MIN=$lo SLURM_ARRAY_TASK_MAX=$hi SLURM_ARRAY_TASK_STEP=1 \
            SLURM_ARRAY_TASK_COUNT=$((hi - lo + 1)) bash "$script" "$@" >"$log" 2>&1 || status=1
    done
else
    echo "$job" >"$state/next"
    log=$(expand "$output" "$job" "$job" 4294967294 "$name")
    echo "$log" >>"$state/logs"
    SLURM_JOB_ID=$job bash "$script" "$@" >"$log" 2>&1 || status=$?
fi
if ((parsable)); then echo "$job"; else echo "Submitted batch job $job"; fi
((wait)) || status=0 # a submission succeeds; only --wait returns the job's status
exit "$status"
FAKE
chmod +x "$tmp/bin/sbatch"
export PATH=$tmp/bin:$PATH FAKE_SLURM_STATE=$tmp/state
unset SLURM_ARRAY_TASK_ID SLURM_JOB_ID

# Three small Kineto ranks: ProfilerStep#1 and an AllReduce each.
mkdir -p "$tmp/traces"
trace() { # FILE RANK
    local ts=$((100000 + 1000 * $2))
    printf '{"distributedInfo": {"rank": %d, "world_size": 3}, "traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 9, "tid": 9, "ts": %d, "dur": 1000},
 {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
  "pid": %d, "tid": 20, "ts": %d, "dur": %d, "args": {"device": %d, "stream": 20}}]}\n' \
        "$2" "$ts" "$2" "$((ts + 100 * ($2 + 1)))" "$((400 - 100 * $2))" "$2" >"$1"
}
trace "$tmp/traces/r0.json" 0
trace "$tmp/traces/r1.json" 1
trace "$tmp/traces/r2.json" 2

# 1. OUTDIR with % in its name.
printf '%s\n' r0.json r1.json r2.json >"$tmp/traces/plain.list"
out="$tmp/out %a %j 100%%"
: >"$tmp/state/logs"
rc=0
bash "$slurm/strata-ranks-slurm" --strata-cli "$cli" --tasks 2 --wait "$tmp/traces/plain.list" \
    "$out" >"$tmp/run1.out" 2>&1 || rc=$?
check "strata-ranks-slurm with % in OUTDIR exits 0 (got $rc)" test "$rc" -eq 0
check "the digest array's --output doubles OUTDIR's %" \
    grep -qxF -- "$tmp/out %%a %%j 100%%%%/logs/digest-%A_%a.out" "$tmp/state/outputs"
check "the reduce's --output doubles OUTDIR's %" \
    grep -qxF -- "$tmp/out %%a %%j 100%%%%/logs/reduce-%j.out" "$tmp/state/outputs"
logs_ok() {
    local n
    n=$(grep -c . "$tmp/state/logs")
    ((n == 3)) || return 1
    while IFS= read -r log; do
        [[ $log == "$out/logs/"* && -s $log ]] || return 1
    done <"$tmp/state/logs"
    [[ -s $out/logs/digest-101_0.out && -s $out/logs/digest-101_1.out ]] &&
        [[ -s $out/logs/reduce-104.out ]]
}
check "the three logs are OUTDIR/logs/digest-101_{0,1}.out and reduce-104.out, OUTDIR as named" logs_ok
check "no log went elsewhere" test -z "$(find "$tmp" -name '*.out' -path "$tmp/out [0-9]*")"
check "the report is made in OUTDIR" test -s "$out/report.json"
check "the report has the three ranks" \
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit(len(r["ranks"]) != 3 or r["errors"] != [])' \
    "$out/report.json"

# 2. A backslash in OUTDIR: refused, nothing submitted.
: >"$tmp/state/outputs"
rc=0
bash "$slurm/strata-ranks-slurm" --strata-cli "$cli" "$tmp/traces/plain.list" \
    "$tmp/out\\back" >"$tmp/run2.out" 2>&1 || rc=$?
check "a backslash in OUTDIR is refused (exit 2, got $rc)" test "$rc" -eq 2
check "the refusal says why" grep -q "holds a backslash, which sbatch's --output cannot name" "$tmp/run2.out"
check "nothing was submitted" test ! -s "$tmp/state/outputs"

# 3. The --file-list rule, the same in the scripts and in strata-cli.
cp "$tmp/traces/r1.json" "$tmp/traces/#x.json"
cp "$tmp/traces/r2.json" "$tmp/traces/lead.json"
printf '# the ranks\nr0.json\r\n\n \t\n#x.json\n./#x.json\n lead.json\n  # indented\n' \
    >"$tmp/traces/tricky.list"
rc=0
"$cli" ranks --json --file-list "$tmp/traces/tricky.list" >"$tmp/direct.json" 2>"$tmp/direct.err" || rc=$?
check "strata-cli ranks over the tricky list exits 0 (got $rc)" test "$rc" -eq 0
out=$tmp/out3
: >"$tmp/state/logs"
rc=0
bash "$slurm/strata-ranks-slurm" --strata-cli "$cli" --tasks 2 --wait "$tmp/traces/tricky.list" \
    "$out" >"$tmp/run3.out" 2>"$tmp/run3.err" || rc=$?
check "strata-ranks-slurm over the tricky list exits 0 (got $rc)" test "$rc" -eq 0
for n in 5 7 8; do
    check "strata-cli warns about line $n" grep -q "tricky.list:$n: " "$tmp/direct.err"
    check "strata-ranks-slurm warns about line $n" grep -q "tricky.list:$n: " "$tmp/run3.err"
done
check "strata-ranks-slurm warns about no other line" \
    test "$(grep -c 'tricky.list:[0-9]*: ' "$tmp/run3.err")" -eq 3
check "the digests made: r0 and #x (no lead.json, no r1)" \
    test -s "$out/r0.json.digest.json" -a -s "$out/#x.json.digest.json" \
    -a ! -e "$out/lead.json.digest.json" -a ! -e "$out/r1.json.digest.json"
check "digests.list names #x.json's digest as ./#x.json.digest.json" \
    grep -qxF './#x.json.digest.json' "$out/digests.list"
same_report() {
    python3 - "$tmp/direct.json" "$out/report.json" <<'PY'
import json, os, sys
d, s = (json.load(open(p)) for p in sys.argv[1:3])
names = lambda r: sorted(os.path.basename(x["file"]) for x in r["ranks"])
ok = names(d) == names(s) == ["#x.json", "r0.json"] and len(d["errors"]) == len(s["errors"]) == 2
print("direct", names(d), len(d["errors"]), "slurm", names(s), len(s["errors"]))
sys.exit(0 if ok else 1)
PY
}
check "the Slurm report has the ranks and error rows of strata-cli's" same_report

# 4. A FIFO as LIST.
mkfifo "$tmp/fifo.list"
rc=0
timeout 20 bash "$slurm/strata-ranks-slurm" --strata-cli "$cli" "$tmp/fifo.list" "$tmp/out4" \
    >"$tmp/run4.out" 2>&1 || rc=$?
check "a FIFO as LIST is refused at once (exit 2, got $rc)" test "$rc" -eq 2
mkdir -p "$tmp/out4"
for s in "strata-digest.sbatch --shard 0/1" strata-reduce.sbatch; do
    rc=0
    # shellcheck disable=SC2086 # the script and its option
    timeout 20 bash "$slurm/"$s --strata-cli "$cli" "$tmp/fifo.list" "$tmp/out4" \
        >"$tmp/run4.out" 2>&1 || rc=$?
    check "$s refuses a FIFO as LIST at once (exit 2, got $rc)" test "$rc" -eq 2
    check "$s says why" grep -q "cannot read the file list .*fifo.list" "$tmp/run4.out"
done

if ((failures)); then
    echo "$failures check(s) failed"
    for f in "$tmp"/run*.out "$tmp"/run3.err "$tmp"/direct.err; do
        [[ -f $f ]] && { echo "---- $f"; cat -- "$f"; }
    done
    exit 1
fi
echo "all checks passed"
