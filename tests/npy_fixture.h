#pragma once
// Hand-made .npy files for the timer-array tests (tst_sections, tst_sections_view): a version 1
// header for a dtype, an order and a shape, then the values' bytes.
#include <initializer_list>
#include <string>

namespace strata::test {

// A .npy file: version 1 header for `descr`, `fortran`, shape (rows, cols), then the bytes.
inline std::string npy(const std::string& descr, bool fortran, const std::string& shape,
                       const std::string& data) {
    std::string header = "{'descr': '" + descr +
                         "', 'fortran_order': " + (fortran ? "True" : "False") +
                         ", 'shape': " + shape + ", }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY";
    out += char(1);
    out += char(0);
    out += char(header.size() & 0xff);
    out += char(header.size() >> 8);
    return out + header + data;
}

// The values' bytes as the host (little-endian) holds them.
template <typename T> std::string bytesOf(std::initializer_list<T> values) {
    std::string out;
    for (T v : values) out.append(reinterpret_cast<const char*>(&v), sizeof v);
    return out;
}

} // namespace strata::test
