#!/usr/bin/env python3
"""Writes a small rocprofv3 JSON (`rocprofv3 --output-format json`, results.json) for
tst_rocprofv3_json, in the shape rocprofiler-sdk's writer gives it. Every field name and the
nesting come from rocprofiler-sdk's source, read at ROCm/rocm-systems commit
1b1610fc2b2ab32af71e6e04e4d4a6a4ae597992 (projects/rocprofiler-sdk/):
  source/lib/output/generateJSON.cpp       the process object's keys and their order
  source/include/rocprofiler-sdk/cxx/serialization/save.hpp
                                           records, agents, kernel symbols, name tables
  source/lib/output/stream_info.hpp        stream_id after the kernel, copy and HIP records
  source/lib/output/kernel_symbol_info.hpp formatted/demangled/truncated kernel names
  source/lib/output/agent_info.hpp         gpu_index after each agent
  source/lib/output/generator.hpp          each buffer_records array flat
  source/include/rocprofiler-sdk/fwd.h     the numbers of record kinds, agent types, copies
  source/include/rocprofiler-sdk/{hip/runtime_api_id.h,hsa/core_api_id.h,marker/api_id.h}
                                           the operations' numbers
and with --legacy as rocprofiler-sdk's own repository wrote it at ROCm/rocprofiler-sdk commit
8ab1ed78d8c2afb25fedddb7684aff08d1233c5c (source/lib/rocprofiler-sdk-tool/generateJSON.cpp,
source/include/rocprofiler-sdk/cxx/serialization.hpp: no stream ids, no HIP call arguments, HIP
calls of kind HIP_RUNTIME_API, roctx ranges as MARKER_CORE_API push/pop), with the process's
object in place of the list.

Values are made up: two GPUs and a CPU; five kernels on three queues, one with a stream; a
host-to-device copy; HIP calls correlated to them on two threads; two HSA calls; a roctx range and
a mark; a memory allocation and a scratch record (not shown by Strata). One record is bad on
purpose (a kernel with no end_timestamp). Name tables are trimmed: an operation Strata is not
given here is "" (the name table's own default for a missing name). metadata.config holds a few of
the tool's settings only.

With --sort-keys the keys are written sorted (as `jq -S` or Python's json.dump(sort_keys=True)
re-write a file): the records then come before the tables that name them.

  write_rocprofv3_json.py OUT.json [--legacy] [--sort-keys]
"""
import json
import sys

PID = 31337
MAIN, WORKER = 31337, 31340
T0 = 5_000_000_000_000  # ns

# rocprofiler_buffer_tracing_kind_t by number: the names strings.buffer_records gives them (fwd.h;
# --legacy: the older enum, which had PAGE_MIGRATION where SCRATCH_MEMORY is now).
KINDS = ["", "HSA_CORE_API", "HSA_AMD_EXT_API", "HSA_IMAGE_EXT_API", "HSA_FINALIZE_EXT_API",
         "HIP_RUNTIME_API", "HIP_COMPILER_API", "MARKER_CORE_API", "MARKER_CONTROL_API",
         "MARKER_NAME_API", "MEMORY_COPY", "KERNEL_DISPATCH", "SCRATCH_MEMORY",
         "CORRELATION_ID_RETIREMENT", "RCCL_API", "OMPT", "MEMORY_ALLOCATION",
         "RUNTIME_INITIALIZATION", "ROCDECODE_API", "ROCJPEG_API", "HIP_STREAM",
         "HIP_RUNTIME_API_EXT", "HIP_COMPILER_API_EXT", "ROCDECODE_API_EXT",
         "KFD_EVENT_PAGE_MIGRATE", "KFD_EVENT_PAGE_FAULT", "KFD_EVENT_QUEUE",
         "KFD_EVENT_UNMAP_FROM_GPU", "KFD_EVENT_DROPPED_EVENTS", "KFD_PAGE_MIGRATE",
         "KFD_PAGE_FAULT", "KFD_QUEUE", "MARKER_CORE_RANGE_API"]
LEGACY_KINDS = KINDS[:12] + ["PAGE_MIGRATION", "SCRATCH_MEMORY", "CORRELATION_ID_RETIREMENT",
                             "RCCL_API"]
