#pragma once
// The names of CUPTI's copy and memory kinds, the one table for every place that writes, reads or
// shows them: the collector names its copies and sets with them, the JSON reader takes the kinds
// back out of Kineto's names ("Memcpy HtoD (Pageable -> Device)"), the Details panel shows them.
// The numbers are CUPTI's own (CUpti_ActivityMemcpyKind, CUpti_ActivityMemoryKind), as
// GpuActivity's copyKind, srcMemory and dstMemory hold them; the collector checks them against
// its CUPTI headers at compile time. Plain std: the collector links this.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace strata {

// CUpti_ActivityMemcpyKind by value; 0 is CUPTI's UNKNOWN and has no name.
inline constexpr std::array<std::string_view, 11> kCopyKindNames = {
    "", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"};
// CUpti_ActivityMemoryKind by value; 0 is CUPTI's UNKNOWN and has no name.
inline constexpr std::array<std::string_view, 8> kMemoryKindNames = {
    "", "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static"};

// "HtoD" for 1, ...; empty for 0 and for a number past the table.
constexpr std::string_view copyKindName(uint32_t kind) {
    return kind < kCopyKindNames.size() ? kCopyKindNames[kind] : std::string_view();
}
// "Pageable" for 1, ...; empty for 0 and for a number past the table.
constexpr std::string_view memoryKindName(uint32_t kind) {
    return kind < kMemoryKindNames.size() ? kMemoryKindNames[kind] : std::string_view();
}
// The number of an exact name (case matters), 0 for any other text.
constexpr uint8_t copyKindFromName(std::string_view name) {
    for (size_t k = 1; k < kCopyKindNames.size(); ++k)
        if (kCopyKindNames[k] == name) return uint8_t(k);
    return 0;
}
constexpr uint8_t memoryKindFromName(std::string_view name) {
    for (size_t k = 1; k < kMemoryKindNames.size(); ++k)
        if (kMemoryKindNames[k] == name) return uint8_t(k);
    return 0;
}

// The slice names of copies and sets, as Kineto writes them; a kind without a name is "Unknown".
// "Memcpy HtoD (Pageable -> Device)"
std::string memcpyName(uint32_t copyKind, uint32_t srcMemoryKind, uint32_t dstMemoryKind);
// "Memcpy PtoP (Device 0 -> Device 1)": a copy between GPUs names the devices, not memory kinds.
std::string peerMemcpyName(uint32_t srcDevice, uint32_t dstDevice);
// "Memset (Device)"
std::string memsetName(uint32_t memoryKind);

} // namespace strata
