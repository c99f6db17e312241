#include "io/formats/amd/rocprofv3_json_sax.h"

#include "io/formats/amd/rocprofv3_json_keys.h"

#include <unordered_map>

namespace strata {

namespace {

using Role = Rocprofv3JsonSax::Role;
using Key = Rocprofv3JsonSax::Key;

Key keyOf(std::string_view k) {
    static const std::unordered_map<std::string_view, Key> keys = {
        {"rocprofiler-sdk-tool", Key::Tool},
        {"metadata", Key::Metadata},
        {"pid", Key::Pid},
        {"command", Key::Command},
        {"agents", Key::Agents},
        {"id", Key::Id},
        {"handle", Key::Handle},
        {"type", Key::Type},
        {"logical_node_type_id", Key::LogicalNodeTypeId},
        {"gpu_index", Key::GpuIndex},
        {"cu_count", Key::CuCount},
        {"name", Key::Name},
        {"product_name", Key::ProductName},
        {"model_name", Key::ModelName},
        {"strings", Key::Strings},
        {"buffer_records", Key::BufferRecords},
        {"marker_api", Key::MarkerApi},
        {"correlation_id", Key::CorrelationId},
        {"external", Key::External},
        {"internal", Key::Internal},
        {"kind", Key::Kind},
        {"operations", Key::Operations},
        {"key", Key::MapKey},
        {"value", Key::MapValue},
        {"kernel_symbols", Key::KernelSymbols},
        {"kernel_id", Key::KernelId},
        {"kernel_name", Key::KernelName},
        {"formatted_kernel_name", Key::FormattedKernelName},
        {"demangled_kernel_name", Key::DemangledKernelName},
        {"group_segment_size", Key::GroupSegmentSize},
        {"arch_vgpr_count", Key::ArchVgprCount},
        {"accum_vgpr_count", Key::AccumVgprCount},
        {"callback_records", Key::CallbackRecords},
        {"operation", Key::Operation},
        {"thread_id", Key::ThreadId},
        {"start_timestamp", Key::StartTimestamp},
        {"end_timestamp", Key::EndTimestamp},
        {"dispatch_info", Key::DispatchInfo},
        {"stream_id", Key::StreamId},
        {"src_agent_id", Key::SrcAgentId},
        {"dst_agent_id", Key::DstAgentId},
        {"bytes", Key::Bytes},
        {"agent_id", Key::AgentId},
        {"queue_id", Key::QueueId},
        {"workgroup_size", Key::WorkgroupSize},
        {"grid_size", Key::GridSize},
        {"x", Key::X},
        {"y", Key::Y},
        {"z", Key::Z},
    };
    const auto it = keys.find(k);
    return it == keys.end() ? Key::Other : it->second;
}

// The child container of a record's own object that the reader looks into.
bool recordPart(Key k) {
    return k == Key::CorrelationId || k == Key::DispatchInfo || k == Key::StreamId ||
           k == Key::SrcAgentId || k == Key::DstAgentId;
}
bool dispatchPart(Key k) {
    return k == Key::AgentId || k == Key::QueueId || k == Key::WorkgroupSize || k == Key::GridSize;
}
// A record's numbers: another value there makes the record bad.
bool recordNumber(Key k) {
    return k == Key::Kind || k == Key::Operation || k == Key::ThreadId ||
           k == Key::StartTimestamp || k == Key::EndTimestamp || k == Key::Bytes;
}

} // namespace

bool Rocprofv3JsonSax::key(json::string_t& k) {
    Frame& f = stack_.back();
    if (f.role == Role::Skip) return true;
    f.key = keyOf(k);
    if (f.role == Role::BufferRecords || f.role == Role::CallbackRecords)
        notShown_ = f.role == Role::CallbackRecords ? "callback_records." + k : k;
    return true;
}

Rocprofv3JsonSax::Role Rocprofv3JsonSax::childRole(const Frame& parent, bool array) {
    const Key k = parent.key;
    const bool tables = !began_; // a process's tables are read until its records are shown
    switch (parent.role) {
    case Role::Root:
        return k != Key::Tool ? Role::Skip : array ? Role::ToolList : Role::Process;
    case Role::ToolList:
        return array ? Role::Skip : Role::Process;
    case Role::Process:
        if (k == Key::Metadata && !array && tables) return Role::Metadata;
        if (k == Key::Agents && array && tables) return Role::Agents;
        if (k == Key::Strings && !array && tables) return Role::Strings;
        if (k == Key::KernelSymbols && array && tables) return Role::Symbols;
        if (k == Key::BufferRecords && !array) return Role::BufferRecords;
        if (k == Key::CallbackRecords && !array) return Role::CallbackRecords;
        return Role::Skip;
    case Role::Metadata:
        return k == Key::Command && array ? Role::Command : Role::Skip;
    case Role::Agents:
        return array ? Role::Skip : Role::Agent;
    case Role::Agent:
        return k == Key::Id && !array ? Role::AgentId : Role::Skip;
    case Role::Strings:
        if (k == Key::BufferRecords && array) return Role::KindNames;
        if (k == Key::MarkerApi && array) return Role::MarkerMessages;
        return k == Key::CorrelationId && !array ? Role::CorrelationStrings : Role::Skip;
    case Role::KindNames:
        return array ? Role::Skip : Role::KindName;
    case Role::KindName:
        return k == Key::Operations && array ? Role::Operations : Role::Skip;
    case Role::MarkerMessages:
        return array ? Role::Skip : Role::MarkerMessage;
    case Role::CorrelationStrings:
        return k == Key::External && array ? Role::RenamedKernels : Role::Skip;
    case Role::RenamedKernels:
        return array ? Role::Skip : Role::RenamedKernel;
    case Role::Symbols:
        return array ? Role::Skip : Role::Symbol;
    case Role::BufferRecords:
        return array ? Role::Records : Role::Skip;
    case Role::Records:
        return array ? Role::Skip : Role::Record;
    case Role::CallbackRecords:
        return array ? Role::NotShownRecords : Role::Skip;
    case Role::Record:
        if (recordPart(k) && !array) return Role::RecordPart;
        if (recordNumber(k)) record_.bad = true;
        return Role::Skip;
    case Role::RecordPart:
        if (parent.part == Key::DispatchInfo && dispatchPart(k) && !array) return Role::RecordPart;
        if (k != Key::Other) record_.bad = true;
        return Role::Skip;
    default:
        return Role::Skip;
    }
}

bool Rocprofv3JsonSax::open(bool array) {
    if (stack_.empty()) {
        if (array) {
            failed_ = true;
            errorMessage_ = "the top level is an array, not rocprofv3's object";
            return false;
        }
        stack_.push_back({Role::Root, Key::None, 0, Key::None});
        return true;
    }
    const Frame& parent = stack_.back();
    Frame f{childRole(parent, array), Key::None, 0, Key::None};
    switch (f.role) {
    case Role::Process:
        if (process_ && !began_) beginRecords();
        process_ = std::make_unique<Rocprofv3Process>();
        began_ = false;
        ++processes_;
        break;
    case Role::Agent:
        process_->agents.emplace_back();
        break;
    case Role::KindName:
        process_->kinds.emplace_back();
        break;
    case Role::Symbol:
        process_->symbols.emplace_back();
        break;
    case Role::MarkerMessage:
    case Role::RenamedKernel:
        messageKey_ = 0;
        messageValue_.clear();
        break;
    case Role::Records:
        while (f.array < kRocprofv3Arrays.size() && kRocprofv3Arrays[f.array].name != notShown_)
            ++f.array;
        if (f.array == kRocprofv3Arrays.size()) f.role = Role::NotShownRecords;
        break;
    case Role::Record:
        record_ = Rocprofv3Record{};
        record_.array = parent.array;
        record_.shape = kRocprofv3Arrays[parent.array].shape;
        break;
    case Role::RecordPart:
        f.part = parent.key;
        break;
    default:
        break;
    }
    if (parent.role == Role::NotShownRecords) emit_.countNotShown(notShown_);
    if (parent.role == Role::Records && f.role != Role::Record) emit_.countSkipped(parent.array);
    stack_.push_back(f);
    return true;
}

bool Rocprofv3JsonSax::close() {
    if (stack_.empty()) return true;
    const Frame f = stack_.back();
    stack_.pop_back();
    Rocprofv3Process* p = process_.get();
    switch (f.role) {
    case Role::Record:
        recordDone();
        break;
    case Role::MarkerMessage:
    case Role::RenamedKernel:
        if (messageKey_)
            (f.role == Role::MarkerMessage ? p->markerMessages : p->renamedKernels)[messageKey_] =
                std::move(messageValue_);
        break;
    case Role::Metadata:
        p->metadataDone = true;
        break;
    case Role::Agents:
        p->agentsDone = true;
        break;
    case Role::Strings:
        p->stringsDone = true;
        break;
    case Role::Symbols:
        p->symbolsDone = true;
        break;
    case Role::Process:
        if (!began_) beginRecords();
        break;
    default:
        break;
    }
    if (p && !began_ && p->tablesDone()) beginRecords();
    return true;
}

void Rocprofv3JsonSax::beginRecords() {
    began_ = true;
    emit_.beginRecords(*process_, processes_ - 1);
    for (const Rocprofv3Record& r : waiting_) emit_.add(r);
    waiting_.clear();
    waiting_.shrink_to_fit();
}

void Rocprofv3JsonSax::recordDone() {
    if (began_)
        emit_.add(record_);
    else
        waiting_.push_back(record_);
}

void Rocprofv3JsonSax::finish() {
    if (process_ && !began_) beginRecords();
}

bool Rocprofv3JsonSax::parse_error(std::size_t position, const std::string&,
                                   const nlohmann::detail::exception& e) {
    failed_ = true;
    errorOffset_ = position;
    errorMessage_ = e.what();
    // "[json.exception.parse_error.101] parse error at line 3, column 1: ...": from "parse error".
    if (const size_t at = errorMessage_.find("] "); at != std::string::npos)
        errorMessage_.erase(0, at + 2);
    return false;
}

} // namespace strata
