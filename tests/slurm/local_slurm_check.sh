#!/bin/bash
# local_slurm_check.sh - packaging/slurm end to end on a REAL one-node Slurm cluster.
#
#   tests/slurm/local_slurm_check.sh [--keep]
#
# Needs root and Debian's slurm-wlm and munge (Slurm 22.05 on Debian 12). Everything lives in a
# temporary folder: its own slurm.conf (free ports), munge key and socket, state, spool, logs and
# pid files; no system service or config is touched (no systemctl, /etc untouched) and the
# daemons it started are stopped on exit, whatever happens.
#
# Steps: start munged, slurmctld and slurmd; wait for the node to be idle; write a file list of
# the eight DLRM rank traces (absolute paths) and one damaged file (relative path: a trace's
# first 1000 bytes with its first 8 bytes zeroed - a merely truncated trace is read leniently
# and would be a rank); run `packaging/slurm/strata-ranks-slurm --wait --tasks 4 LIST OUTDIR`;
# check the jobs and the report:
#   - all 4 array tasks ended, the reduce ran after them (afterany) though one task failed;
#   - report.json parses, has 8 ranks, and report.json/report.txt are byte-identical to
#     `strata-cli ranks [--json] --file-list OUTDIR/digests.list` run directly, and
#     strata-ranks-slurm's exit status is that run's;
#   - it equals `strata-cli ranks --json` over the traces themselves (differences listed; an
#     error row naming the digest where the direct run names the trace is the one tolerated);
#   - the damaged file: with a strata-cli that reports error rows ("errors" in the JSON), exactly
#     one error, naming it; with one that does not, the reduce's report.missing names it alone.
#
# Options: --keep  keep the temporary folder (its path is printed)
# Environment: STRATA_CLI (default build/app/strata-cli of this repo, else
#   /tmp/slurm-strata/strata-cli); STRATA_TRACES (default /work/shared/traces/multirank/param-dlrm)
# Exit status: 0 pass, 1 fail, 77 skipped (not root, or Slurm, munge or the traces missing).
set -euo pipefail

keep=0
for arg in "$@"; do
    case $arg in
        --keep) keep=1 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "usage: $0 [--keep]" >&2; exit 2 ;;
    esac
done

