#!/usr/bin/env bash
# One device call: build, then the named steps, each bounded in time, logs in one tarball under $OUT.
# Steps: ctest foundation report hostid collectives compute computecudnn computeab computeconv computemm computegap
#   computeaccept (the acceptance rows: matmul, NCHW fp32 conv, NHWC tf32/bf16 conv) acceptconv acceptfp32
#   computecompiled torchkernels
#   convweights convprobe mmprobe ncclhalves compute16 computefast computegx train trainsettled reliability
#   traintest colltest probe effprobe layertest ncclprobe matmulprobe matmulpaths mmtransient mmpower
#   convdefault ddp1 clockwake mmspace mmspace16 mm4096 mmheat mmbimodal mmwindow faultskip findshort.
#   bash bench/device-all.sh ctest foundation report
# Prints each step's last lines (its table), then a summary of exit codes and wall times.
set -uo pipefail
final=${OUT:-/tmp/gpuscale-out}
work=/tmp/gpuscale-device
rm -rf "$work"; mkdir -p "$work" "$final"
export OUT=$work OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
export GPUSCALE=$PWD/build/launch/gpuscale MPIEXEC=mpirun
summary=()
step() {  # NAME LIMIT_S CMD...
  local name=$1 limit=$2; shift 2
  local start=$EPOCHREALTIME rc
  mkdir -p "$work/$name"
  # The log is written under $final as it grows (a call killed mid-step still returns it), then copied.
  OUT=$work/$name timeout --kill-after=10 "$limit" "$@" >"$final/$name.log" 2>&1; rc=$?
  cp "$final/$name.log" "$work/$name.log"
  local wall; wall=$(awk "BEGIN{printf \"%.1f\", $EPOCHREALTIME - $start}")
  summary+=("$(printf '%-12s rc=%-4s %7ss' "$name" "$rc" "$wall")")
  echo "===== $name (rc=$rc, ${wall}s)"; tail -n "${TAIL:-25}" "$work/$name.log"
  pack
}
# The tarball is rewritten after every step: a call killed at its limit still returns what $OUT holds,
# so the steps that ended come back (the thirteenth session lost a whole call to a tarball made at exit)
# and the running step's log beside it.
pack() {
  tar czf "$final/logs.tgz.part" -C "$work" . 2>/dev/null && mv "$final/logs.tgz.part" "$final/logs.tgz"
  printf '%s\n' "${summary[@]}" > "$final/summary.txt"
}
finish() {
  pack
  echo; echo "===== summary"; cat "$final/summary.txt"
}
trap finish EXIT
# The acceptance rows (computeaccept, acceptconv): each side settles WARMUP_MS, then timed MIN_TIME_MS per pass.
accept_i="python3 bench/compute_interleaved.py --gpuscale $GPUSCALE --min-time-ms ${MIN_TIME_MS:-1000} \
  --warmup-ms ${WARMUP_MS:-5000} --rounds ${ROUNDS:-1} --gs-args=--tune-window-ms=${TUNE_WINDOW_MS:-500}"
accept_mm="$accept_i --out \$OUT/mm --conv none"
accept_conv="$accept_i --out \$OUT/fp32 --matmul none --layouts nchw --precision fp32 &&
  $accept_i --out \$OUT/lowp --matmul none --layouts nhwc --precision tf32,bf16"
