# Sampling (issue 45): work() alternates spin() (CPU, holding the GIL) and idle() (asleep) for
# about 0.6 s; it measures both itself and writes {"spin": ns, "idle": ns, "work": ns} to argv[1].
import json
import sys
import time


def spin(ms):
    end = time.perf_counter_ns() + ms * 1_000_000
    while time.perf_counter_ns() < end:
        pass


def idle(ms):
    time.sleep(ms / 1000)


def work():
    spent = {"spin": 0, "idle": 0}
    begin = time.perf_counter_ns()
    for i in range(40):
        t = time.perf_counter_ns()
        spin(5 + i % 7)
        spent["spin"] += time.perf_counter_ns() - t
        t = time.perf_counter_ns()
        idle(4 + i % 5)
        spent["idle"] += time.perf_counter_ns() - t
    spent["work"] = time.perf_counter_ns() - begin
    return spent


with open(sys.argv[1], "w") as f:
    json.dump(work(), f)