# The operations' numbers (hip/runtime_api_id.h, hsa/core_api_id.h, marker/api_id.h, fwd.h).
HIP_OPS = {"hipDeviceSynchronize": 66, "hipLaunchKernel": 214, "hipMalloc": 215,
           "hipMemcpyAsync": 268}
HSA_OPS = {"hsa_queue_load_write_index_relaxed": 14, "hsa_signal_wait_scacquire": 44}
RANGE_OPS = ["roctxMarkA", "roctxThreadRangeA", "roctxProcessRangeA", "roctxGetThreadId"]
CORE_OPS = ["roctxMarkA", "roctxRangePushA", "roctxRangePop", "roctxRangeStartA",
            "roctxRangeStop", "roctxGetThreadId"]
COPY_OPS = ["MEMORY_COPY_NONE", "MEMORY_COPY_HOST_TO_HOST", "MEMORY_COPY_HOST_TO_DEVICE",
            "MEMORY_COPY_DEVICE_TO_HOST", "MEMORY_COPY_DEVICE_TO_DEVICE"]
ALLOC_OPS = ["MEMORY_ALLOCATION_NONE", "MEMORY_ALLOCATION_ALLOCATE", "MEMORY_ALLOCATION_FREE"]

CPU, GPU0, GPU1 = 1, 2, 3  # agent handles
QUEUE_A, QUEUE_B, QUEUE_C = 94_112_003_076_096, 94_112_003_141_632, 94_112_009_433_088
STREAM = 7


def op_table(ops):
    """A kind's operations by number: {name: number} or a list; the numbers not given are ""."""
    if isinstance(ops, list):
        return ops
    table = [""] * (max(ops.values()) + 1)
    for name, n in ops.items():
        table[n] = name
    return table


def correlation(internal, legacy, external=0):
    c = {"internal": internal, "external": external}
    if not legacy:
        c["ancestor"] = 0
    return c


def agent(handle, type_, node, type_index, name, product, cu, legacy):
    a = {"size": 760, "id": {"handle": handle}, "type": type_,
         "cpu_cores_count": 64 if type_ == 1 else 0, "simd_count": 0 if type_ == 1 else cu * 4,
         "mem_banks_count": 1, "caches_count": 0, "io_links_count": 0,
         "cpu_core_id_base": 0 if type_ == 1 else 0, "simd_id_base": 0,
         "max_waves_per_simd": 0 if type_ == 1 else 8, "lds_size_in_kb": 0 if type_ == 1 else 64,
         "gds_size_in_kb": 0, "num_gws": 0, "wave_front_size": 0 if type_ == 1 else 64,
         "num_xcc": 0 if type_ == 1 else 1, "cu_count": cu, "array_count": 0,
         "num_shader_banks": 0, "simd_arrays_per_engine": 0, "cu_per_simd_array": 0,
         "simd_per_cu": 0 if type_ == 1 else 4, "max_slots_scratch_cu": 0,
         "gfx_target_version": 0 if type_ == 1 else 90010, "vendor_id": 4098,
         "device_id": 0 if type_ == 1 else 29711, "location_id": 0, "domain": 0,
         "drm_render_minor": 0 if type_ == 1 else 128 + type_index,
         "num_sdma_engines": 0, "num_sdma_xgmi_engines": 0, "num_sdma_queues_per_engine": 0,
         "num_cp_queues": 0, "max_engine_clk_ccompute": 3000, "max_engine_clk_fcompute": 1700,
         "sdma_fw_version": {"uCodeSDMA": 0, "uCodeRes": 0},
         "fw_version": {"uCode": 0, "Major": 0, "Minor": 0, "Stepping": 0},
         "capability": {k: 0 for k in (
             "HotPluggable", "HSAMMUPresent", "SharedWithGraphics", "QueueSizePowerOfTwo",
             "QueueSize32bit", "QueueIdleEvent", "VALimit", "WatchPointsSupported",
             "WatchPointsTotalBits", "DoorbellType", "AQLQueueDoubleMap", "DebugTrapSupported",
             "WaveLaunchTrapOverrideSupported", "WaveLaunchModeSupported",
             "PreciseMemoryOperationsSupported", "DEPRECATED_SRAM_EDCSupport", "Mem_EDCSupport",
             "RASEventNotify", "ASICRevision", "SRAM_EDCSupport", "SVMAPISupported",
             "CoherentHostAccess", "DebugSupportedFirmware")},
         "cu_per_engine": 0, "max_waves_per_cu": 0 if type_ == 1 else 32, "family_id": 0,
         "workgroup_max_size": 0 if type_ == 1 else 1024, "grid_max_size": 0,
         "local_mem_size": 0, "hive_id": 0, "gpu_id": 0 if type_ == 1 else 1000 + type_index,
         "workgroup_max_dim": {"x": 0, "y": 0, "z": 0}, "grid_max_dim": {"x": 0, "y": 0, "z": 0},
         "name": name, "vendor_name": "AMD" if type_ == 2 else "CPU", "product_name": product,
         "model_name": "" if type_ == 1 else "ip discovery",
         "node_id": node, "logical_node_id": node, "logical_node_type_id": type_index,
         "runtime_visibility": {"hsa": 1, "hip": 1, "rccl": 1, "rocdecode": 1},
         "uuid": 0, "mem_banks": [], "caches": [], "io_links": []}
    if not legacy:
        a["gpu_index"] = type_index if type_ == 2 else -1
    return a