step build 400 bash bench/device-build.sh || true
case " ${TARGETS:-all} " in *" all "*|*" gpuscale "*) [ -x "$GPUSCALE" ] || exit 1 ;; esac
for s in "$@"; do
  case $s in
    ctest) step ctest 420 ctest --test-dir build -L gpu --output-on-failure ;;
    foundation) step foundation 120 bash bench/device-foundation.sh ;;
    report) step report 150 bash bench/report.sh; cp "$work/report/run.html" "$final/" 2>/dev/null ;;
    hostid) step hostid 120 bash bench/slurm_hostid.sh ;;
    collectives) step collectives 330 bash bench/collectives_vs_torch.sh ;;
    compute) step compute 300 bash bench/compute_vs_torch.sh ;;
    computecudnn) CUDNN_FROM_TORCH=1 step computecudnn 300 bash bench/compute_vs_torch.sh ;;
    computeab) step computeab 500 bash -c 'python3 bench/compute_interleaved.py --gpuscale "$GPUSCALE" --out "$OUT"' ;;
    computeconv) step computeconv 480 bash -c \
      'python3 bench/compute_interleaved.py --gpuscale "$GPUSCALE" --out "$OUT" --matmul none' ;;
    computemm) step computemm 400 bash -c 'nvidia-smi -i 0 -lms 250 -f "$OUT/clocks.csv" --format=csv \
      --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active & smi=$!
      python3 bench/compute_interleaved.py --gpuscale "$GPUSCALE" --out "$OUT" --conv none
      rc=$?; kill $smi; exit $rc' ;;
    mmtransient) step mmtransient 400 bash -c 'nvidia-smi -i 0 -lms 100 -f "$OUT/clocks.csv" --format=csv \
      --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu & smi=$!
      i="python3 bench/compute_interleaved.py --gpuscale $GPUSCALE --conv none --matmul 8192 --precision tf32"
      echo "== default"; $i --out "$OUT/default"; echo "== gs settles 3 s"; $i --out "$OUT/gs3s" --gs-warmup-ms 3000
      echo "== torch idles 2.5 s first"; $i --out "$OUT/idle" --torch-idle-s 2.5
      echo "== gs without its check"; $i --out "$OUT/nocheck" --gs-args=--no-check; kill $smi' ;;
    computegap) step computegap 200 bash -c 'i="python3 bench/compute_interleaved.py --gpuscale $GPUSCALE"
      $i --out "$OUT/conv" --matmul none --layouts nhwc --precision bf16 && $i --out "$OUT/mm" --conv none \
        --matmul 8192 --precision tf32' ;;
    # Both sides settle 5 s, as long a load as gpuscale's own tuning puts before its timing (after 1 s torch
    # read 4096 tf32 2% higher than after 5: mmheat); one ABBA round, so the whole fits one call (462 s in
    # the fifteenth session's call 1; 510 s with the conv tuner settled too, call 3). acceptconv: its conv rows.
    computeaccept) step computeaccept "${ACCEPT_LIMIT_S:-545}" bash -c "$accept_mm && $accept_conv" ;;
    acceptconv) step acceptconv 400 bash -c "$accept_conv" ;;
    acceptfp32) step acceptfp32 300 python3 bench/compute_interleaved.py --gpuscale "$GPUSCALE" --out "$work/acceptfp32" \
      --conv none --precision fp32 --min-time-ms "${MIN_TIME_MS:-1000}" --gs-args="--tune-window-ms=${TUNE_WINDOW_MS:-500}" ;;
    computecompiled) step computecompiled 300 bash -c 'python3 bench/compute_interleaved.py --gpuscale "$GPUSCALE" \
      --out "$OUT" --matmul none --layouts nhwc --precision bf16,fp32 --rounds 1 --gs-args=--cudnn-runtime-compiled' ;;
    torchkernels) step torchkernels 120 python3 bench/torch_kernels.py ;;
    convweights) step convweights 120 python3 bench/conv_weight_probe.py --rounds 2 ;;
    convprobe) step convprobe 400 bash bench/conv_kernel_probe.sh ;;
    mmprobe) N=8192 PREC=tf32 ROUNDS=1 LONG_WARMUP=300 NCU=1 step mmprobe 200 bash bench/matmul_probe.sh ;;
    compute16) MATMUL_CANDIDATES=16 step compute16 200 bash bench/compute_vs_torch.sh ;;
    computefast) MATMUL_PATH=fastest step computefast 200 bash bench/compute_vs_torch.sh ;;
    computegx) MATMUL_PATH=gemmex step computegx 200 bash bench/compute_vs_torch.sh ;;
    train) step train 360 bash bench/train_vs_torch.sh ;;
    trainsettled) SETTLE_MS=1000 step trainsettled 480 bash bench/train_vs_torch.sh ;;
    reliability) step reliability 150 bash tests/gpu/faults_gpu.sh ;;
    traintest) step traintest 240 bash tests/gpu/train_gpus.sh ;;
    colltest) step colltest 90 bash tests/gpu/collectives_gpus.sh ;;
    probe) step probe 240 bash bench/train_overlap_probe.sh ;;
    effprobe) PROBE_SET=efficiency step effprobe 300 bash bench/train_overlap_probe.sh ;;
    ncclprobe) CEILING=$PWD/build/bench/nccl_ceiling step ncclprobe 200 bash bench/nccl_probe.sh ;;
    ncclhalves) SET=halves MAX=256M CEILING=$PWD/build/bench/nccl_ceiling step ncclhalves 200 \
      bash bench/nccl_probe.sh ;;
    matmulprobe) step matmulprobe 300 bash bench/matmul_probe.sh ;;
    convdefault) step convdefault 120 python3 bench/conv_default_probe.py "$GPUSCALE" "$work/convdefault" ;;
    ddp1) step ddp1 200 bash -c 'mpirun --allow-run-as-root -np 1 "$GPUSCALE" train --model mlp --precision bf16 \
      --strategy single,ddp --no-check --iters 20 --json "$OUT/gs.json" | tail -25
      python3 -m torch.distributed.run --standalone --nproc_per_node=1 bench/train_vs_torch.py ddp --iters 20 \
        --out "$OUT/torch_ddp.json" > "$OUT/torch_ddp.txt" 2>&1; tail -8 "$OUT/torch_ddp.txt"
      python3 bench/train_vs_torch.py local --iters 20 --out "$OUT/torch_local.json" > "$OUT/torch_local.txt" 2>&1
      tail -8 "$OUT/torch_local.txt"' ;;
    clockwake) step clockwake 200 bash bench/clock_wake.sh ;;
    mmpower) step mmpower 300 bash -c 'nvidia-smi -i 0 -lms 100 -f "$OUT/clocks.csv" --format=csv \
      --query-gpu=timestamp,clocks.sm,power.draw & smi=$!; p=build/bench/matmul_sustained
      $p --n 8192 --precision tf32 --candidates 24 > "$OUT/tf32.txt"; $p --n 8192 --precision fp32 --candidates 8 \
        --calls 20 > "$OUT/fp32.txt"; kill $smi; sleep 0.5
      for f in tf32 fp32; do echo "== 8192 $f"; python3 bench/sustained_clocks.py "$OUT/$f.txt" "$OUT/clocks.csv"; done' ;;
    mmspace) step mmspace 330 bash -c 'nvidia-smi -i 0 -lms 100 -f "$OUT/clocks.csv" --format=csv \
      --query-gpu=timestamp,clocks.sm,power.draw & smi=$!; p=build/bench/matmul_sustained
      $p --n 8192 --precision tf32 --candidates 8 --space 10 --space-s 40 > "$OUT/tf32.txt"
      $p --n 8192 --precision fp32 --candidates 4 --space 8 --space-s 40 --calls 20 > "$OUT/fp32.txt"
      $p --n 4096 --precision fp32 --candidates 4 --space 8 --space-s 25 > "$OUT/fp32_4096.txt"; kill $smi; sleep 0.5
      for f in tf32 fp32 fp32_4096; do echo "== $f"; grep "^space" "$OUT/$f.txt"
        python3 bench/sustained_clocks.py "$OUT/$f.txt" "$OUT/clocks.csv"; done' ;;
    mmspace16) step mmspace16 330 bash -c 'nvidia-smi -i 0 -lms 100 -f "$OUT/clocks.csv" --format=csv \
      --query-gpu=timestamp,clocks.sm,power.draw & smi=$!; p=build/bench/matmul_sustained
      $p --n 8192 --precision bf16 --candidates 8 --space 10 --space-s 40 > "$OUT/bf16.txt"
      $p --n 4096 --precision bf16 --candidates 8 --space 10 --space-s 30 --calls 60 > "$OUT/bf16_4096.txt"
      $p --n 4096 --precision tf32 --candidates 8 --space 8 --space-s 30 --calls 60 > "$OUT/tf32_4096.txt"
      kill $smi; sleep 0.5
      for f in bf16 bf16_4096 tf32_4096; do echo "== $f"; grep "^space" "$OUT/$f.txt"
        python3 bench/sustained_clocks.py "$OUT/$f.txt" "$OUT/clocks.csv"; done' ;;
    mmwindow) step mmwindow 200 bash -c 'nvidia-smi -i 0 -lms 100 -f "$OUT/clocks.csv" --format=csv \
      --query-gpu=timestamp,clocks.sm,power.draw & smi=$!; p="build/bench/matmul_sustained --candidates 4 --settle-ms 1000"
      $p --n 8192 --precision fp32 --calls 50 > "$OUT/fp32_8192.txt"; $p --n 4096 --precision fp32 --calls 400 \
        > "$OUT/fp32_4096.txt"; $p --n 4096 --precision bf16 --calls 5000 > "$OUT/bf16_4096.txt"; kill $smi; sleep 0.5
      for f in fp32_8192 fp32_4096 bf16_4096; do echo "== $f"; python3 bench/sustained_clocks.py "$OUT/$f.txt" \
        "$OUT/clocks.csv" | cut -c1-120; done' ;;
    mm4096) step mm4096 300 bash -c 'nvidia-smi -i 0 -lms 100 -f "$OUT/clocks.csv" --format=csv \
      --query-gpu=timestamp,clocks.sm,power.draw & smi=$!; p="build/bench/matmul_sustained --n 4096 --candidates 4 \
      --space 8 --space-s 20 --settle-ms 700"; $p --precision bf16 --calls 3000 > "$OUT/bf16.txt"
      $p --precision tf32 --calls 1500 > "$OUT/tf32.txt"; kill $smi; sleep 0.5
      for f in bf16 tf32; do echo "== 4096 $f"; grep "^space" "$OUT/$f.txt"; python3 bench/sustained_clocks.py \
        "$OUT/$f.txt" "$OUT/clocks.csv" | cut -c1-150; done
      python3 bench/torch_kernels.py --rows matmul:4096:tf32,matmul:4096:bf16 2>&1 | tail -12' ;;
    mmheat) step mmheat 300 bash -c 'nvidia-smi -i 0 -lms 100 -f "$OUT/clocks.csv" --format=csv \
      --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu & smi=$!
      i="python3 bench/compute_interleaved.py --gpuscale $GPUSCALE --conv none --matmul 4096 --precision tf32 \
        --min-time-ms 1000 --gs-args=--tune-window-ms=500"
      echo "== both sides settle 1 s (computeaccept before c4f1684)"; $i --out "$OUT/accept"
      echo "== both sides settle 5 s"; $i --out "$OUT/settle5" --warmup-ms 5000; kill $smi' ;;
    mmbimodal) step mmbimodal 200 bash -c 'nvidia-smi -i 0 -lms 100 -f "$OUT/clocks.csv" --format=csv \
      --query-gpu=timestamp,clocks.sm,power.draw & smi=$!
      python3 bench/compute_interleaved.py --gpuscale "$GPUSCALE" --out "$OUT" --conv none --matmul 4096 \
        --precision bf16 --rounds 4; rc=$?; kill $smi; exit $rc' ;;
    findshort) step findshort 150 bash -c 'for a in heuristic find exhaustive; do echo "== --cudnn-algo $a"
      "$GPUSCALE" compute --conv 1,256,64,64,256,3,3,1,1,1 --mnk 1024,1024,1024 --precision fp16,bf16,tf32 \
        --cudnn-algo $a --json "$OUT/$a.json" 2>&1 | grep -E "conv|matmul" | tail -20; done' ;;
    faultskip) NP=1 step faultskip 120 ctest --test-dir build -R "gpu_fault|gpu_nccl_hostid" --output-on-failure ;;
    matmulpaths) step matmulpaths 300 bash bench/matmul_paths_ab.sh ;;
    layertest) step layertest 240 ctest --test-dir build -L gpu -R "LayerGpu|MatmulPath" --output-on-failure ;;
    *) echo "unknown step $s"; exit 2 ;;
  esac
done
