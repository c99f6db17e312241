#include "io/formats/nsys/nsys_export.h"

#include <algorithm>
#include <array>

namespace strata {

namespace {

// Tables read for what they name, never shown as data of their own.
constexpr std::array<std::string_view, 12> kSupportTables = {"StringIds",
                                                             "PROCESSES",
                                                             "ThreadNames",
                                                             "TARGET_INFO_GPU",
                                                             "EXPORT_META_DATA",
                                                             "META_DATA_EXPORT",
                                                             "ANALYSIS_DETAILS",
                                                             "ProcessStreams",
                                                             "TARGET_INFO_SYSTEM_ENV",
                                                             "TARGET_INFO_SESSION_START_TIME",
                                                             "UnwindMethodType",
                                                             "ANALYSIS_FILE"};

bool isSupportTable(const std::string& t) {
    return t.starts_with("ENUM_") || t.starts_with("TARGET_INFO_") || t.starts_with("sqlite_") ||
           std::find(kSupportTables.begin(), kSupportTables.end(), t) != kSupportTables.end();
}

} // namespace

bool NsysExport::read(std::string* error) {
    const bool meta = db_.hasTable("EXPORT_META_DATA") || db_.hasTable("META_DATA_EXPORT");
    if (!meta && !db_.hasTable("CUPTI_ACTIVITY_KIND_KERNEL") && !db_.hasTable("NVTX_EVENTS")) {
        *error = "not an Nsight Systems export: no EXPORT_META_DATA, META_DATA_EXPORT, "
                 "CUPTI_ACTIVITY_KIND_KERNEL or NVTX_EVENTS table";
        return false;
    }
    if (!db_.hasTable("StringIds"))
        b_.addWarning("Nsight export: no StringIds table: names are shown as their ids");
    readMeta();
    readStrings();
    readProcessesAndThreads();
    readDevices();
    readRuntime();
    readKernels();
    readCopies();
    readSets();
    readSyncs();
    readGraphs();
    readNvtx();
    readOsrt();
    readGpuMetrics();
    readCpuSamples();
    for (const auto& [table, whys] : skipped_)
        for (const auto& [why, n] : whys)
            b_.addWarning("Nsight export: " + std::to_string(n) + " rows of " + table +
                          " skipped (" + why + ")");
    warnUnshown();
    return true;
}

// The product's version and the export schema's, nothing else of the table (it also holds
// paths, the host and the user's name).
void NsysExport::readMeta() {
    const std::string table =
        db_.hasTable("META_DATA_EXPORT") ? "META_DATA_EXPORT" : "EXPORT_META_DATA";
    if (!db_.hasTable(table)) return;
    SqliteStatement s = db_.prepare("SELECT name, value FROM " + table);
    while (s.valid() && s.step()) {
        const std::string_view name = s.text(0);
        if (name == "EXPORT_PRODUCT_VERSION")
            b_.setMetadata("nsys_version", std::string(s.text(1)));
        if (name == "EXPORT_SCHEMA_VERSION") b_.setMetadata("nsys_schema", std::string(s.text(1)));
    }
}

void NsysExport::readStrings() {
    if (!db_.hasTable("StringIds")) return;
    read_.push_back("StringIds");
    if (!strings_.load(db_, "SELECT id, value FROM StringIds", b_))
        b_.addWarning("Nsight export: table StringIds read up to an error (" + db_.error() +
                      "); names past it are shown empty");
}

void NsysExport::skipped(const std::string& table, const char* why) {
    ++skipped_[table][why];
}

std::string NsysExport::col(const std::string& table, const std::string& name) {
    return db_.columns(table).count(name) ? "\"" + name + "\"" : "NULL";
}

void NsysExport::readProcessesAndThreads() {
    eachRow("PROCESSES", "SELECT globalPid, " + col("PROCESSES", "pid") + ", name FROM PROCESSES",
            [&](SqliteStatement& s) {
                const int64_t pid = s.integer(1, nsysPid(s.integer(0)));
                if (!s.text(2).empty()) b_.setProcessName(pid, b_.intern(s.text(2)));
            });
    eachRow("ThreadNames", "SELECT globalTid, nameId FROM ThreadNames", [&](SqliteStatement& s) {
        const int64_t g = s.integer(0);
        b_.setThreadName(nsysPid(g), nsysTid(g), str(s.integer(1)));
    });
}

void NsysExport::readDevices() {
    const std::string t = "TARGET_INFO_GPU";
    const std::string id = db_.columns(t).count("cuDevice") ? "cuDevice" : "id";
    eachRow(t,
            "SELECT " + id + ", " + col(t, "name") + ", " + col(t, "smCount") + ", " +
                col(t, "totalMemory") + ", " + col(t, "clockRate") + " FROM " + t,
            [&](SqliteStatement& s) {
                DeviceInfo d;
                d.id = int32_t(s.integer(0));
                d.name = std::string(s.text(1));
                d.smCount = int32_t(s.integer(2));
                d.totalMemoryBytes = s.integer(3);
                d.clockRateKHz = s.integer(4) / 1000; // nsys: Hz
                b_.addDevice(d);
            });
}

// Every other table with rows is named: what the export held that Strata does not show.
void NsysExport::warnUnshown() {
    std::vector<std::string> unshown;
    for (const std::string& t : db_.tables()) {
        if (isSupportTable(t) || std::find(read_.begin(), read_.end(), t) != read_.end()) continue;
        if (db_.hasRows(t)) unshown.push_back(t);
    }
    if (unshown.empty()) return;
    std::string list;
    for (const std::string& t : unshown) list += (list.empty() ? "" : ", ") + t;
    b_.addWarning("Nsight export: not shown by Strata: " + list);
}

} // namespace strata
