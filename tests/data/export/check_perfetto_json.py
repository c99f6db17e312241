#!/usr/bin/env python3
"""Checks a Perfetto JSON export against the importer rules of docs/export.md, independently of
Strata's code: strict JSON (UTF-8, no NaN/Infinity), no number in exponent form, the object form
without a displayTimeUnit other than Kineto's "ms" (older trace processors took "ns" as the unit of
ts, which is µs, and showed every time 1000x off), positive 32-bit pids and tids (never 0), X events strictly nested per
(pid, tid), every v2 flow id with exactly one flow_out and one flow_in, every v1 flow id with one
's' and one 'f' (and not used by a v2 flow), a process_name for every pid and a thread_name for
every (pid, tid) that events use. Prints 'ok <events> <x> <v2 flows> <v1 flows>' or the problems
and exits 1."""
import collections
import decimal
import gzip
import json
import sys


def main(path):
    raw = open(path, 'rb').read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    text = raw.decode('utf-8')  # strict: invalid UTF-8 raises
    exponents = []

    def number(s):
        if 'e' in s or 'E' in s:
            exponents.append(s)
        return decimal.Decimal(s)

    def constant(s):
        raise ValueError('not JSON: ' + s)

    doc = json.loads(text, parse_float=number, parse_int=number, parse_constant=constant)
    problems = []
    if exponents:
        problems.append('%d numbers in exponent form, e.g. %s' % (len(exponents), exponents[0]))
    if not isinstance(doc, dict) or 'traceEvents' not in doc:
        problems.append('not the object form with traceEvents')
        doc = {'traceEvents': doc if isinstance(doc, list) else []}
    if doc.get('displayTimeUnit', 'ms') != 'ms':
        problems.append('displayTimeUnit %r while ts is in microseconds' % doc['displayTimeUnit'])
    pnames, tnames, used_p, used_t = set(), set(), set(), set()
    lanes = collections.defaultdict(list)
    bind = collections.defaultdict(lambda: [0, 0])
    v1 = collections.defaultdict(lambda: [0, 0])

    def good(v):
        return isinstance(v, decimal.Decimal) and v == v.to_integral_value() and 1 <= v <= 2**31 - 1

    for e in doc['traceEvents']:
        ph = e.get('ph')
        pid = e.get('pid')
        if not good(pid):
            problems.append('bad pid %r in %r' % (pid, e))
            continue
        if 'tid' in e and not good(e['tid']):
            problems.append('bad tid %r in %r' % (e['tid'], e))
            continue
        if ph == 'M':
            if e.get('name') == 'process_name':
                pnames.add(pid)
            elif e.get('name') == 'thread_name':
                tnames.add((pid, e['tid']))
            continue
        used_p.add(pid)
        if 'tid' in e:
            used_t.add((pid, e['tid']))
        if ph == 'X':
            start = int(e['ts'] * 1000)
            end = start + int(e['dur'] * 1000)
            lanes[(pid, e['tid'])].append((start, -end, e.get('name')))
            if 'bind_id' in e:
                b = bind[e['bind_id']]
                if e.get('flow_out'):
                    b[0] += 1
                if e.get('flow_in'):
                    b[1] += 1
        elif ph in ('s', 'f'):
            v1[e['id']][0 if ph == 's' else 1] += 1
    for key, spans in lanes.items():
        spans.sort()
        stack = []
        for start, negend, name in spans:
            end = -negend
            while stack and stack[-1][0] <= start:
                stack.pop()
            if stack and end > stack[-1][0]:
                problems.append('overlap on %r: %r [%d, %d) crosses %r ending at %d' %
                                (key, name, start, end, stack[-1][1], stack[-1][0]))
                break
            stack.append((end, name))
    for i, (o, n) in bind.items():
        if (o, n) != (1, 1):
            problems.append('bind_id %s: %d flow_out, %d flow_in' % (i, o, n))
    for i, (s, f) in v1.items():
        if (s, f) != (1, 1):
            problems.append('v1 flow id %s: %d s, %d f' % (i, s, f))
        if i in bind:
            problems.append('flow id %s used by a v1 and a v2 flow' % i)
    for p in used_p - pnames:
        problems.append('pid %s has no process_name' % p)
    for t in used_t - tnames:
        problems.append('(pid, tid) %s has no thread_name' % (t,))
    if problems:
        print('\n'.join(problems[:20]))
        return 1
    print('ok %d %d %d %d' % (len(doc['traceEvents']), sum(len(v) for v in lanes.values()),
                              len(bind), len(v1)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
