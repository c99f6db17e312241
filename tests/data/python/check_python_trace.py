# Checks a Strata recording of a Python program (issue 45) against the independent reference
# made by reference_profile.py, from Strata's Perfetto JSON export (strata-cli export --format
# perfetto-json), standard library only. Prints "ok" or what differs, one line each.
#   check_python_trace.py counts EXPORT.json PROGRAM_NAME
#     prints {"function": slices} for PROGRAM_NAME's functions (and "ok": they all nest)
#   check_python_trace.py early EXPORT.json
#     the thread "early" (early_thread.py, started before tracing began) has 10 beat slices,
#     each inside its loop slice, which opened when tracing began: at the start of the
#     process's first Python slice
#   check_python_trace.py launches EXPORT.json FRAME
#     every cuda_runtime slice lies inside a python_function slice named ...FRAME on its thread
#   check_python_trace.py calls EXPORT.json REFERENCE.json PROGRAM_NAME [MEASURED.json]
#     every thread's python_function slices nest (none ends after its parent); for each thread
#     the reference saw: the slices of PROGRAM_NAME's functions, and of the C functions they
#     call, with their callers (a caller outside PROGRAM_NAME counts as "<outside>"), are the
#     reference's exactly; with MEASURED (known_calls.py's own measurements) each sleeper and
#     spinner slice lasts within 1 ms of the program's measurement of that call.
import collections
import json
import sys


def load_export(path):
    events = json.load(open(path))["traceEvents"]
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    threads = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "python_function":
            start = round(float(e["ts"]) * 1000)
            end = start + round(float(e["dur"]) * 1000)
            key = names.get((e["pid"], e["tid"]), str(e["tid"]))
            threads[key].append([start, end, e["name"]])
    return threads


def nest(slices, problems, thread):
    """[start, end, name] -> [start, end, name, parent]; nesting faults into problems."""
    out, stack = [], []
    for s in sorted(slices, key=lambda s: (s[0], -(s[1] - s[0]))):
        # The top ends before s starts: not its parent. Ending where s starts, it is not either,
        # unless both are empty at that point (a call shorter than a nanosecond, then either).
        while stack and (stack[-1][1] < s[0] or (stack[-1][1] == s[0] and (
                stack[-1][1] > stack[-1][0] or s[1] > s[0]))):
            stack.pop()
        if stack and s[1] > stack[-1][1]:
            problems.append("%s: %s [%d, %d] ends after its parent %s [%d, %d]"
                            % (thread, s[2], s[0], s[1], stack[-1][2], stack[-1][0], stack[-1][1]))
        out.append(s + [stack[-1][2] if stack else ""])
        stack.append(s)
    return out


def comparable(name, parent, program):
    if program in name:
        return True
    return name.startswith("<built-in ") and program in parent


def key(name, parent, program):
    return (name, parent if program in parent else "<outside>")


def check_calls(export, reference, program, measured=None):
    problems = []
    threads = {t: nest(s, problems, t) for t, s in load_export(export).items()}
    ref = json.load(open(reference))["threads"]
    for thread, slices in ref.items():
        want = collections.Counter(key(n, p, program) for n, p in slices
                                   if comparable(n, p, program))
        got = collections.Counter(key(s[2], s[3], program) for s in threads.get(thread, [])
                                  if comparable(s[2], s[3], program))
        for k in sorted(set(want) | set(got)):
            if want[k] != got[k]:
                problems.append("%s: %s called from %s: %d slices, the reference %d"
                                % (thread, k[0], k[1], got[k], want[k]))
    if measured:
        for thread, calls in json.load(open(measured)).items():
            for function in ("sleeper", "spinner"):
                mine = [c[1] for c in calls if c[0] == function]
                slices = sorted(s for s in threads.get(thread, [])
                                if s[2].endswith("): " + function) and program in s[2])
                if len(slices) != len(mine):
                    problems.append("%s: %d %s slices, the program made %d calls"
                                    % (thread, len(slices), function, len(mine)))
                    continue
                # The call lies inside the program's own bracket of it (100 us for the two
                # clocks), and a sleeper lasts at least its 4 ms sleep: nothing here depends on
                # how fast the machine is (a preempted hook widens the bracket, not the call).
                least = 4_000_000 - 100_000 if function == "sleeper" else 1
                for i, (s, ns) in enumerate(zip(slices, mine)):
                    lasted = s[1] - s[0]
                    if lasted > ns + 100_000 or lasted < least:
                        problems.append("%s: %s call %d lasted %d ns, the program measured %d"
                                        % (thread, function, i, lasted, ns))
    return problems


def check_counts(export, program):
    problems = []
    counts = collections.Counter()
    for thread, slices in load_export(export).items():
        for s in nest(slices, problems, thread):
            if program + "(" in s[2]:
                counts[s[2].split("): ")[-1]] += 1
    print(json.dumps(dict(sorted(counts.items()))))
    return problems


def check_early(export):
    problems = []
    threads = {t: nest(s, problems, t) for t, s in load_export(export).items()}
    early = threads.get("early", [])
    first = min(s[0] for slices in threads.values() for s in slices)
    loops = [s for s in early if s[2].endswith("): loop")]
    beats = [s for s in early if s[2].endswith("): beat")]
    if len(loops) != 1:
        problems.append("%d loop slices on the thread early, expected 1" % len(loops))
    elif loops[0][0] != first:
        problems.append("loop opened at %d, tracing began at %d" % (loops[0][0], first))
    if len(beats) != 10:
        problems.append("%d beat slices on the thread early, expected 10" % len(beats))
    for b in beats:
        if loops and not (loops[0][0] <= b[0] and b[1] <= loops[0][1]):
            problems.append("beat [%d, %d] outside loop" % (b[0], b[1]))
    return problems


def check_launches(export, frame):
    problems = []
    events = json.load(open(export))["traceEvents"]
    frames = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "python_function" and e["name"].endswith(frame):
            start = round(float(e["ts"]) * 1000)
            frames[(e["pid"], e["tid"])].append((start, start + round(float(e["dur"]) * 1000)))
    launches = 0
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "cuda_runtime":
            launches += 1
            start = round(float(e["ts"]) * 1000)
            end = start + round(float(e["dur"]) * 1000)
            if not any(a <= start and end <= b for a, b in frames[(e["pid"], e["tid"])]):
                problems.append("%s at %d is not inside %s" % (e["name"], start, frame))
    if not launches:
        problems.append("no cuda_runtime slice")
    return problems


def main():
    if sys.argv[1] == "launches":
        problems = check_launches(*sys.argv[2:])
    elif sys.argv[1] == "counts":
        problems = check_counts(*sys.argv[2:])
    elif sys.argv[1] == "early":
        problems = check_early(*sys.argv[2:])
    elif sys.argv[1] == "calls":
        problems = check_calls(*sys.argv[2:])
    else:
        sys.exit("unknown check " + sys.argv[1])
    for p in problems[:50]:
        print(p)
    print("ok" if not problems else "%d problems" % len(problems))
    sys.exit(1 if problems else 0)


main()
