#pragma once
// What is related to a slice: the one rule behind the timeline's highlights and launch arrows
// and the Details panel's links. relationsOf() finds the relations by kind; each view shows the
// kinds it needs (correlatedWith() is the timeline's choice).
//   GPU op (kernel, copy, set) -> the API call that launched it (by correlation id), that call's
//                                 enclosing slices and External-id peers;
//   launch API call            -> the GPU ops it launched;
//   other CPU slice            -> the API calls nested in it and the GPU ops they launched;
//   any slice                  -> the slices with its External id (Kineto: CPU op <-> runtime
//                                 call <-> kernel), its explicit flows, its enclosing slices.
#include "model/trace.h"

#include <utility>
#include <vector>

namespace strata {

struct FlowLink {
    SliceRef other;
    StringId category = 0;
    bool outgoing = false; // r -> other (else other -> r)
};

struct SliceRelations {
    SliceRef launchedBy;                 // a GPU op's launching API call
    std::vector<SliceRef> launchContext; // that call's enclosing slices and External-id peers
    std::vector<SliceRef> launched;      // an API call's GPU ops
    std::vector<std::pair<SliceRef, SliceRef>> nestedLaunches; // (nested API call, its GPU op)
    std::vector<SliceRef> sameExternalId; // other slices carrying its External id
    std::vector<FlowLink> flows;          // explicit flows (v1/v2) in and out
    std::vector<SliceRef> enclosing;      // its enclosing slices, innermost first
};

// `cap` bounds each list (a launch with a million kernels, a slice with a huge External id
// group). An invalid ref gives empty relations.
SliceRelations relationsOf(const Trace& trace, SliceRef r, size_t cap = 20000);

// The timeline's highlight set for a selection: for a GPU op its launch, the launch's context
// and its External-id peers; for a launch call its GPU ops and enclosing slices; for another CPU
// slice its GPU-side External-id peers and its nested launches. Arrows: launch -> GPU op.
struct Correlated {
    std::vector<SliceRef> slices;                      // sorted, unique, selection excluded
    std::vector<std::pair<SliceRef, SliceRef>> arrows; // launch -> GPU op
    bool contains(SliceRef r) const;
};
Correlated correlatedWith(const Trace& trace, SliceRef selected, size_t cap = 20000);

} // namespace strata
