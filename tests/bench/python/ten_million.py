# Ten million Python calls (tests/bench/python_overhead.py --ten-million): a trace of that many
# python_function slices from --python calls, to load and draw.
def leaf(i):
    return i


def branch(i):
    return leaf(i) + leaf(i + 1)


def run(n):
    total = 0
    for i in range(n):
        total += branch(i)
    return total


for _ in range(10):
    run(333_333)
