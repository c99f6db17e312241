# A child forked after the sampler started (issue 45): it spins 0.3 s of CPU in child_spin(); its
# own recording's samples must name that function (its file holds its own callsites).
import multiprocessing
import time


def child_spin():
    t = time.process_time()
    while time.process_time() - t < 0.3:
        sum(i * i for i in range(1000))


if __name__ == "__main__":
    parent_warm = time.process_time()
    while time.process_time() - parent_warm < 0.1:  # the parent's sampler has written callsites
        sum(i * i for i in range(1000))
    p = multiprocessing.get_context("fork").Process(target=child_spin)
    p.start()
    p.join()
    assert p.exitcode == 0, p.exitcode
