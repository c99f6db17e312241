#include "python/python_api.h"

#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <mutex>

namespace strata::python {

namespace {

template <typename F> bool find(F* out, const char* name, std::string* missing) {
    *out = reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
    if (!*out && missing->empty()) *missing = name;
    return *out != nullptr;
}

Api g_api;
bool g_loaded = false;

} // namespace

bool Api::load(std::string* why) {
    using VersionFn = const char* (*)();
    auto getVersion = reinterpret_cast<VersionFn>(dlsym(RTLD_DEFAULT, "Py_GetVersion"));
    if (!getVersion) {
        *why = "no CPython in this process (Py_GetVersion not found: not Python, or an "
               "interpreter statically linked without exporting its symbols)";
        return false;
    }
    const char* v = getVersion();
    version.assign(v, std::strcspn(v, " "));
    if (std::sscanf(v, "%d.%d", &major, &minor) != 2) {
        *why = "cannot read the Python version from '" + version + "'";
        return false;
    }
    if (major != 3 || minor < 10 || minor > 13) {
        *why = "CPython " + version + " is not supported (3.10 to 3.13)";
        return false;
    }
    std::string missing;
    find(&PyGILState_Ensure, "PyGILState_Ensure", &missing);
    find(&PyGILState_Release, "PyGILState_Release", &missing);
    find(&PyGILState_Check, "PyGILState_Check", &missing);
    find(&PyInterpreterState_Main, "PyInterpreterState_Main", &missing);
    find(&PyInterpreterState_ThreadHead, "PyInterpreterState_ThreadHead", &missing);
    find(&PyThreadState_Next, "PyThreadState_Next", &missing);
    find(&PyThreadState_Get, "PyThreadState_Get", &missing);
    find(&Py_AddPendingCall, "Py_AddPendingCall", &missing);
    find(&PyErr_SetInterruptEx, "PyErr_SetInterruptEx", &missing);
    find(&PyCFunction_NewEx, "PyCFunction_NewEx", &missing);
    none = static_cast<PyObject*>(dlsym(RTLD_DEFAULT, "_Py_NoneStruct"));
    if (!none && missing.empty()) missing = "_Py_NoneStruct";
    find(&PyThreadState_GetFrame, "PyThreadState_GetFrame", &missing);
    find(&PyThreadState_GetID, "PyThreadState_GetID", &missing);
    find(&ThreadCurrentFrames, "_PyThread_CurrentFrames", &missing);
    find(&PyThread_get_thread_ident, "PyThread_get_thread_ident", &missing);
    find(&PyDict_Next, "PyDict_Next", &missing);
    find(&PyLong_AsUnsignedLong, "PyLong_AsUnsignedLong", &missing);
    find(&PyEval_SetProfile, "PyEval_SetProfile", &missing);
    if (minor >= 12)
        find(&PyEval_SetProfileAllThreads, "PyEval_SetProfileAllThreads", &missing);
    else
        find(&SetProfileOf, "_PyEval_SetProfile", &missing);
    find(&PyFrame_GetCode, "PyFrame_GetCode", &missing);
    find(&PyFrame_GetBack, "PyFrame_GetBack", &missing);
    find(&PyObject_GetAttrString, "PyObject_GetAttrString", &missing);
    find(&PyObject_CallNoArgs, "PyObject_CallNoArgs", &missing);
    find(&PyUnicode_AsUTF8, "PyUnicode_AsUTF8", &missing);
    find(&PyLong_AsLong, "PyLong_AsLong", &missing);
    find(&Py_IncRef, "Py_IncRef", &missing);
    find(&Py_DecRef, "Py_DecRef", &missing);
    find(&PyErr_Clear, "PyErr_Clear", &missing);
    find(&PyErr_Occurred, "PyErr_Occurred", &missing);
    if (!missing.empty()) {
        *why = "CPython " + version + " exports no " + missing;
        return false;
    }
    return true;
}

const Api* api() {
    return g_loaded ? &g_api : nullptr;
}

bool loadApi(std::string* why) {
    static std::mutex m;
    std::lock_guard lock(m);
    if (g_loaded) return true;
    Api a;
    if (!a.load(why)) return false;
    g_api = a;
    g_loaded = true;
    return true;
}

} // namespace strata::python
