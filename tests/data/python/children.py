# multiprocessing children (issue 45): one started by fork, one by spawn; each runs
# child_work(7), which calls square() 7 times. Each child is recorded in a file of its own.
import multiprocessing


def square(x):
    return x * x


def child_work(n):
    total = 0
    for i in range(n):
        total += square(i)
    return total


if __name__ == "__main__":
    for method in ("fork", "spawn"):
        p = multiprocessing.get_context(method).Process(target=child_work, args=(7,), name=method)
        p.start()
        p.join()
        assert p.exitcode == 0, (method, p.exitcode)
