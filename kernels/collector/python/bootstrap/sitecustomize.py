# Strata's Python bootstrap. strata-cli record and the Launch dialog put this directory first on
# PYTHONPATH, so every Python process of a run imports it, as sitecustomize, before the program's
# first line. It starts the collector's Python agent (libstrata_collector.so, the library the
# launcher named in CUDA_INJECTION64_PATH) as $STRATA_PYTHON says, then imports the
# sitecustomize it hides. Nothing here may stop the program: a refusal is written into the trace
# (strata-cli info shows it) and the program runs on. Python 2 must be able to read this file.
import os as _os
import sys as _sys


def _strata_refusal():
    if _sys.version_info[:2] < (3, 10) or _sys.version_info[:2] > (3, 13):
        return "Python %d.%d is not supported (CPython 3.10 to 3.13)" % _sys.version_info[:2]
    if _sys.implementation.name != "cpython":
        return "%s is not CPython" % _sys.implementation.name
    if getattr(_sys, "_is_gil_enabled", lambda: True)() is False:
        return "a free-threaded CPython build is not supported"
    return ""


def _strata_start():
    mode = _os.environ.get("STRATA_PYTHON", "off")
    lib = _os.environ.get("CUDA_INJECTION64_PATH", "")
    if mode == "off" or not lib or lib == "none":
        return
    try:
        import ctypes
        agent = ctypes.PyDLL(lib)  # holds the GIL across the calls: they use the Python API
        unlocked = ctypes.CDLL(lib)  # releases it: the calls that wait for other threads
    except Exception as e:  # no _ctypes (a static build), the library gone
        _sys.stderr.write("[strata] Python not recorded: cannot load %s: %s\n" % (lib, e))
        return
    agent.strata_python_start.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.py_object]
    agent.strata_python_thread_names.argtypes = [ctypes.c_char_p]
    agent.strata_python_warning.argtypes = [ctypes.c_char_p]
    import threading

    def current_threads():
        # For the sampler: "IDENT TID NAME" lines, IDENT threading's ident (the key of
        # sys._current_frames()), TID its native id.
        return "\n".join(
            "%d %d %s" % (t.ident, t.native_id, t.name)
            for t in threading.enumerate()
            if t.ident and t.native_id
        )

    if not agent.strata_python_start(mode.encode(), _strata_refusal().encode(), current_threads):
        return
    if mode.startswith("sample="):
        # The sampler asks for the GIL at each tick; a thread running Python hands it over only
        # after the switch interval (5 ms by default), which would skew every tick towards the
        # moment the GIL came free. A tenth of the period keeps the ticks on time.
        _sys.setswitchinterval(min(_sys.getswitchinterval(), 0.1 / int(mode[7:])))
        # The main thread samples itself while it runs: the handler of a signal no one sends,
        # raised by a timer on its CPU clock (the agent's cpu_tick_timer.h).
        import signal

        simulated, kernel = signal.SIGRTMAX - 3, signal.SIGRTMAX - 2
        if signal.getsignal(simulated) in (signal.SIG_DFL, None):
            agent.strata_python_cpu_tick_handler.restype = ctypes.py_object
            signal.signal(simulated, agent.strata_python_cpu_tick_handler())
            agent.strata_python_cpu_ticks(int(simulated), int(kernel))

    def names(threads):
        text = "".join("%d\t%s\n" % (t.native_id, t.name) for t in threads if t.native_id)
        if text:
            agent.strata_python_thread_names(text.encode("utf-8", "replace"))

    # Each thread's name as it starts, and the live ones' at the end.
    set_native_id = getattr(threading.Thread, "_set_native_id", None)
    if set_native_id is not None:

        def _set_native_id(self):
            set_native_id(self)
            names([self])

        threading.Thread._set_native_id = _set_native_id
    names(threading.enumerate())  # the threads already running (a .pth file may start one)
    import atexit

    atexit.register(lambda: names(threading.enumerate()))
    atexit.register(unlocked.strata_python_stop)  # the sampler, before Python is finalized

    if mode == "calls":
        # Threads started from now on: their first profile call (threading.setprofile's hook)
        # installs the agent's own hook in its place (PyEval_SetProfileAllThreads covers only
        # the threads already running).
        def _first_call(frame, event, arg):
            agent.strata_python_thread_started()

        threading.setprofile(_first_call)

    def _forked():
        agent.strata_python_forked()
        names([threading.current_thread()])

    _os.register_at_fork(after_in_child=_forked)

    # os._exit runs no atexit (multiprocessing's children end by it): close the file first.
    real_exit = _os._exit

    def _exit(code):
        try:
            names(threading.enumerate())
            unlocked.strata_python_exit()
        finally:
            real_exit(code)

    _os._exit = _exit

    # The target's own profiler takes the profile hook of its thread: say so in the trace.
    ours = {"busy": False, "told": set()}

    def _audit(event, args):
        if event != "sys.setprofile" or ours["busy"]:
            return
        caller = _sys._getframe(1)
        if caller.f_code.co_filename in (threading.__file__, __file__):
            return  # the agent's own hook, on a thread starting
        if threading.get_ident() in ours["told"]:
            return  # once per thread
        ours["told"].add(threading.get_ident())
        ours["busy"] = True
        try:
            agent.strata_python_warning(
                (
                    "the program set a profile function of its own (sys.setprofile, cProfile, ...) "
                    "on thread %d: that thread's Python calls are not recorded from then on"
                    % threading.get_native_id()
                ).encode()
            )
        finally:
            ours["busy"] = False

    if mode == "calls":
        _sys.addaudithook(_audit)


def _strata_chain():
    # The sitecustomize this one hides (Debian's, a virtualenv's), imported as Python would.
    here = _os.path.dirname(_os.path.abspath(__file__))
    me = _sys.modules.pop("sitecustomize", None)
    saved = list(_sys.path)
    _sys.path[:] = [p for p in _sys.path if _os.path.abspath(p or ".") != here]
    try:
        import importlib

        importlib.import_module("sitecustomize")
    except ImportError as e:
        if getattr(e, "name", None) != "sitecustomize":
            raise
        _sys.modules["sitecustomize"] = me
    finally:
        _sys.path[:] = saved


try:
    _strata_start()
except Exception as e:  # never the program's problem
    _sys.stderr.write("[strata] Python not recorded: %s: %s\n" % (type(e).__name__, e))
_strata_chain()
