#!/usr/bin/env python3
"""Writes a timer array as Quadrants/Genesis keep one (times[section][iteration] of clock64()
deltas) in Strata's timer JSON: four sections of a physics step over 240 iterations, at 1.98 GHz,
with noise and a collision pass that spikes every 40th iteration. Deterministic (its own LCG): the
docs' screenshots of the Sections dock on an imported array are made from it.

    python3 tests/data/sections/make_iterations_array.py OUT.json
"""
import json
import sys

SECTIONS = [('broad phase', 180_000), ('collision', 420_000), ('constraint solve', 950_000),
            ('integrate', 120_000)]
ITERATIONS = 240


def main(out):
    state = 12345

    def noise():  # uniform in [-1, 1)
        nonlocal state
        state = (1103515245 * state + 12345) % 2**31
        return state / 2**30 - 1

    times = []
    for name, base in SECTIONS:
        row = []
        for i in range(ITERATIONS):
            v = base * (1 + 0.06 * noise())
            if name == 'collision' and i % 40 == 39:
                v *= 3.2  # a rebuild of the contact grid
            if name == 'constraint solve' and i >= 160:
                v *= 1.25  # more contacts after the pile settles
            row.append(int(v))
        times.append(row)
    with open(out, 'w') as f:
        json.dump({'sections': [n for n, _ in SECTIONS], 'clock_hz': 1.98e9, 'times': times}, f)


if __name__ == '__main__':
    main(sys.argv[1])
