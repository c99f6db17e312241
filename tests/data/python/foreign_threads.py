# Thread states made without the GIL (issue 45): C threads calling into Python (a ctypes
# callback run by a pthread of the C library's own) each get a new thread state from
# PyGILState_Ensure, made while other threads run, some holding the GIL. The sampler looking at
# every thread meanwhile must never see one half made. Prints the callbacks run.
import ctypes
import sys
import time

libc = ctypes.CDLL(None)
CALLBACK = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)
calls = 0


@CALLBACK
def in_c_thread(arg):
    global calls
    calls += 1
    return None


def main(seconds):
    pthread_t = ctypes.c_ulong
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        threads = [pthread_t() for _ in range(8)]
        for t in threads:
            libc.pthread_create(ctypes.byref(t), None, in_c_thread, None)
        for t in threads:
            libc.pthread_join(t, None)
    print(calls)


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
