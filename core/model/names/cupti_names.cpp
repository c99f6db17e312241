#include "model/names/cupti_names.h"

namespace strata {

namespace {

std::string_view orUnknown(std::string_view name) {
    return name.empty() ? std::string_view("Unknown") : name;
}

} // namespace

std::string memcpyName(uint32_t copyKind, uint32_t srcMemoryKind, uint32_t dstMemoryKind) {
    std::string s = "Memcpy ";
    s += orUnknown(copyKindName(copyKind));
    s += " (";
    s += orUnknown(memoryKindName(srcMemoryKind));
    s += " -> ";
    s += orUnknown(memoryKindName(dstMemoryKind));
    s += ')';
    return s;
}

std::string peerMemcpyName(uint32_t srcDevice, uint32_t dstDevice) {
    return "Memcpy PtoP (Device " + std::to_string(srcDevice) + " -> Device " +
           std::to_string(dstDevice) + ')';
}

std::string memsetName(uint32_t memoryKind) {
    std::string s = "Memset (";
    s += orUnknown(memoryKindName(memoryKind));
    s += ')';
    return s;
}

} // namespace strata
