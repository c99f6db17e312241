# Imported by a .pth file (tst_python_calls sets one up): a thread that runs before the Python
# agent starts. It waits, then calls beat() 10 times when edge_cases.py says go.
import threading

go = threading.Event()
done = threading.Event()


def beat():
    return 1


def loop():
    go.wait()
    for _ in range(10):
        beat()
    done.set()


threading.Thread(target=loop, name="early", daemon=True).start()
