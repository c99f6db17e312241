#pragma once
// The CPython C API the collector uses, found at run time in the process (dlsym): the collector
// is one library for every Python 3.10 to 3.13 and for programs that are not Python at all, so
// it links no libpython and includes no Python header. Only functions of the API are called,
// with two exceptions, both layouts CPython has kept from 3.10 to 3.13 in its default (GIL)
// build: PyObject's ob_type and PyCFunctionObject's m_ml/m_self (python_frames.cpp), used to
// name C functions the way the PyTorch profiler does.
#include <cstdint>
#include <string>

namespace strata::python {

struct PyObject;      // opaque: only pointers cross
struct PyFrameObject; // opaque
struct PyThreadState; // opaque
struct PyInterpreterState;

// Py_tracefunc's `what` (Include/cpython/pystate.h; the same numbers in every version).
enum TraceEvent : int {
    kCall = 0,
    kException = 1,
    kLine = 2,
    kReturn = 3,
    kCCall = 4,
    kCException = 5,
    kCReturn = 6,
};

using TraceFunc = int (*)(PyObject* obj, PyFrameObject* frame, int what, PyObject* arg);

struct Api {
    int major = 0, minor = 0;
    std::string version; // Py_GetVersion()'s first word, "3.11.2"

    // Threads and the GIL.
    int (*PyGILState_Ensure)() = nullptr;
    void (*PyGILState_Release)(int) = nullptr;
    int (*PyGILState_Check)() = nullptr;
    PyInterpreterState* (*PyInterpreterState_Main)() = nullptr;
    PyThreadState* (*PyInterpreterState_ThreadHead)(PyInterpreterState*) = nullptr;
    PyThreadState* (*PyThreadState_Next)(PyThreadState*) = nullptr;
    PyThreadState* (*PyThreadState_Get)() = nullptr;
    int (*Py_AddPendingCall)(int (*)(void*), void*) = nullptr; // run by the main thread
    int (*PyErr_SetInterruptEx)(int) = nullptr; // async-signal-safe: "signal N arrived"
    PyObject* (*PyCFunction_NewEx)(void* methodDef, PyObject* self, PyObject* module) = nullptr;
    PyObject* none = nullptr;                                           // &_Py_NoneStruct
    PyFrameObject* (*PyThreadState_GetFrame)(PyThreadState*) = nullptr; // new reference
    uint64_t (*PyThreadState_GetID)(PyThreadState*) = nullptr;
    // {thread ident: its current frame} of every thread with a frame, taken under the runtime's
    // lock of the thread list (sys._current_frames()): a thread state another thread is
    // creating meanwhile is never seen half made (walking the list without that lock, as
    // PyThreadState_Next does, can find one whose frame pointer is not set yet).
    PyObject* (*ThreadCurrentFrames)() = nullptr; // _PyThread_CurrentFrames, a new reference
    unsigned long (*PyThread_get_thread_ident)() = nullptr;
    int (*PyDict_Next)(PyObject*, intptr_t* pos, PyObject** key, PyObject** value) = nullptr;
    unsigned long (*PyLong_AsUnsignedLong)(PyObject*) = nullptr;
    // The profile hook: for every thread at once where it exists (3.12+), else one thread at a
    // time (the private _PyEval_SetProfile of 3.10/3.11, exported by both).
    void (*PyEval_SetProfile)(TraceFunc, PyObject*) = nullptr;
    void (*PyEval_SetProfileAllThreads)(TraceFunc, PyObject*) = nullptr;
    int (*SetProfileOf)(PyThreadState*, TraceFunc, PyObject*) = nullptr; // _PyEval_SetProfile

    // Frames and code.
    PyObject* (*PyFrame_GetCode)(PyFrameObject*) = nullptr;      // new reference
    PyFrameObject* (*PyFrame_GetBack)(PyFrameObject*) = nullptr; // new reference
    PyObject* (*PyObject_GetAttrString)(PyObject*, const char*) = nullptr;
    PyObject* (*PyObject_CallNoArgs)(PyObject*) = nullptr; // new reference
    const char* (*PyUnicode_AsUTF8)(PyObject*) = nullptr;
    long (*PyLong_AsLong)(PyObject*) = nullptr;
    void (*Py_IncRef)(PyObject*) = nullptr;
    void (*Py_DecRef)(PyObject*) = nullptr;
    void (*PyErr_Clear)() = nullptr;
    PyObject* (*PyErr_Occurred)() = nullptr;

    // Loads every function above; false with `why` ("not a Python process", "CPython 3.9 is
    // not supported (3.10 to 3.13)", "the interpreter exports no PyFrame_GetCode: statically
    // linked without its symbols?").
    bool load(std::string* why);
};

// The process's API, loaded once (null until a successful load()).
const Api* api();
bool loadApi(std::string* why);

} // namespace strata::python