def symbol(kernel_id, mangled, formatted, vgprs, agprs, lds):
    return {"size": 96, "kernel_id": kernel_id, "code_object_id": 1 if kernel_id else 0,
            "kernel_name": mangled, "kernel_object": 0, "kernarg_segment_size": 24,
            "kernarg_segment_alignment": 8, "group_segment_size": lds,
            "private_segment_size": 0, "sgpr_count": 32, "arch_vgpr_count": vgprs,
            "accum_vgpr_count": agprs, "kernel_code_entry_byte_offset": 0,
            "kernel_address": {"handle": 0}, "formatted_kernel_name": formatted,
            "demangled_kernel_name": formatted, "truncated_kernel_name": formatted.split("(")[0]}


def dispatch(corr, agent_id, queue, stream, kernel_id, start, end, wg, grid, lds, legacy):
    r = {"size": 112, "kind": 11, "operation": 2,
         "thread_id": MAIN, "correlation_id": correlation(corr, legacy),
         "start_timestamp": T0 + start, "end_timestamp": T0 + end,
         "dispatch_info": {"size": 64, "agent_id": {"handle": agent_id},
                           "queue_id": {"handle": queue}, "kernel_id": kernel_id,
                           "dispatch_id": corr, "private_segment_size": 0,
                           "group_segment_size": lds,
                           "workgroup_size": dict(zip("xyz", wg)), "grid_size": dict(zip("xyz", grid))}}
    if not legacy:
        r["stream_id"] = {"handle": stream}
    return r


def api(kind, op, corr, tid, start, end, legacy, args=None):
    r = {"size": 56, "kind": kind, "operation": op, "correlation_id": correlation(corr, legacy),
         "start_timestamp": T0 + start, "end_timestamp": T0 + end, "thread_id": tid}
    if args is not None:  # a HIP call of the newer tools (HIP_RUNTIME_API_EXT)
        r["args"] = [{"type": t, "name": n, "value": v} for t, n, v in args]
        r["retval"] = {"uint64_t_retval": 0}
        r["stream_id"] = {"handle": STREAM if args else 0}
    return r


