#pragma once
// Call trees of the CPU hierarchy (the slices of thread tracks nested by time), for the flame
// graph and the call tree views: top-down (a node per call path from the root: the slices with
// that chain of names) and bottom-up (a node per path from the leaf upwards: where the self time
// was spent, and who called it). For one thread or all, over the slices that start in a range.
// total = the summed durations of the node's slices (a recursive name counted at every level it
// occurs, as flame graphs do), self = their self times (SliceColumns::selfTime), count =
// slices; gpu = the kernels, copies and sets launched under the node (each GPU op under every
// node of its launch call's path), when asked.
#include "analysis/analysis_range.h"
#include "model/trace.h"

#include <unordered_map>
#include <vector>

namespace strata {

struct CallNode {
    StringId name = 0;
    uint32_t parent = UINT32_MAX; // index in CallTree::nodes; root's is UINT32_MAX
    uint32_t depth = 0;           // root 0
    uint64_t count = 0;
    TimeNs total = 0, self = 0, gpu = 0;
    std::vector<uint32_t> children; // by total, descending
};

struct CallTree {
    std::vector<CallNode> nodes; // nodes[0] is the root (name 0, the whole)
    bool bottomUp = false;
};

struct CallTreeOptions {
    TimeRange range = wholeTrace();
    TrackId thread = UINT32_MAX; // a thread track, or every thread
    bool bottomUp = false;
    bool withGpuTime = false;
};

CallTree buildCallTree(const Trace& trace, const CallTreeOptions& options = {});

// Building a CallTree (the slices' here, the samples' in analysis/samples/sample_call_tree.h):
// its root made, then the child of `parent` named `name` on first use.
class CallTreeNodes {
public:
    explicit CallTreeNodes(CallTree& t);
    uint32_t child(uint32_t parent, StringId name);

private:
    CallTree& t_;
    std::unordered_map<uint64_t, uint32_t> index_; // parent << 32 | name
};
// Every node's children by total, descending (the order CallNode::children promises).
void sortChildrenByTotal(CallTree& tree);

} // namespace strata
