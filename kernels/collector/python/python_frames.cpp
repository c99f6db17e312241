#include "python/python_frames.h"

#include <cstring>

namespace strata::python {

namespace {

// PyObject's ob_type and PyTypeObject's tp_name (after PyObject_VAR_HEAD), and
// PyCFunctionObject's m_ml and m_self (after PyObject_HEAD): the same from 3.10 to 3.13.
const void* typeOf(PyObject* o) {
    return *reinterpret_cast<void* const*>(reinterpret_cast<const char*>(o) + sizeof(void*));
}
const char* typeName(const void* type) {
    return *reinterpret_cast<const char* const*>(static_cast<const char*>(type) +
                                                 3 * sizeof(void*));
}
struct CFunctionView {
    const void* methodDef; // PyMethodDef*, whose first member is the name
    PyObject* self;
};
CFunctionView cFunctionOf(PyObject* f) {
    auto at = [f](int slot) {
        return *reinterpret_cast<void* const*>(reinterpret_cast<const char*>(f) +
                                               slot * sizeof(void*));
    };
    return {at(2), static_cast<PyObject*>(at(3))};
}

std::string attrText(const Api& a, PyObject* o, const char* name) {
    PyObject* v = a.PyObject_GetAttrString(o, name);
    if (!v) {
        a.PyErr_Clear();
        return "?";
    }
    const char* s = a.PyUnicode_AsUTF8(v);
    std::string out = s ? s : "?";
    if (!s) a.PyErr_Clear();
    a.Py_DecRef(v);
    return out;
}

long attrLong(const Api& a, PyObject* o, const char* name) {
    PyObject* v = a.PyObject_GetAttrString(o, name);
    if (!v) {
        a.PyErr_Clear();
        return 0;
    }
    const long n = a.PyLong_AsLong(v);
    if (a.PyErr_Occurred()) a.PyErr_Clear();
    a.Py_DecRef(v);
    return n;
}

} // namespace

uint32_t FrameTable::add(std::string name) {
    std::lock_guard lock(namesMutex_);
    names_.push_back(std::move(name));
    return uint32_t(names_.size());
}

uint32_t FrameTable::ofCode(PyObject* code) {
    if (auto it = codes_.find(code); it != codes_.end()) return it->second;
    const Api& a = *api();
    std::string n = attrText(a, code, "co_filename");
    n += "(" + std::to_string(attrLong(a, code, "co_firstlineno")) + "): ";
    n += attrText(a, code, "co_name");
    a.Py_IncRef(code); // kept: its address names this function for the whole run
    const uint32_t id = add(std::move(n));
    codes_.emplace(code, id);
    return id;
}

uint32_t FrameTable::ofFrame(PyFrameObject* frame) {
    PyObject* code = api()->PyFrame_GetCode(frame);
    const uint32_t id = ofCode(code);
    api()->Py_DecRef(code);
    return id;
}

uint32_t FrameTable::ofCFunction(PyObject* f) {
    const void* type = typeOf(f);
    if (std::strcmp(typeName(type), "builtin_function_or_method") != 0) {
        const auto key = std::make_pair(type, static_cast<const void*>(nullptr));
        if (auto it = cFunctions_.find(key); it != cFunctions_.end()) return it->second;
        const uint32_t id = add(std::string("<built-in ") + typeName(type) + ">");
        cFunctions_.emplace(key, id);
        return id;
    }
    const CFunctionView v = cFunctionOf(f);
    const void* selfType = v.self ? typeOf(v.self) : nullptr;
    const auto key = std::make_pair(v.methodDef, selfType);
    if (auto it = cFunctions_.find(key); it != cFunctions_.end()) return it->second;
    const char* name = *static_cast<const char* const*>(v.methodDef);
    std::string n;
    if (!selfType || std::strcmp(typeName(selfType), "module") == 0)
        n = std::string("<built-in function ") + name + ">";
    else
        n = std::string("<built-in method ") + name + " of " + typeName(selfType) + " object>";
    const uint32_t id = add(std::move(n));
    cFunctions_.emplace(key, id);
    return id;
}

std::string FrameTable::name(uint32_t id) const {
    std::lock_guard lock(namesMutex_);
    return id >= 1 && id <= names_.size() ? names_[id - 1] : std::string();
}

} // namespace strata::python
