#!/bin/bash
# On the GPU machine, from the repository root, after scripts/gpu/stage.sh here:
# the GPU tests, the collector's cost per launch by capture group, the marks' cost.
exec > >(tee $OUT/tests.log) 2>&1
R=$PWD; S=/opt/s; W=/tmp/w3; mkdir -p $S $W; date -u
rm -rf $S/*; tar xJf .gpu/stage.tar.xz -C $S || exit 1
mkdir -p /work/main; rm -rf /work/main/build; ln -sfn $S/build /work/main/build
export LD_LIBRARY_PATH=$S/lib:$S/cudalib QT_PLUGIN_PATH=$S/plugins QT_QPA_PLATFORM=offscreen
B=$S/build; CLI=$B/app/strata-cli; SMP=$B/kernels/samples
echo "== tst_gpu_record"; (cd $W && timeout 300 $B/tests/tests_collector tst_gpu_record -v1); echo "rc=$?"
echo "== tst_gpu_pm_sampling"; (cd $W && timeout 300 $B/tests/tests_collector tst_gpu_pm_sampling -v1); echo "rc=$?"
echo "== tst_gpu_kernel_metrics"; (cd $W && timeout 300 $B/tests/tests_collector tst_gpu_kernel_metrics -v1); echo "rc=$?"
echo "== launch overhead by capture group (ns_per_launch, 3 runs each, interleaved)"
for i in 1 2 3; do
  echo "plain $($SMP/launch_bound 100000 | grep ns_per)"
  for cap in all api,kernels runtime,kernels driver,kernels kernels nvtx,kernels,memcpy,memset,sync,memory; do
    (cd $W && $CLI record -q -o $W/o-{pid}.strata -e STRATA_CAPTURE=$cap -- $SMP/launch_bound 100000 | grep ns_per | sed "s/^/$cap /")
    rm -f $W/o-*.strata
  done
done
echo "== sections A/B (mean_kernel_ms; _off = no marks)"
for i in 1 2 3; do
  for v in "$SMP/sections_matmul 2048 20" "$SMP/sections_matmul_off 2048 20" \
           "$SMP/sections_reduce 67108864 20" "$SMP/sections_reduce_off 67108864 20"; do
    (cd $W && echo "$(basename ${v%% *}) $($v | grep -E 'mean_kernel_ms|delivery' | tr '\n' ' ')")
  done
done
date -u
