#include "io/export/trace_set_merge.h"

#include "io/json/chrome_json_reader.h"

namespace strata {
namespace {

// The export's bytes, kept in memory.
class StringSink : public ExportSink {
public:
    bool write(std::string_view bytes) override {
        text.append(bytes);
        return true;
    }
    bool commit() override { return true; }
    void abort() override { text.clear(); }
    std::string error() const override { return {}; }
    size_t bytesOut() const override { return text.size(); }
    std::string text;
};

} // namespace

LoadResult mergeTraceSet(const std::vector<PerfettoExportPart>& parts, const std::string& name,
                         const LoadOptions& options) {
    StringSink sink;
    const PerfettoExportResult written = writePerfettoJsonSet(parts, sink);
    if (!written.ok) {
        LoadResult r;
        r.error = LoadError{name, LoadError::kInMessage, 0,
                            "the set could not be merged: " + written.error};
        return r;
    }
    LoadResult r = readChromeJsonBuffer(sink.text, name, options);
    r.format = "chrome-json";
    return r;
}

} // namespace strata
