#!/bin/bash
# Stages what the GPU checks need into .gpu/stage.tar.xz (ignored by git), for a GPU machine
# without Qt: the built binaries (debug info stripped), the libraries ldd lists for them (less
# glibc; libstdc++ apart, used only where the machine's own is older), CUDA's cudart and CUPTI,
# and Qt's offscreen platform plugin. Run after building in build/ (docs/gpu-validation.md).
set -e
cd "$(dirname "$0")/../.."
ninja -C build strata-cli strata strata_collector tests_collector tests_record launch_gaps \
    two_streams pinned_vs_pageable nvtx_nested fork_child launch_bound sections_matmul \
    sections_matmul_off sections_reduce sections_reduce_off graph_replay graph_replay_static \
    gpu_metrics_probe
rm -rf .gpu/stage && mkdir -p .gpu/stage/lib .gpu/stage/lib-cxx .gpu/stage/cudalib \
    .gpu/stage/plugins/platforms
cd .gpu/stage
for f in app/strata-cli app/strata tests/tests_collector tests/tests_record \
    kernels/collector/libstrata_collector.so \
    $(cd ../../build && find kernels/samples -maxdepth 1 -type f -executable); do
    mkdir -p "build/$(dirname "$f")"
    cp "../../build/$f" "build/$f"
    strip --strip-debug "build/$f"
done
cp /usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/libqoffscreen.so plugins/platforms/
for b in build/app/strata-cli build/app/strata build/tests/tests_collector build/tests/tests_record \
    plugins/platforms/libqoffscreen.so; do ldd "$b" | awk '/=>/{print $3}'; done | sort -u |
    grep -v -E 'libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|ld-linux|libcuda\.so|libgcc_s' |
    while read -r l; do cp -L "$l" lib/; done
mv lib/libstdc++.so.6 lib-cxx/
cp -L /usr/local/cuda/lib/libcupti.so.13 /usr/local/cuda/lib/libcudart.so.13 cudalib/
# CUPTI's profiler host and target (PM sampling: --gpu-metrics) load these at run time.
cp -L /usr/local/cuda/lib/libnvperf_host.so /usr/local/cuda/lib/libnvperf_target.so cudalib/
cd .. && tar cJf stage.tar.xz -C stage . && ls -la stage.tar.xz
