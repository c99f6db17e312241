# The shapes that break naive call tracers (issue 45): recursion 10,000 deep, a generator
# resumed many times, coroutines under asyncio, exceptions unwinding 200 frames, and a thread
# that started before tracing began (early_thread, imported by a .pth file when the test sets
# one up: site imports .pth files before sitecustomize, so that thread runs before the agent).
import asyncio
import sys

sys.setrecursionlimit(25000)


def recurse(n):
    return 0 if n == 0 else 1 + recurse(n - 1)


def numbers(n):
    for i in range(n):
        yield i


def consume():
    total = 0
    for x in numbers(50):
        total += x
    return total


async def leaf(i):
    await asyncio.sleep(0)
    return i


async def branch():
    return sum(await asyncio.gather(*(leaf(i) for i in range(5))))


def deep_raise(n):
    if n == 0:
        raise ValueError("deep")
    deep_raise(n - 1)


def catch():
    try:
        deep_raise(200)
    except ValueError:
        pass


def main():
    assert recurse(10000) == 10000
    assert consume() == 1225
    assert asyncio.run(branch()) == 10
    for _ in range(3):
        catch()
    early = sys.modules.get("early_thread")
    if early is not None:
        early.go.set()
        early.done.wait()


main()