repo=$(cd "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)
script_start=$(date +%s.%N)
elapsed() { python3 -c "import sys,time; print(f'{time.time()-float(sys.argv[1]):.1f}')" "$1"; }

skip() {
    echo "SKIP: $*"
    exit 77
}

for c in munged mungekey slurmctld slurmd sbatch sinfo squeue scontrol scancel python3; do
    command -v "$c" >/dev/null ||
        skip "$c not found: needs Slurm and munge (Debian: apt-get install slurm-wlm munge) and python3"
done
(($(id -u) == 0)) || skip "needs root (runs slurmctld and slurmd as SlurmUser=root)"

cli=${STRATA_CLI:-}
if [[ -z $cli ]]; then
    for c in "$repo/build/app/strata-cli" /tmp/slurm-strata/strata-cli; do
        if [[ -x $c ]]; then cli=$c; break; fi
    done
fi
[[ -n $cli && -x $cli ]] || skip "no strata-cli (set STRATA_CLI or build build/app/strata-cli)"
traces=${STRATA_TRACES:-/work/shared/traces/multirank/param-dlrm}
good=()
for f in "$traces"/*.pt.trace.json; do
    if [[ -f $f ]]; then good+=("$f"); fi
done
((${#good[@]} == 8)) || skip "expected the 8 DLRM rank traces in $traces, found ${#good[@]}"

tmp=$(mktemp -d /tmp/strata-slurm-check.XXXXXX)
chmod 755 "$tmp" # munged wants every folder above its socket searchable by all
mkdir -p "$tmp"/{etc,munge,state,spool,log,run,traces}
chmod 700 "$tmp/etc"

munged_pid=
cleanup() {
    local rc=$? pid
    trap - EXIT INT TERM
    set +e
    if [[ -f $tmp/etc/slurm.conf ]] && [[ -f $tmp/run/slurmctld.pid ]]; then
        # Our jobs only: this controller knows no other.
        scancel --user=root >/dev/null 2>&1
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            [[ -z $(squeue -h 2>/dev/null) ]] && break
            sleep 1
        done
    fi
    for d in slurmd slurmctld; do
        pid=$(cat "$tmp/run/$d.pid" 2>/dev/null)
        [[ -n $pid ]] || continue
        kill -TERM "$pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        kill -KILL "$pid" 2>/dev/null
    done
    if [[ -n $munged_pid ]]; then
        munged --stop --socket="$tmp/munge/munge.socket" >/dev/null 2>&1 ||
            kill -TERM "$munged_pid" 2>/dev/null
    fi
    echo "wall time of the whole check: $(elapsed "$script_start") s"
    if ((keep)); then
        echo "kept $tmp (SLURM_CONF=$tmp/etc/slurm.conf; its daemons are stopped)"
    else
        rm -rf -- "$tmp"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM


failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
note() { echo "NOTE: $*"; }
show_logs() {
    for f in "$tmp"/log/*.log; do
        echo "---- tail of $f"
        tail -n 25 "$f"
    done
}

# --- munge: our own key, socket, pid, log and seed ---------------------------------------------
mkdir -p "$tmp/munge/key"
chmod 700 "$tmp/munge/key"
mungekey --create --keyfile="$tmp/munge/key/munge.key"
munged --key-file="$tmp/munge/key/munge.key" --socket="$tmp/munge/munge.socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" \
    --seed-file="$tmp/munge/munged.seed" ||
    { show_logs; echo "FAIL: munged did not start"; exit 1; }
munged_pid=$(cat "$tmp/munge/munged.pid")

# --- slurm.conf ------------------------------------------------------------------------------------
host=$(hostname -s)
cpus=$(nproc)
mem=$(free -m | awk '/^Mem:/ { print $2 }')
if ((mem > 2048)); then real_mem=$((mem - 1024)); else real_mem=$((mem / 2)); fi
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')

export SLURM_CONF=$tmp/etc/slurm.conf
cat >"$SLURM_CONF" <<EOF
# local_slurm_check.sh: a one-node cluster in $tmp
ClusterName=stratacheck
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
PlugStackConfig=$tmp/etc/plugstack.conf
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$real_mem State=UNKNOWN
PartitionName=debug Default=YES Nodes=ALL MaxTime=INFINITE State=UP
EOF
: >"$tmp/etc/plugstack.conf"
# Nothing of an outer Slurm job may leak into ours.
while IFS= read -r v; do unset "$v"; done < <(env | sed -n 's/^\(SLURM_[A-Z_]*\)=.*/\1/p' | grep -v '^SLURM_CONF$')

slurm_version=$(slurmctld -V)
echo "$slurm_version, node $host ($cpus CPUs, RealMemory=$real_mem MB), config $SLURM_CONF"

slurmctld -f "$SLURM_CONF" || { show_logs; echo "FAIL: slurmctld did not start"; exit 1; }
slurmd -f "$SLURM_CONF" -N "$host" || { show_logs; echo "FAIL: slurmd did not start"; exit 1; }

state=
for _ in $(seq 60); do
    state=$(sinfo -h -N -n "$host" -o '%T' 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 1
done
if [[ $state != idle ]]; then
    show_logs
    echo "FAIL: node $host is '${state:-not listed}' after 60 s, not idle"
    exit 1
fi
pass "one-node cluster up: $(sinfo -h -o '%P %a %D %T %N')"

# --- the file list ---------------------------------------------------------------------------------
damaged=$tmp/traces/damaged.pt.trace.json
{ printf '\0\0\0\0\0\0\0\0'; head -c 1000 "${good[0]}" | tail -c +9; } >"$damaged"
list=$tmp/traces/list.txt
{
    echo "# the 8 DLRM ranks (absolute paths) and a damaged file (relative to this list)"
    printf '%s\n' "${good[@]}"
    echo
    echo "damaged.pt.trace.json"
} >"$list"
printf '%s\n' "${good[@]}" >"$tmp/traces/good.list"
out=$tmp/out

# --- submit, wait, report --------------------------------------------------------------------------
echo "+ packaging/slurm/strata-ranks-slurm --wait --tasks 4 --strata-cli $cli $list $out"
submit_start=$(date +%s.%N)
wrapper_rc=0
"$repo/packaging/slurm/strata-ranks-slurm" --wait --tasks 4 --strata-cli "$cli" "$list" "$out" \
    >"$tmp/wrapper.out" 2>&1 || wrapper_rc=$?
submit_wall=$(elapsed "$submit_start")
cat "$tmp/wrapper.out"
echo "submit -> report: $submit_wall s (strata-ranks-slurm exit $wrapper_rc)"

array_job=$(sed -n 's/.* array tasks: job \([0-9]*\).*/\1/p' "$tmp/wrapper.out")
reduce_job=$(sed -n 's/.*reduce: job \([0-9]*\),.*/\1/p' "$tmp/wrapper.out")
echo "job ids: array $array_job, reduce $reduce_job"
if [[ -n $array_job && -n $reduce_job ]]; then
    # One line per job (an array task each): state, exit code, start and end.
    for j in "$array_job" "$reduce_job"; do scontrol -o show job "$j" 2>/dev/null || true; done >"$tmp/jobs.txt"
    python3 - "$tmp/jobs.txt" <<'EOF'
import sys
for line in open(sys.argv[1]):
    f = dict(w.split("=", 1) for w in line.split() if "=" in w)
    what = f"array task {f['ArrayTaskId']}" if "ArrayTaskId" in f else f.get("JobName", "?")
    print(f"  {what} (job {f.get('JobId')}): {f.get('JobState')}, exit {f.get('ExitCode')},"
          f" {f.get('StartTime')} -> {f.get('EndTime')}")
EOF
    ended=$(scontrol -o show job "$array_job" 2>/dev/null | grep -c -E 'JobState=(COMPLETED|FAILED)' || true)
    if ((ended == 4)); then pass "all 4 array tasks ran to their end"; else fail "$ended of 4 array tasks ended (COMPLETED or FAILED)"; fi
    if scontrol -o show job "$reduce_job" | grep -q -E 'JobState=(COMPLETED|FAILED)'; then
        pass "the reduce ran after the array (afterany), though a task failed"
    else
        fail "the reduce did not run to its end"
    fi
else
    fail "no job ids in strata-ranks-slurm's output"
fi
report=$out/report.json
if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$report" 2>/dev/null; then
    pass "report.json exists and parses"
else
    fail "report.json missing or not JSON"
    show_logs
    for f in "$out"/logs/*; do [[ -f $f ]] && { echo "---- $f"; cat "$f"; }; done
    echo "RESULT: FAIL ($failures)"
    exit 1
fi
nranks=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["ranks"]))' "$report")
if ((nranks == 8)); then pass "8 ranks in the report"; else fail "$nranks ranks in the report, expected 8"; fi
if [[ $(head -n 1 "$out/report.txt") == "8 ranks;"* ]]; then
    pass "report.txt: $(head -n 1 "$out/report.txt" | cut -c 1-60)..."
else
    fail "report.txt does not start with '8 ranks;'"
fi

# The reduce against strata-cli ranks run here over the same digests: byte for byte.
direct_rc=0
"$cli" ranks --json --file-list "$out/digests.list" >"$tmp/direct-digests.json" 2>"$tmp/direct-digests.err" ||
    direct_rc=$?
"$cli" ranks --file-list "$out/digests.list" >"$tmp/direct-digests.txt" 2>/dev/null || true
digest_list=$out/digests.list
if [[ ! -s $tmp/direct-digests.json ]]; then
    note "strata-cli ranks over digests.list printed no report (exit $direct_rc: $(head -n 1 "$tmp/direct-digests.err")):" \
         "this strata-cli has no error rows; comparing over the digests present (digests.present.list)"
    digest_list=$out/digests.present.list
    "$cli" ranks --json --file-list "$digest_list" >"$tmp/direct-digests.json" 2>/dev/null || true
    "$cli" ranks --file-list "$digest_list" >"$tmp/direct-digests.txt" 2>/dev/null || true
fi
# The exit status is strata-cli ranks's (0 with error rows, in a strata-cli that has them; 1
# where a file stops the report and the reduce falls back to the digests present).
if [[ $digest_list == "$out/digests.list" ]]; then expected_rc=$direct_rc; else expected_rc=1; fi
if ((wrapper_rc == expected_rc)); then
    pass "strata-ranks-slurm --wait exit status $wrapper_rc, as strata-cli ranks's over the digests"
else
    fail "strata-ranks-slurm --wait exit status $wrapper_rc, strata-cli ranks's over the digests $expected_rc"
fi
if cmp -s "$report" "$tmp/direct-digests.json"; then
    pass "report.json is byte-identical to strata-cli ranks --json --file-list $(basename "$digest_list")"
else
    fail "report.json differs from strata-cli ranks --json --file-list $(basename "$digest_list")"
    diff "$report" "$tmp/direct-digests.json" | head -n 20 || true
fi
if cmp -s "$out/report.txt" "$tmp/direct-digests.txt"; then
    pass "report.txt is byte-identical to strata-cli ranks --file-list $(basename "$digest_list")"
else
    fail "report.txt differs from strata-cli ranks --file-list $(basename "$digest_list")"
fi

# The reduce against strata-cli ranks over the traces themselves.
"$cli" ranks --json --file-list "$list" >"$tmp/direct-traces.json" 2>"$tmp/direct-traces.err" || true
trace_set="the 8 traces and the damaged file"
if [[ ! -s $tmp/direct-traces.json ]]; then
    note "strata-cli ranks over the traces and the damaged file printed no report ($(head -n 1 "$tmp/direct-traces.err")); comparing with the 8 good traces"
    trace_set="the 8 good traces"
    "$cli" ranks --json --file-list "$tmp/traces/good.list" >"$tmp/direct-traces.json" 2>/dev/null || true
fi
if python3 - "$report" "$tmp/direct-traces.json" <<'EOF'
import json, sys

def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k} (only in {'the report' if k in a else 'the direct run'})")
            else:
                diff(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(f"{path}: {json.dumps(a)[:80]} vs {json.dumps(b)[:80]}")

try:
    report, direct = (json.load(open(p)) for p in sys.argv[1:3])
except (OSError, ValueError) as e:
    print(f"  cannot read: {e}")
    sys.exit(1)
out = []
diff(report, direct, "", out)
# An error row may name the digest where the direct run names the trace: the one legitimate
# difference, tolerated and listed.
tolerated = [d for d in out if d.startswith(".errors[") and ".file:" in d]
for d in out:
    print(("  tolerated: " if d in tolerated else "  differs: ") + d)
sys.exit(0 if len(out) == len(tolerated) else 1)
EOF
then
    pass "report.json equals strata-cli ranks --json over $trace_set (keys differing: none beyond those listed)"
else
    fail "report.json differs from strata-cli ranks --json over $trace_set (keys above)"
fi

# The damaged file.
errors=$(python3 - "$report" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
if "errors" not in r:
    print("absent")
else:
    for e in r["errors"]:
        print(f"{e.get('file')}\t{e.get('error')}")
EOF
)
if [[ $errors == absent ]]; then
    note "no \"errors\" key in the report: this strata-cli has no error rows; the reduce listed the" \
         "trace without a digest in report.missing"
    if [[ -f $out/report.missing && $(cat "$out/report.missing") == "$damaged" ]]; then
        pass "report.missing names the damaged file alone"
    else
        fail "report.missing should name $damaged alone: $(cat "$out/report.missing" 2>/dev/null || echo absent)"
    fi
else
    n=$(grep -c . <<<"$errors" || true)
    if ((n == 1)) && [[ ${errors%%$'\t'*} == *damaged.pt.trace.json* ]]; then
        pass "one error row, the damaged file: $errors"
    else
        fail "expected one error row naming damaged.pt.trace.json, got $n: $errors"
    fi
fi

echo "report.txt head:"
head -n 12 "$out/report.txt" | sed 's/^/  /'
echo "$slurm_version; strata-cli $cli; array job $array_job; reduce job $reduce_job; submit -> report $submit_wall s"
if ((failures)); then
    show_logs
    echo "RESULT: FAIL ($failures)"
    exit 1
fi
echo "RESULT: PASS"