def process(legacy):
    names = LEGACY_KINDS if legacy else KINDS
    HSA_CORE_API, MEMORY_COPY, KERNEL_DISPATCH = 1, 10, 11
    SCRATCH_MEMORY = names.index("SCRATCH_MEMORY")
    hip_kind = names.index("HIP_RUNTIME_API" if legacy else "HIP_RUNTIME_API_EXT")
    marker_kind = names.index("MARKER_CORE_API" if legacy else "MARKER_CORE_RANGE_API")
    range_op = CORE_OPS.index("roctxRangePushA") if legacy else RANGE_OPS.index("roctxThreadRangeA")
    launch_args = [("const void*", "function_address", "0x7f3a1c0042c0"),
                   ("hipStream_t", "stream", "0x5596d8c0a3b0")]

    def hip(name, corr, tid, start, end):
        args = launch_args if name == "hipLaunchKernel" else []
        return api(hip_kind, HIP_OPS[name], corr, tid, start, end, legacy,
                   None if legacy else args)

    kernels = [
        dispatch(10, GPU0, QUEUE_A, STREAM, 1, 40_000, 90_000, (256, 1, 1), (65536, 1, 1), 8192,
                 legacy),
        dispatch(11, GPU0, QUEUE_A, STREAM, 2, 95_000, 115_500, (64, 4, 1), (1000, 8, 1), 4096,
                 legacy),
        dispatch(12, GPU0, QUEUE_B, 0, 1, 60_000, 61_250, (256, 1, 1), (256, 1, 1), 8192, legacy),
        dispatch(13, GPU1, QUEUE_C, 0, 1, 70_000, 170_000, (256, 1, 1), (131072, 1, 1), 8192,
                 legacy),
        dispatch(14, GPU1, QUEUE_C, 0, 2, 171_000, 172_001, (64, 4, 1), (64, 4, 1), 4096,
                 legacy),
        dispatch(15, GPU1, QUEUE_C, 0, 2, 180_000, 181_000, (64, 4, 1), (64, 4, 1), 4096,
                 legacy),
    ]
    del kernels[-1]["end_timestamp"]  # the bad record: a kernel with no end
    copy = {"size": 80, "kind": MEMORY_COPY, "operation": COPY_OPS.index(
        "MEMORY_COPY_HOST_TO_DEVICE"), "thread_id": MAIN, "correlation_id": correlation(9, legacy),
        "start_timestamp": T0 + 12_000, "end_timestamp": T0 + 30_000,
        "dst_agent_id": {"handle": GPU0}, "src_agent_id": {"handle": CPU}, "bytes": 1_048_576}
    if not legacy:
        copy["stream_id"] = {"handle": STREAM}
    hip_calls = [
        hip("hipMalloc", 8, MAIN, 1_000, 9_000),
        hip("hipMemcpyAsync", 9, MAIN, 10_000, 11_500),
        hip("hipLaunchKernel", 10, MAIN, 20_000, 24_000),
        hip("hipLaunchKernel", 11, MAIN, 25_000, 26_000),
        hip("hipLaunchKernel", 12, MAIN, 27_000, 28_000),
        hip("hipLaunchKernel", 13, WORKER, 20_500, 23_000),
        hip("hipLaunchKernel", 14, WORKER, 24_000, 25_000),
        hip("hipLaunchKernel", 15, WORKER, 26_000, 27_000),
        hip("hipDeviceSynchronize", 16, MAIN, 29_000, 175_000),
    ]
    hsa_calls = [
        api(HSA_CORE_API, HSA_OPS["hsa_queue_load_write_index_relaxed"], 17, MAIN, 21_000,
            21_100, legacy),
        api(HSA_CORE_API, HSA_OPS["hsa_signal_wait_scacquire"], 18, MAIN, 30_000, 174_000,
            legacy),
    ]
    markers = [
        api(marker_kind, range_op, 19, MAIN, 500, 176_000, legacy),
        api(marker_kind, 0, 20, MAIN, 176_500, 176_500, legacy),  # roctxMarkA: no length
    ]
    allocation = {"size": 72, "kind": KINDS.index("MEMORY_ALLOCATION"), "operation": 1,
                  "thread_id": MAIN,
                  "correlation_id": correlation(8, legacy), "start_timestamp": T0 + 2_000,
                  "end_timestamp": T0 + 8_000, "agent_id": {"handle": GPU0},
                  "address": "0x00007f3a00000000", "allocation_size": 1_048_576}
    scratch = {"size": 72, "kind": SCRATCH_MEMORY, "operation": 1, "agent_id": {"handle": GPU1},
               "queue_id": {"handle": QUEUE_C}, "thread_id": MAIN,
               "start_timestamp": T0 + 69_000, "end_timestamp": T0 + 69_500,
               "correlation_id": correlation(13, legacy), "flags": 0, "allocation_size": 65536}

    kinds = [{"kind": name, "operations": []} for name in names]
    kinds[HSA_CORE_API]["operations"] = op_table(HSA_OPS)
    kinds[hip_kind]["operations"] = op_table(HIP_OPS)
    kinds[marker_kind]["operations"] = CORE_OPS if legacy else RANGE_OPS
    kinds[MEMORY_COPY]["operations"] = COPY_OPS
    kinds[KERNEL_DISPATCH]["operations"] = ["KERNEL_DISPATCH_NONE", "KERNEL_DISPATCH_ENQUEUE",
                                            "KERNEL_DISPATCH_COMPLETE"]
    if not legacy:
        kinds[names.index("MEMORY_ALLOCATION")]["operations"] = ALLOC_OPS

    p = {}
    p["metadata"] = {"pid": PID, "init_time": T0, "fini_time": T0 + 200_000,
                     "command": ["/home/user/bin/train_gemm", "--steps", "1"],
                     "config": {"kernel_rename": False, "json_output": True, "csv_output": False}}
    if not legacy:
        p["metadata"] = {"node": {"id": 1, "hash": 2, "machine_id": "m", "system_name": "Linux",
                                  "hostname": "node", "release": "6.8", "version": "#1",
                                  "hardware_name": "x86_64", "domain_name": "(none)"},
                         **{k: p["metadata"][k] for k in ("pid", "init_time", "fini_time",
                                                          "command", "config")}}
    p["agents"] = [agent(CPU, 1, 0, 0, "AMD EPYC 7763", "AMD EPYC 7763", 0, legacy),
                   agent(GPU0, 2, 1, 0, "gfx90a", "AMD Instinct MI210", 104, legacy),
                   agent(GPU1, 2, 2, 1, "gfx1100", "AMD Radeon PRO W7900", 96, legacy)]
    p["counters"] = []
    p["strings"] = {"callback_records": [{"kind": "", "operations": []}],
                    "buffer_records": kinds,
                    "marker_api": [{"key": 19, "value": "train_step"},
                                   {"key": 20, "value": "checkpoint"}],
                    "correlation_id": {"external": []},
                    "counters": {"dimension_ids": []}}
    if not legacy:
        p["strings"].update({"pc_sample_instructions": [], "pc_sample_comments": [],
                             "att_filenames": [], "code_object_snapshot_filenames": []})
    p["code_objects"] = [{"size": 0, "code_object_id": 0, "agent_id": {"handle": 0}, "uri": "",
                          "load_base": 0, "load_size": 0, "load_delta": 0, "storage_type": 0},
                         {"size": 104, "code_object_id": 1, "agent_id": {"handle": GPU0},
                          "uri": "file:///home/user/bin/train_gemm#offset=8192&size=40960",
                          "load_base": 0, "load_size": 40960, "load_delta": 0, "storage_type": 1,
                          "storage_file": 3}]
    p["kernel_symbols"] = [symbol(0, "", "", 0, 0, 0),
                           symbol(1, "_Z11gemm_kernelPfPKfi.kd",
                                  "gemm_kernel(float*, float const*, int)", 128, 64, 8192),
                           symbol(2, "_Z13reduce_kernelPf.kd", "reduce_kernel(float*)", 40, 0,
                                  2048)]
    if not legacy:
        p["host_functions"] = []
    p["summary"] = []
    p["callback_records"] = {"counter_collection": []}
    records = {"kernel_dispatch": kernels, "hip_api": hip_calls, "hsa_api": hsa_calls,
               "marker_api": markers, "rccl_api": [], "memory_copy": [copy]}
    if not legacy:
        records.update({"memory_allocation": [allocation], "scratch_memory": [scratch],
                        "rocdecode_api": [], "rocjpeg_api": [], "pc_sample_host_trap": [],
                        "pc_sample_stochastic": []})
    else:
        records["scratch_memory"] = [scratch]
    p["buffer_records"] = records
    return p


def main():
    out, legacy = sys.argv[1], "--legacy" in sys.argv[2:]
    tool = process(legacy) if legacy else [process(legacy)]
    with open(out, "w") as f:
        json.dump({"rocprofiler-sdk-tool": tool}, f, indent=1 if legacy else 0,
                  sort_keys="--sort-keys" in sys.argv[2:])
        f.write("\n")


if __name__ == "__main__":
    main()
