#include "io/formats/otf2/otf2_archive.h"

#include <otf2/otf2.h>

#include <cstdarg>
#include <cstdio>
#include <map>
#include <mutex>
#include <unordered_map>

namespace strata {

namespace {

struct Location {
    int64_t pid = 0;
    bool gpu = false;
    TrackId track = 0;
};

struct Archive {
    TraceBuilder* b = nullptr;
    uint64_t ticksPerSecond = 1000000000;
    std::unordered_map<OTF2_StringRef, std::string> strings;
    std::unordered_map<OTF2_RegionRef, OTF2_StringRef> regions;
    std::unordered_map<OTF2_LocationRef, Location> locations;
    uint64_t handled = 0, otherEvents = 0;
    StringId mpi = 0, otf2 = 0, kernel = 0;

    TimeNs ns(OTF2_TimeStamp t) const {
        return TimeNs((unsigned __int128)t * 1000000000u / ticksPerSecond);
    }
    std::string_view str(OTF2_StringRef s) const {
        const auto it = strings.find(s);
        return it != strings.end() ? std::string_view(it->second) : std::string_view();
    }
    StringId region(OTF2_RegionRef r) {
        const auto it = regions.find(r);
        return b->intern(it != regions.end() ? str(it->second) : std::string_view("region"));
    }
};

// OTF2's messages, which it prints to stderr unless given a callback: the first one of the read
// on this thread kept for the error Strata gives (the callback is process-wide, the message
// per thread).
thread_local std::string* firstLibraryError = nullptr;

OTF2_ErrorCode keepFirstError(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code,
                              const char* format, va_list va) {
    if (firstLibraryError && firstLibraryError->empty()) {
        char text[512];
        std::vsnprintf(text, sizeof text, format, va);
        *firstLibraryError = text;
    }
    return code;
}

Archive& of(void* user) {
    return *static_cast<Archive*>(user);
}

OTF2_CallbackCode onClock(void* u, uint64_t resolution, uint64_t, uint64_t, uint64_t) {
    if (resolution) of(u).ticksPerSecond = resolution;
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode onString(void* u, OTF2_StringRef self, const char* s) {
    of(u).strings[self] = s ? s : "";
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode onRegion(void* u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef,
                           OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm, OTF2_RegionFlag,
                           OTF2_StringRef, uint32_t, uint32_t) {
    of(u).regions[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode onGroup(void* u, OTF2_LocationGroupRef self, OTF2_StringRef name,
                          OTF2_LocationGroupType, OTF2_SystemTreeNodeRef, OTF2_LocationGroupRef) {
    Archive& a = of(u);
    a.b->setProcessName(int64_t(self), a.b->intern(a.str(name)));
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode onLocation(void* u, OTF2_LocationRef self, OTF2_StringRef name,
                             OTF2_LocationType type, uint64_t, OTF2_LocationGroupRef group) {
    Archive& a = of(u);
    Location l;
    l.pid = int64_t(group);
    l.gpu = type == OTF2_LOCATION_TYPE_ACCELERATOR_STREAM; // CUDA/HIP streams (once "GPU")
    if (l.gpu) {
        l.track = a.b->gpuStreamTrack(int32_t(group), int64_t(self), int64_t(group), int64_t(self));
    } else {
        l.track = a.b->threadTrack(l.pid, int64_t(self));
        a.b->setThreadName(l.pid, int64_t(self), a.b->intern(a.str(name)));
    }
    a.locations[self] = l;
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onEnter(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t, void* u,
                          OTF2_AttributeList*, OTF2_RegionRef region) {
    Archive& a = of(u);
    ++a.handled;
    const Location& l = a.locations[loc];
    SliceInput in;
    in.start = a.ns(t);
    in.name = a.region(region);
    in.category = l.gpu ? a.kernel : a.otf2;
    in.kind = l.gpu ? SliceKind::Kernel : SliceKind::Generic;
    a.b->addBegin(l.track, in);
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode onLeave(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t, void* u,
                          OTF2_AttributeList*, OTF2_RegionRef region) {
    Archive& a = of(u);
    ++a.handled;
    a.b->addEnd(a.locations[loc].track, a.ns(t), a.region(region), kNoArgs);
    return OTF2_CALLBACK_SUCCESS;
}
void mpiMessage(Archive& a, OTF2_LocationRef loc, OTF2_TimeStamp t, const char* what,
                const char* peerKey, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                uint64_t length) {
    TraceBuilder& b = *a.b;
    ++a.handled;
    b.args().begin();
    b.args().addUInt(b.intern(peerKey), peer);
    b.args().addUInt(b.intern("communicator"), comm);
    b.args().addUInt(b.intern("tag"), tag);
    b.args().addUInt(b.intern("bytes"), length);
    b.addInstant(a.locations[loc].track, a.ns(t), b.intern(what), a.mpi, b.args().finish());
}
OTF2_CallbackCode onSend(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t, void* u,
                         OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                         uint64_t length) {
    mpiMessage(of(u), loc, t, "MPI send", "receiver", receiver, comm, tag, length);
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode onRecv(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t, void* u,
                         OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                         uint64_t length) {
    mpiMessage(of(u), loc, t, "MPI receive", "sender", sender, comm, tag, length);
    return OTF2_CALLBACK_SUCCESS;
}
bool readDefinitions(OTF2_Reader* r, Archive& a, std::string* error) {
    OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(r);
    if (!defs) {
        *error = "its global definitions (the .def beside the anchor) cannot be read";
        return false;
    }
    OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, onClock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, onString);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, onRegion);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, onGroup);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, onLocation);
    OTF2_Reader_RegisterGlobalDefCallbacks(r, defs, cb, &a);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t read = 0;
    const OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(r, defs, &read);
    OTF2_Reader_CloseGlobalDefReader(r, defs);
    if (rc != OTF2_SUCCESS) {
        *error = std::string("its global definitions cannot be read: ") + OTF2_Error_GetName(rc);
        return false;
    }
    return true;
}

// Each location's definitions (its mappings and clock offsets), where its .def can be read.
void readLocalDefinitions(OTF2_Reader* r, Archive& a) {
    if (OTF2_Reader_OpenDefFiles(r) != OTF2_SUCCESS) return;
    for (const auto& [id, loc] : a.locations) {
        if (OTF2_DefReader* d = OTF2_Reader_GetDefReader(r, id)) {
            uint64_t n = 0;
            OTF2_Reader_ReadAllLocalDefinitions(r, d, &n);
            OTF2_Reader_CloseDefReader(r, d);
        }
    }
    OTF2_Reader_CloseDefFiles(r);
}

// Location by location (not through OTF2's merged global reader, which stops every location at
// the first bad event file): a missing or torn .evt loses only its own events after the damage.
void readEvents(OTF2_Reader* r, Archive& a) {
    for (const auto& [id, loc] : a.locations) OTF2_Reader_SelectLocation(r, id);
    readLocalDefinitions(r, a);
    if (OTF2_Reader_OpenEvtFiles(r) != OTF2_SUCCESS) {
        a.b->addWarning("otf2: the event files cannot be opened");
        return;
    }
    OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, onEnter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, onLeave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, onSend);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, onRecv);
    uint64_t read = 0;
    for (const auto& [id, loc] : a.locations) {
        OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(r, id);
        if (!events) {
            a.b->addWarning("otf2: the events of location " + std::to_string(id) +
                            " cannot be read");
            continue;
        }
        OTF2_Reader_RegisterEvtCallbacks(r, events, cb, &a);
        uint64_t n = 0;
        const OTF2_ErrorCode rc = OTF2_Reader_ReadAllLocalEvents(r, events, &n);
        read += n;
        if (rc != OTF2_SUCCESS)
            a.b->addWarning("otf2: reading the events of location " + std::to_string(id) +
                            " stopped: " + OTF2_Error_GetName(rc) + " (" + std::to_string(n) +
                            " events before it kept)");
        OTF2_Reader_CloseEvtReader(r, events);
    }
    OTF2_EvtReaderCallbacks_Delete(cb);
    a.otherEvents = read > a.handled ? read - a.handled : 0;
    OTF2_Reader_CloseEvtFiles(r);
}

} // namespace

bool readOtf2Archive(const std::string& anchor, TraceBuilder& builder, std::string* error) {
    static std::once_flag quiet;
    std::call_once(quiet, [] { OTF2_Error_RegisterCallback(keepFirstError, nullptr); });
    std::string library;
    firstLibraryError = &library;
    struct Reset {
        ~Reset() { firstLibraryError = nullptr; }
    } reset;
    const auto said = [&] { return library.empty() ? std::string() : " (OTF2: " + library + ")"; };
    OTF2_Reader* r = OTF2_Reader_Open(anchor.c_str());
    if (!r) {
        *error = "not an OTF2 archive that can be opened" + said();
        return false;
    }
    OTF2_Reader_SetSerialCollectiveCallbacks(r);
    Archive a;
    a.b = &builder;
    a.mpi = builder.intern("mpi");
    a.otf2 = builder.intern("otf2");
    a.kernel = builder.intern("kernel");
    const bool ok = readDefinitions(r, a, error);
    if (!ok) *error += said();
    if (ok) readEvents(r, a);
    OTF2_Reader_Close(r);
    if (ok && a.otherEvents)
        builder.addWarning("otf2: " + std::to_string(a.otherEvents) +
                           " events of kinds Strata does not show (program begin/end, "
                           "collectives, metrics, ...)");
    return ok;
}

} // namespace strata
