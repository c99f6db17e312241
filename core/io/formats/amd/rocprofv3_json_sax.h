#pragma once
// The events of nlohmann's SAX parser over a rocprofv3 JSON (io/formats/amd/rocprofv3_json.h), as
// the tables and records of io/formats/amd/rocprofv3_json_tables.h, handed to the emitter as each
// record ends: the file is never held whole, as text or as a tree. Only the values Strata shows
// are kept; everything else is parsed past.
#include "io/formats/amd/rocprofv3_json_emit.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace strata {

class Rocprofv3JsonSax {
public:
    using json = nlohmann::json;
    explicit Rocprofv3JsonSax(Rocprofv3JsonEmitter& emitter) : emit_(emitter) {}

    // nlohmann::json_sax's events.
    bool null() { return scalar(Scalar{}); }
    bool boolean(bool) { return scalar(Scalar{}); }
    bool number_integer(json::number_integer_t v) { return scalar(Scalar{true, v, uint64_t(v)}); }
    bool number_unsigned(json::number_unsigned_t v) { return scalar(Scalar{true, int64_t(v), v}); }
    bool number_float(json::number_float_t v, const json::string_t&);
    bool string(json::string_t& s);
    bool binary(json::binary_t&) { return scalar(Scalar{}); }
    bool start_object(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool start_array(std::size_t) { return open(true); }
    bool end_array() { return close(); }
    bool key(json::string_t& k);
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e);

    // After the parse (whole or stopped): the records still waiting for their process's tables
    // are handed over.
    void finish();
    // Set: the parse stopped at `errorOffset` (the parser's message in `errorMessage`).
    bool failed() const { return failed_; }
    uint64_t errorOffset() const { return errorOffset_; }
    const std::string& errorMessage() const { return errorMessage_; }
    // Whether the top level was an object whose "rocprofiler-sdk-tool" held a process.
    size_t processes() const { return processes_; }

    // What a JSON container is to the reader; the values' keys, as far as the reader tells them
    // apart (rocprofv3_json_sax.cpp).
    enum class Role : uint8_t;
    enum class Key : uint8_t;

private:
    struct Scalar {
        bool number = false;
        int64_t i = 0;
        uint64_t u = 0;
    };
    struct Frame {
        Role role;
        Key key;           // the key of the value read next (objects)
        uint8_t array = 0; // Records: the index of its array in kRocprofv3Arrays
        Key part;          // RecordPart: the key it sits under
    };

    bool open(bool array);
    bool close();
    bool scalar(const Scalar& v);
    Role childRole(const Frame& parent, bool array);
    void recordValue(const Frame& f, const Scalar& v);
    void tableValue(const Frame& f, const Scalar& v, const std::string* text);
    void beginRecords();
    void recordDone();

    Rocprofv3JsonEmitter& emit_;
    std::vector<Frame> stack_;
    std::unique_ptr<Rocprofv3Process> process_;
    bool began_ = false; // the current process's records go to the emitter as they end
    size_t processes_ = 0;
    std::vector<Rocprofv3Record> waiting_;
    Rocprofv3Record record_;
    std::string notShown_; // the name of the not-shown array being read
    uint64_t messageKey_ = 0;
    std::string messageValue_;
    bool failed_ = false;
    uint64_t errorOffset_ = 0;
    std::string errorMessage_;
};

} // namespace strata
