# A call-heavy Python program for tests/bench/python_overhead.py: about 9 million Python calls
# (recursion, methods, a generator, small helpers) and no I/O.
class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def add(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def norm1(self):
        return abs(self.x) + abs(self.y)


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def walk(n):
    v = Vec(0, 0)
    for i in range(n):
        v = v.add(Vec(i % 3 - 1, i % 5 - 2))
    return v.norm1()


def evens(n):
    for i in range(n):
        if i % 2 == 0:
            yield i


fib(30)
walk(1_000_000)
sum(evens(3_000_000))
