# A program with a known call structure (issue 45): work() calls a sleeping and a spinning
# function a known number of times, 5 times on the main thread, then 3 times on a thread named
# "worker" (one after the other: no wait for the GIL inside a measurement). It measures every
# call itself with time.perf_counter_ns() and writes them to argv[1] as JSON:
# {"MainThread": [["sleeper", ns], ["spinner", ns], ...], "worker": [...]}.
import json
import sys
import threading
import time

MEASURED = {}


def sleeper():
    time.sleep(0.004)


def spinner():
    x = 0
    for i in range(150_000):  # a few ms, and the same calls in every run
        x += i
    return x


def work(n):
    out = MEASURED.setdefault(threading.current_thread().name, [])
    for _ in range(n):
        t = time.perf_counter_ns()
        sleeper()
        out.append(["sleeper", time.perf_counter_ns() - t])
        t = time.perf_counter_ns()
        spinner()
        out.append(["spinner", time.perf_counter_ns() - t])


def main():
    work(5)
    worker = threading.Thread(target=work, args=(3,), name="worker")
    worker.start()
    worker.join()
    with open(sys.argv[1], "w") as f:
        json.dump(MEASURED, f)


main()
