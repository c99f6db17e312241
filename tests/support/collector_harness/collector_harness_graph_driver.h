#pragma once
// collector_harness's CUDA graph instantiation (collector_harness_graph_driver.cpp): the CUDA
// driver's graph queries the collector looks up by name (exported from the harness, which is
// linked with ENABLE_EXPORTS so dlsym finds them), describing one small graph, and the CUPTI
// callbacks cuGraphInstantiate makes for it.
//
// The graph (CUPTI ids; tst_graph_topology.cpp repeats them): graph 7, a diamond of three kernels
// and a host node. Original nodes A 1, B 2, C 3, H 4, created in that order; instantiated as exec
// 3, whose graph (id 8) holds their clones A 11, B 12, C 13, H 14, the ids the replays' kernel
// records carry:
//   A scale(float*) -> B bias(float*)          B -> C relu(float*)
//   A               -> H harness::graphHostStep(void*) -> C
// Edges in the driver's order: 1->2, 1->4, 2->3, 4->3. A and C are named through their CUfunction
// (cuFuncGetName), B through its CUkernel (cuKernelGetName, its func left null as the runtime
// leaves it since CUDA 12), H by its function's symbol.
//
// $HARNESS_GRAPH_FAIL: "edges" makes cuGraphGetEdges_v2 fail (no topology is recorded), "names"
// cuGraphKernelNodeGetParams_v2 (the kernel nodes are recorded unnamed).
// $HARNESS_GRAPH_EXEC_GRAPH=clone: GRAPHEXEC_CREATED names the clones' graph (8) rather than the
// original (7); which one real CUPTI names is not documented.

// GRAPHNODE_CLONED for each node, then GRAPHEXEC_CREATED, through the stand-in CUPTI.
void instantiateFakeGraph();
