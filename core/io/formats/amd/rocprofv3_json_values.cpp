// The values of rocprofv3's JSON as the reader keeps them: a record's numbers, the tables' names
// and numbers (io/formats/amd/rocprofv3_json_sax.h).
#include "io/formats/amd/rocprofv3_json_keys.h"

namespace strata {

using Role = Rocprofv3JsonSax::Role;
using Key = Rocprofv3JsonSax::Key;

bool rocprofv3TableRole(Role r) {
    return r == Role::Metadata || r == Role::Command || r == Role::Agent || r == Role::AgentId ||
           r == Role::KindName || r == Role::Operations || r == Role::MarkerMessage ||
           r == Role::RenamedKernel || r == Role::Symbol;
}

namespace {

// A number written as a string (JSON writers that keep 64-bit numbers exact): its value.
bool digitsValue(const std::string& s, int64_t* i, uint64_t* u) {
    if (s.empty() || s.size() > 20) return false;
    uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + uint64_t(c - '0');
    }
    *u = v;
    *i = int64_t(v);
    return true;
}

} // namespace

bool Rocprofv3JsonSax::number_float(json::number_float_t v, const json::string_t&) {
    // A whole number written with a fraction or an exponent; one past int64_t is not a number.
    if (!(v > -9.2e18 && v < 9.2e18)) return scalar(Scalar{});
    return scalar(Scalar{true, int64_t(v), uint64_t(int64_t(v))});
}

bool Rocprofv3JsonSax::string(json::string_t& s) {
    if (stack_.empty()) return true;
    Scalar v;
    v.number = digitsValue(s, &v.i, &v.u);
    const Frame& f = stack_.back();
    if (rocprofv3TableRole(f.role)) {
        tableValue(f, v, &s);
        return true;
    }
    return scalar(v);
}

bool Rocprofv3JsonSax::scalar(const Scalar& v) {
    if (stack_.empty()) return true;
    const Frame& f = stack_.back();
    switch (f.role) {
    case Role::Record:
    case Role::RecordPart:
        recordValue(f, v);
        break;
    case Role::Records:
        emit_.countSkipped(f.array);
        break;
    case Role::NotShownRecords:
        emit_.countNotShown(notShown_);
        break;
    default:
        if (rocprofv3TableRole(f.role)) tableValue(f, v, nullptr);
        break;
    }
    return true;
}

void Rocprofv3JsonSax::recordValue(const Frame& f, const Scalar& v) {
    Rocprofv3Record& r = record_;
    using R = Rocprofv3Record;
    int64_t* to = nullptr;
    uint64_t* handle = nullptr;
    uint8_t has = 0;
    const Key part = f.role == Role::Record ? Key::None : f.part;
    switch (part) {
    case Key::None:
        switch (f.key) {
        case Key::Kind:
            to = &r.kind;
            break;
        case Key::Operation:
            to = &r.operation;
            break;
        case Key::ThreadId:
            to = &r.threadId, has = R::kHasThread;
            break;
        case Key::StartTimestamp:
            to = &r.start, has = R::kHasStart;
            break;
        case Key::EndTimestamp:
            to = &r.end, has = R::kHasEnd;
            break;
        case Key::Bytes:
            to = &r.bytes;
            break;
        default:
            return;
        }
        break;
    case Key::CorrelationId:
        if (f.key == Key::Internal) to = &r.correlation;
        if (f.key == Key::External) to = &r.external;
        break;
    case Key::DispatchInfo:
        if (f.key == Key::KernelId) to = &r.kernelId;
        if (f.key == Key::GroupSegmentSize) to = &r.groupSegmentSize;
        break;
    case Key::AgentId:
        handle = &r.agent, has = R::kHasAgent;
        break;
    case Key::QueueId:
        handle = &r.queue;
        break;
    case Key::StreamId:
        handle = &r.stream;
        break;
    case Key::SrcAgentId:
        handle = &r.srcAgent, has = R::kHasSrc;
        break;
    case Key::DstAgentId:
        handle = &r.dstAgent, has = R::kHasDst;
        break;
    case Key::WorkgroupSize:
    case Key::GridSize: {
        auto& dim = part == Key::GridSize ? r.grid : r.workgroup;
        if (f.key == Key::X || f.key == Key::Y || f.key == Key::Z)
            to = &dim[int(f.key) - int(Key::X)];
        break;
    }
    default:
        break;
    }
    if (handle && f.key != Key::Handle) handle = nullptr, has = 0;
    if (!to && !handle) return;
    if (!v.number) {
        r.bad = true;
        return;
    }
    if (to) *to = v.i;
    if (handle) *handle = v.u;
    r.have |= has;
}

void Rocprofv3JsonSax::tableValue(const Frame& f, const Scalar& v, const std::string* text) {
    Rocprofv3Process& p = *process_;
    const auto number = [&](int64_t* to) {
        if (v.number) *to = v.i;
    };
    const auto textTo = [&](std::string* to) {
        if (text) *to = *text;
    };
    switch (f.role) {
    case Role::Metadata:
        if (f.key == Key::Pid && v.number) p.pid = v.i, p.hasPid = true;
        if (f.key == Key::Command && text) p.program = text->substr(0, text->find(' '));
        break;
    case Role::Command:
        if (p.program.empty() && text) p.program = *text;
        break;
    case Role::Agent: {
        Rocprofv3Agent& a = p.agents.back();
        switch (f.key) {
        case Key::Type:
            number(&a.type);
            break;
        case Key::LogicalNodeTypeId:
            number(&a.logicalTypeId);
            break;
        case Key::GpuIndex:
            number(&a.gpuIndex);
            break;
        case Key::CuCount:
            number(&a.cuCount);
            break;
        case Key::Name:
            textTo(&a.name);
            break;
        case Key::ProductName:
            textTo(&a.productName);
            break;
        case Key::ModelName:
            textTo(&a.modelName);
            break;
        default:
            break;
        }
        break;
    }
    case Role::AgentId:
        if (f.key == Key::Handle && v.number) p.agents.back().handle = v.u;
        break;
    case Role::KindName:
        if (f.key == Key::Kind) textTo(&p.kinds.back().kind);
        break;
    case Role::Operations:
        p.kinds.back().operations.push_back(text ? *text : std::string());
        break;
    case Role::MarkerMessage:
    case Role::RenamedKernel:
        if (f.key == Key::MapKey && v.number) messageKey_ = v.u;
        if (f.key == Key::MapValue) textTo(&messageValue_);
        break;
    case Role::Symbol: {
        Rocprofv3Symbol& s = p.symbols.back();
        switch (f.key) {
        case Key::KernelId:
            number(&s.kernelId);
            break;
        case Key::KernelName:
            textTo(&s.kernelName);
            break;
        case Key::FormattedKernelName:
            textTo(&s.formattedName);
            break;
        case Key::DemangledKernelName:
            textTo(&s.demangledName);
            break;
        case Key::GroupSegmentSize:
            number(&s.groupSegmentSize);
            break;
        case Key::ArchVgprCount:
            number(&s.archVgprs);
            break;
        case Key::AccumVgprCount:
            number(&s.accumVgprs);
            break;
        default:
            break;
        }
        break;
    }
    default:
        break;
    }
}

} // namespace strata
