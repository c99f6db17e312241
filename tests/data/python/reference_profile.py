# The independent reference for tst_python_calls (issue 45): runs a Python program under a
# profile function written in Python itself (sys.setprofile, and threading.setprofile for the
# threads it starts) and writes every call it saw, paired with its return, as JSON:
# {"threads": {"MainThread": [[name, parent], ...], ...}} with names as the PyTorch profiler
# writes them: "file.py(LINE): function" (LINE: the function's first line),
# "<built-in function NAME>", "<built-in method NAME of TYPE object>".
#   python reference_profile.py OUT.json PROGRAM.py [ARGS...]
import json
import runpy
import sys
import threading

_stacks = {}  # thread ident -> open frame names
_slices = {}  # thread ident -> [[name, parent], ...]
_names = {}  # thread ident -> threading's name


def _name(frame, event, arg):
    if event.startswith("c_"):
        # CPython's own repr of a builtin: "<built-in method NAME of TYPE object at 0x...>"
        # (TYPE: the type's tp_name) or "<built-in function NAME>", without the address.
        text = repr(arg)
        at = text.rfind(" at 0x")
        return text[:at] + ">" if at >= 0 else text
    code = frame.f_code
    return "%s(%d): %s" % (code.co_filename, code.co_firstlineno, code.co_name)


def _profile(frame, event, arg):
    ident = threading.get_ident()
    if ident not in _names:
        thread = threading._active.get(ident)
        if thread is not None:
            _names[ident] = thread.name
    stack = _stacks.setdefault(ident, [])
    name = _name(frame, event, arg)
    if event in ("call", "c_call"):
        stack.append(name)
        return
    if name not in stack:
        return  # entered before this profile function was set
    out = _slices.setdefault(ident, [])
    while stack:
        top = stack.pop()
        out.append([top, stack[-1] if stack else ""])
        if top == name:
            break


def main():
    out, program = sys.argv[1], sys.argv[2]
    sys.argv = sys.argv[2:]
    threading.setprofile(_profile)
    sys.setprofile(_profile)
    try:
        runpy.run_path(program, run_name="__main__")
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    threads = {}
    for ident, slices in _slices.items():
        threads.setdefault(_names.get(ident, str(ident)), []).extend(slices)
    with open(out, "w") as f:
        json.dump({"threads": threads}, f)


main()
