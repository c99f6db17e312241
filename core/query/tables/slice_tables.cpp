#include "query/tables/slice_tables.h"

#include "query/tables/slice_fields.h"
#include "query/tables/slice_walk.h"

namespace strata {

namespace {

using F = SliceField;

class SliceTable : public QueryTable {
public:
    SliceTable(const QuerySources& sources, std::string name, std::string doc, SliceWalk::Keep keep,
               std::vector<SliceFieldColumn> fields)
        : sources_(sources), name_(std::move(name)), doc_(std::move(doc)), keep_(keep) {
        for (size_t k = 0; k < fields.size(); ++k) {
            fields_.push_back(fields[k].field);
            columns_.push_back(std::move(fields[k].column));
            const F f = fields_.back();
            lookups_.push_back(f == F::Id            ? SliceLookup::Id
                               : f == F::Correlation ? SliceLookup::Correlation
                               : f == F::LaunchId    ? SliceLookup::LaunchId
                                                     : SliceLookup::None);
            orders_.push_back(f == F::Name       ? SliceOrder::Name
                              : f == F::Category ? SliceOrder::Category
                              : f == F::Kind     ? SliceOrder::Kind
                                                 : SliceOrder::None);
            if (f == F::Ts) timeColumn_ = int(k);
        }
    }
    std::string_view name() const override { return name_; }
    std::string_view doc() const override { return doc_; }
    const std::vector<QueryColumn>& columns() const override { return columns_; }
    bool canLookup(int col) const override {
        return col >= 0 && size_t(col) < lookups_.size() &&
               lookups_[size_t(col)] != SliceLookup::None;
    }
    bool canGroup(int col) const override {
        return col >= 0 && size_t(col) < orders_.size() && orders_[size_t(col)] != SliceOrder::None;
    }
    int timeColumn() const override { return timeColumn_; }
    double rowEstimate() const override { return double(sources_.sliceCount()); }
    std::unique_ptr<QueryCursor> open() const override;

