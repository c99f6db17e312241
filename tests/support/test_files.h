#pragma once
// Bytes to and from files for the tests, and bytes built the way tools outside Strata write them:
// one definition of each (they used to be copied from test file to test file).
#include <initializer_list>
#include <string>

namespace strata::test {

// The whole file at `path`, byte for byte; empty when it cannot be read.
std::string readAll(const std::string& path);

// `bytes` as the whole of the file at `path` (created or truncated); false when it cannot be.
bool writeAll(const std::string& path, const std::string& bytes);

// `bytes` as the file `name` in `folder` (a test's temporary folder); its path.
std::string writeIn(const std::string& folder, const std::string& name, const std::string& bytes);

// A file named libstrata_collector.so in `folder` that is no library, named in
// $STRATA_COLLECTOR: the launcher needs a collector to inject, and targets that never load CUDA
// (the stand-in target, the collector harness that links its own) never load it. Its path.
std::string standInCollectorFile(const std::string& folder);

// `data` as a gzip stream (one member, level 6), as `gzip` writes it.
std::string gzip(const std::string& data);

// A .npy file: a version 1 header for `descr` (such as "<i8"), `fortran` order and `shape` (such
// as "(3, 2)"), then `data`, the values' bytes.
std::string npy(const std::string& descr, bool fortran, const std::string& shape,
                const std::string& data);

// The values' bytes as the host (little-endian) holds them.
template <typename T> std::string bytesOf(std::initializer_list<T> values) {
    std::string out;
    for (T v : values) out.append(reinterpret_cast<const char*>(&v), sizeof v);
    return out;
}

} // namespace strata::test
