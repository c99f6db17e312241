#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for Strata and builds it into ./build (or $STRATA_BUILD_DIR).
# Installs Debian's packages (apt-get, as root or through sudo), configures with CMake and builds.
# The CUDA toolkit at /usr/local/cuda is used when present (collector and samples); not required.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config python3
  qt6-base-dev qt6-base-dev-tools libgl-dev
  libqcustomplot-dev libqcustomplot2.1-qt6 qt6-svg-dev
  nlohmann-json3-dev libsimdjson-dev zlib1g-dev libsqlite3-dev
  libprotobuf-dev protobuf-compiler libotf2-trace-dev otf2-tools
  libunwind-dev libdw-dev
  xvfb xauth fonts-dejavu-core
  openmpi-bin libopenmpi-dev
  openssh-client openssh-server
  dpkg-dev desktop-file-utils appstream lintian
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

build_dir=${STRATA_BUILD_DIR:-build}
extra=()
if [ -x /usr/local/cuda/bin/nvcc ]; then
  extra+=(-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DCUDAToolkit_ROOT=/usr/local/cuda)
fi
# Release: -O2 without debug information (CMakeLists.txt); ccache, precompiled headers and lld
# where present (cmake/StrataBuildSpeed.cmake). `cmake --preset dev` builds RelWithDebInfo.
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${extra[@]}" ${STRATA_CMAKE_ARGS:-}
cmake --build "$build_dir" -j "$(nproc)"
echo "setup: built into $build_dir"
