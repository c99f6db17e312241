# Sampling attribution for tests/bench/python_overhead.py: busy() spins for a known time, idle()
# sleeps; the program prints the seconds spent in each as JSON on its last line.
import json
import time


def busy(seconds):
    end = time.perf_counter() + seconds
    x = 0
    while time.perf_counter() < end:
        x += 1
    return x


def idle(seconds):
    time.sleep(seconds)


spent = {"busy": 0.0, "idle": 0.0}
for i in range(10):
    t = time.perf_counter()
    busy(0.15)
    spent["busy"] += time.perf_counter() - t
    t = time.perf_counter()
    idle(0.05)
    spent["idle"] += time.perf_counter() - t
print(json.dumps(spent))
