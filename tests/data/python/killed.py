# A program killed by a signal (issue 45): finished() returns, then SIGTERM ends the process.
# Every slice completed before the signal is in the trace.
import os
import signal
import time


def finished():
    return sum(range(100))


def main():
    for _ in range(4):
        finished()
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(10)


main()
