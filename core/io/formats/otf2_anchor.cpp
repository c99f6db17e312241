// OTF2 archives (io/formats/otf2/otf2_archive.h), recognised by the anchor file's signature.
#include "io/trace_reader.h"
#ifdef STRATA_HAVE_OTF2
#include "io/formats/otf2/otf2_archive.h"
#endif
#include "io/formats/whole_file_load.h"

namespace strata {
namespace {

// The anchor file starts with a byte and "OTF2" (OTF2's own buffer header).
bool isAnchor(std::string_view head) {
    return head.size() >= 6 && head.substr(2, 4) == "OTF2";
}

Recognition recognise(std::string_view head, std::string_view path) {
    if (isAnchor(head)) return kByContent;
    return lowerExtension(path) == ".otf2" ? kByName : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions&) {
#ifdef STRATA_HAVE_OTF2
    LoadResult r;
    TraceBuilder builder;
    std::string error;
    if (!readOtf2Archive(path, builder, &error)) {
        r.error = LoadError{path, LoadError::kInMessage, 0, error};
        return r;
    }
    r.trace = builder.build();
    return r;
#else
    return builtWithout(path, "an OTF2 archive", "OTF2", "libotf2-trace-dev");
#endif
}

} // namespace

extern const TraceReader kOtf2Reader{
    "otf2", "OTF2 archive (Score-P)", {".otf2"}, ReaderKind::Trace, recognise, load,
};

} // namespace strata