    const QuerySources& sources_;
    std::vector<F> fields_;

private:
    std::string name_, doc_;
    SliceWalk::Keep keep_;
    std::vector<QueryColumn> columns_;
    std::vector<SliceLookup> lookups_;
    std::vector<SliceOrder> orders_;
    int timeColumn_ = -1;
};

class SliceTableCursor : public SliceWalk {
public:
    SliceTableCursor(const SliceTable& table, Keep keep, std::vector<SliceLookup> lookups,
                     std::vector<SliceOrder> orders)
        : SliceWalk(table.sources_, keep, std::move(lookups), std::move(orders)), table_(table) {}
    void column(sqlite3_context* ctx, int col) const override {
        sliceFieldValue(ctx, sources_, s_, ref(), table_.fields_[size_t(col)]);
    }

private:
    const SliceTable& table_;
};

std::unique_ptr<QueryCursor> SliceTable::open() const {
    return std::make_unique<SliceTableCursor>(*this, keep_, lookups_, orders_);
}

// The columns every slice table starts with.
std::vector<SliceFieldColumn> common() {
    return {
        {F::Id, {"id", "INTEGER", "the slice's id, the same in every table (unique over a set)"}},
        {F::Ts, {"ts", "INTEGER", "start, ns"}},
        {F::Dur, {"dur", "INTEGER", "duration, ns"}},
        {F::End, {"end", "INTEGER", "ts + dur, ns"}},
        {F::Name, {"name", "TEXT", "the full name"}},
        {F::Category, {"category", "TEXT", "the category the trace gave it"}},
        {F::Kind,
         {"kind", "TEXT",
          "cpu_op, python_function, user_annotation, cuda_runtime, "
          "cuda_driver, kernel, gpu_memcpy, gpu_memset, ..."}}};
}

std::vector<SliceFieldColumn> with(std::vector<SliceFieldColumn> a,
                                   std::vector<SliceFieldColumn> b) {
    for (auto& c : b) a.push_back(std::move(c));
    return a;
}

SliceFieldColumn rank() {
    return {F::Rank, {"rank", "INTEGER", "the rank of a set's trace (NULL for one trace)"}};
}

bool isGpuOp(SliceKind k) {
    return isGpuBusyKind(k);
}

} // namespace

std::unique_ptr<QueryTable> makeSlicesTable(const QuerySources& sources) {
    return std::make_unique<SliceTable>(
        sources, "slices", "every slice of every track: CPU, GPU and async", nullptr,
        with(common(),
             {{F::Depth, {"depth", "INTEGER", "nesting depth on its track, 0 outermost"}},
              {F::ParentId, {"parent_id", "INTEGER", "the enclosing slice's id (NULL at depth 0)"}},
              {F::Self, {"self", "INTEGER", "dur minus its direct children's, ns"}},
              {F::Pid, {"pid", "INTEGER", "process id (a GPU lane: its device's pid)"}},
              {F::Tid, {"tid", "INTEGER", "thread id (a GPU lane: its stream)"}},
              {F::Thread, {"thread", "TEXT", "the thread's name"}},
              {F::Process, {"process", "TEXT", "the process's name"}},
              {F::TrackKind, {"track_kind", "TEXT", "thread, gpu, async or other"}},
              {F::Correlation, {"correlation", "INTEGER", "correlation id (launch <-> GPU op)"}},
              {F::ExternalId, {"external_id", "INTEGER", "Kineto's External id"}},
              {F::Args, {"args", "TEXT", "the slice's args as a JSON object (see table args)"}},
              rank()}));
}

std::unique_ptr<QueryTable> makeGpuOpsTable(const QuerySources& sources) {
    return std::make_unique<SliceTable>(
        sources, "gpu_ops", "kernels, copies and sets, wherever they lie", isGpuOp,
        with(common(),
             {{F::Device, {"device", "INTEGER", "GPU device"}},
              {F::Stream, {"stream", "INTEGER", "stream (queue)"}},
              {F::Context, {"context", "INTEGER", "CUDA context"}},
              {F::GridX, {"grid_x", "INTEGER", "grid size in x"}},
              {F::GridY, {"grid_y", "INTEGER", "grid size in y"}},
              {F::GridZ, {"grid_z", "INTEGER", "grid size in z"}},
              {F::Grid, {"grid", "INTEGER", "blocks in the grid: grid_x * grid_y * grid_z"}},
              {F::BlockX, {"block_x", "INTEGER", "block size in x"}},
              {F::BlockY, {"block_y", "INTEGER", "block size in y"}},
              {F::BlockZ, {"block_z", "INTEGER", "block size in z"}},
              {F::Block, {"block", "INTEGER", "threads per block: block_x * block_y * block_z"}},
              {F::Registers, {"registers", "INTEGER", "registers per thread"}},
              {F::StaticShared, {"static_shared", "INTEGER", "static shared memory, bytes"}},
              {F::DynamicShared, {"dynamic_shared", "INTEGER", "dynamic shared memory, bytes"}},
              {F::Bytes, {"bytes", "INTEGER", "bytes copied or set"}},
              {F::CopyKind, {"copy_kind", "TEXT", "HtoD, DtoH, DtoD, HtoH, PtoP, ..."}},
              {F::SrcMemory, {"src_memory", "TEXT", "Pageable, Pinned, Device, ..."}},
              {F::DstMemory, {"dst_memory", "TEXT", "Pageable, Pinned, Device, ..."}},
              {F::Correlation, {"correlation", "INTEGER", "correlation id of its launch"}},
              {F::GraphId, {"graph_id", "INTEGER", "CUDA graph id"}},
              {F::GraphNodeId, {"graph_node_id", "INTEGER", "CUDA graph node id"}},
              {F::LaunchId, {"launch_id", "INTEGER", "the id of the API call that launched it"}},
              {F::Launch, {"launch", "TEXT", "that call's name"}},
              {F::CpuOpId, {"cpu_op_id", "INTEGER", "the innermost cpu_op around that call"}},
              {F::CpuOp, {"cpu_op", "TEXT", "that op's name"}},
              {F::Args, {"args", "TEXT", "the op's args as a JSON object"}},
              rank()}));
}

std::unique_ptr<QueryTable> makeApiCallsTable(const QuerySources& sources) {
    return std::make_unique<SliceTable>(
        sources, "api_calls", "CUDA (HIP) runtime and driver calls on their threads",
        isLaunchApiKind,
        with(common(),
             {{F::Pid, {"pid", "INTEGER", "process id"}},
              {F::Tid, {"tid", "INTEGER", "thread id"}},
              {F::Thread, {"thread", "TEXT", "the thread's name"}},
              {F::Correlation, {"correlation", "INTEGER", "correlation id (links its GPU ops)"}},
              {F::GpuOpCount, {"gpu_ops", "INTEGER", "GPU ops it launched"}},
              {F::CpuOpId, {"cpu_op_id", "INTEGER", "the innermost cpu_op around it"}},
              {F::CpuOp, {"cpu_op", "TEXT", "that op's name"}},
              rank()}));
}

} // namespace strata
