#!/bin/bash
# On the GPU machine, from the repository root, after scripts/gpu/stage.sh here: real
# recordings (launch_gaps, the CuPy sections example, a PyTorch loop), their info, export, summary.
# $OUT: where the log and the recordings go.
exec > >(tee $OUT/recordings.log) 2>&1
R=$PWD; S=/opt/s; W=/tmp/w; mkdir -p $S $W
date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.max.sm --format=csv; head -2 /etc/os-release; ls -d /usr/local/cuda*/lib* 2>&1
tar xJf .gpu/stage.tar.xz -C $S || exit 1
[ "$R" != /work/main ] && { mkdir -p /work/main; ln -sfn $S/build /work/main/build; }
export LD_LIBRARY_PATH=$S/lib:$S/cudalib QT_PLUGIN_PATH=$S/plugins QT_QPA_PLATFORM=offscreen
B=$S/build; CLI=$B/app/strata-cli
$CLI --version || { export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$S/lib-cxx; $CLI --version; }
echo "== tst_gpu_record"; (cd $W && timeout 300 $B/tests/tests_collector tst_gpu_record -v1); echo "rc=$?"
echo "== tst_gpu_launch"; (cd $W && timeout 120 $B/tests/tests_record tst_gpu_launch); echo "rc=$?"
echo "== real recording"; cd $W
timeout 60 $CLI record -o $W/r-{pid}.strata -- $B/kernels/samples/launch_gaps 1000 50; echo "rc=$?"
F=$(ls $W/r-*.strata | head -1); $CLI info --json $F > $OUT/info.json; $CLI info $F | head -40
$CLI export --format perfetto-json $F $W/r.json && python3 $R/tests/data/export/check_perfetto_json.py $W/r.json
$CLI summary --json $F > $W/s1.json; $CLI summary --json $W/r.json > $W/s2.json; diff $W/s1.json $W/s2.json && echo "summaries agree"
echo "== cupy sections"; PY="-e LD_LIBRARY_PATH=$S/cudalib"
timeout 120 $CLI record -o $W/cupy-{pid}.strata $PY -- python3 $R/scripts/gpu/cupy_saxpy.py $R/kernels/include; echo "rc=$?"
$CLI sections --names load,compute --clock-hz $(cat clock_hz.txt) saxpy_sections.npy | head -30
cp saxpy_sections.npy $OUT/; $CLI summary $W/cupy-*.strata | head -30
echo "== torch"; timeout 180 $CLI record -o $W/torch-{pid}.strata $PY -- python3 $R/scripts/gpu/torch_small.py; echo "rc=$?"
T=$(ls $W/torch-*.strata | head -1); ls -la $W/*.strata; cp $T $OUT/torch.strata; cp $F $OUT/launch_gaps.strata
$CLI summary $T | head -40; $CLI gaps $T | head -40; $CLI advise $T | head -30
date -u
