#!/usr/bin/env bash
# Checks gpuscale's build (and, with --tests, test) dependencies by what they provide, a command and its
# version or a header, and installs from Debian/Ubuntu packages only what is missing. Where something
# is missing and cannot be installed (no apt-get, apt-get fails, neither root nor sudo), it names what
# is missing and exits 1 before any build step; a machine that already has everything, from packages,
# pip, modules or elsewhere, exits 0 without touching apt-get.
#   launch/install-deps.sh [--tests] [PACKAGE...]
# --tests adds what the test labels need: GoogleTest, python3, chromium (html) and a one-node Slurm with
# munge and PMIx (slurm). PACKAGE...: extra Debian packages, installed where dpkg does not list them.
# The CUDA toolkit, NCCL and cuDNN are not handled here: where CMake finds them it builds the CUDA backend.
# Where it looks: commands on PATH; the compiler CXX (default c++, then g++); headers and libraries in
# CPATH, CPLUS_INCLUDE_PATH, LIBRARY_PATH, LD_LIBRARY_PATH and CMAKE_PREFIX_PATH's include/ and lib/,
# then the system's directories (the compiler's include path, /usr/include, /usr/lib/<arch>, ...).
# GPUSCALE_DEPS_INCLUDE_DIRS and GPUSCALE_DEPS_LIB_DIRS (colon-separated) replace the system's.
set -euo pipefail
readonly min_cmake=3.24
tests=0
extra_packages=()
for a in "$@"; do
  case $a in
    --tests) tests=1 ;;
    -*) echo "install-deps: unknown option $a (usage: install-deps.sh [--tests] [PACKAGE...])" >&2; exit 2 ;;
    *) [[ $a =~ ^[a-z0-9][a-z0-9+.-]*$ ]] || { echo "install-deps: '$a' is not a Debian package name" >&2; exit 2; }
       extra_packages+=("$a") ;;
  esac
done

split_dirs() {  # the colon-separated lists given, one existing directory a line
  local list dir
  for list in "$@"; do
    IFS=: read -ra parts <<<"$list"
    for dir in "${parts[@]}"; do [ -n "$dir" ] && [ -d "$dir" ] && echo "$dir"; done
  done
  return 0
}
prefix_dirs() {  # DIR_SUFFIX...: each CMAKE_PREFIX_PATH entry joined with each suffix
  local prefix suffix
  IFS=: read -ra prefixes <<<"${CMAKE_PREFIX_PATH:-}"
  for prefix in "${prefixes[@]}"; do
    for suffix in "$@"; do [ -n "$prefix" ] && [ -d "$prefix/$suffix" ] && echo "$prefix/$suffix"; done
  done
  return 0
}
compiler() { [ -n "${CXX:-}" ] && echo "$CXX" || command -v c++ || command -v g++ || true; }
compiler_include_dirs() {  # the compiler's own #include <...> search list
  local cxx
  cxx=$(compiler)
  [ -n "$cxx" ] || return 0
  echo | "$cxx" -x c++ -E -v - 2>&1 >/dev/null | sed -n '/search starts here:/,/End of search list/{s/^ //p}' || true
}
include_dirs() {
  split_dirs "${CPATH:-}" "${CPLUS_INCLUDE_PATH:-}"
  prefix_dirs include
  if [ -n "${GPUSCALE_DEPS_INCLUDE_DIRS:-}" ]; then
    split_dirs "$GPUSCALE_DEPS_INCLUDE_DIRS"
  else
    split_dirs "$(compiler_include_dirs | tr '\n' :)" /usr/local/include /usr/include /usr/include/x86_64-linux-gnu \
      /usr/include/aarch64-linux-gnu
  fi
}
lib_dirs() {
  split_dirs "${LIBRARY_PATH:-}" "${LD_LIBRARY_PATH:-}"
  prefix_dirs lib lib64
  if [ -n "${GPUSCALE_DEPS_LIB_DIRS:-}" ]; then
    split_dirs "$GPUSCALE_DEPS_LIB_DIRS"
  else
    split_dirs /usr/local/lib /usr/local/lib64 /usr/lib /usr/lib64 /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu
  fi
}
have_header() {  # RELATIVE_PATH: found in an include directory
  local dir
  while read -r dir; do [ -f "$dir/$1" ] && return 0; done < <(include_dirs)
  return 1
}
have_lib() {  # GLOB...: a library file matching one of them in a library directory
  local dir pattern
  while read -r dir; do
    for pattern in "$@"; do compgen -G "$dir/$pattern" >/dev/null && return 0; done
  done < <(lib_dirs)
  return 1
}
have_cmake() {
  command -v cmake >/dev/null || return 1
  local version
  version=$(cmake --version 2>/dev/null | sed -n '1s/.*version \([0-9][0-9.]*\).*/\1/p')
  [ -n "$version" ] && [ "$(printf '%s\n%s\n' "$min_cmake" "$version" | sort -V | head -1)" = "$min_cmake" ]
}
have_cxx20() {  # the compiler accepts C++20 and its standard library has <span> and <concepts>
  local cxx
  cxx=$(compiler)
  [ -n "$cxx" ] || return 1
  printf '#include <concepts>\n#include <span>\n#if __cplusplus < 202002L\n#error\n#endif\nint main() {}\n' |
    "$cxx" -std=c++20 -x c++ -fsyntax-only - >/dev/null 2>&1
}
have_generator() {  # what CMake's default generator (or $CMAKE_GENERATOR) runs
  case ${CMAKE_GENERATOR:-} in
    Ninja*) command -v ninja >/dev/null ;;
    *) command -v make >/dev/null ;;
  esac
}
have_package() {
  command -v dpkg-query >/dev/null && dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
have_blas() { have_header cblas.h || have_lib 'libopenblas.so*' 'libblas.so*'; }
have_slurm_plugins() { have_lib 'slurm-wlm/select_cons_tres.so' 'slurm/select_cons_tres.so'; }

# Each need: "description;probe command;Debian package".
needs=(
  "cmake >= $min_cmake;have_cmake;cmake"
  "make (or ninja with CMAKE_GENERATOR=Ninja);have_generator;make"
  "a C++20 compiler (CXX, c++ or g++);have_cxx20;g++"
  "mpicxx;command -v mpicxx;libopenmpi-dev"
  "mpirun;command -v mpirun;openmpi-bin"
  "cxxopts.hpp;have_header cxxopts.hpp;libcxxopts-dev"
  "nlohmann/json.hpp;have_header nlohmann/json.hpp;nlohmann-json3-dev"
  "a BLAS (cblas.h or libopenblas/libblas);have_blas;libopenblas-dev"
)
if [ "$tests" -eq 1 ]; then
  needs+=(
    "GoogleTest (gtest/gtest.h);have_header gtest/gtest.h;libgtest-dev"
    "python3;command -v python3;python3"
    "chromium;command -v chromium || command -v chromium-browser;chromium"
    "promtool;command -v promtool;prometheus"
    "prometheus-node-exporter;command -v prometheus-node-exporter;prometheus-node-exporter"
    "pandas for /usr/bin/python3;/usr/bin/python3 -c 'import pandas';python3-pandas"
    "slurmctld;command -v slurmctld;slurmctld"
    "slurmd;command -v slurmd;slurmd"
    "srun, salloc, sbatch;command -v srun && command -v salloc && command -v sbatch;slurm-client"
    "Slurm's plugins (select_cons_tres.so);have_slurm_plugins;slurm-wlm-basic-plugins"
    "munged;command -v munged;munge"
    "PMIx (libpmix.so);have_lib 'libpmix.so' 'pmix*/lib/libpmix.so';libpmix-dev"
  )
fi
for p in "${extra_packages[@]}"; do needs+=("package $p;have_package $p;$p"); done

missing=() packages=()
probe() {  # fills missing (descriptions) and packages (their Debian packages, once each)
  missing=() packages=()
  local need what check package
  for need in "${needs[@]}"; do
    IFS=';' read -r what check package <<<"$need"
    eval "$check" >/dev/null 2>&1 && continue
    missing+=("$what")
    [[ " ${packages[*]} " == *" $package "* ]] || packages+=("$package")
  done
}
fail_missing() {  # WHY: names every missing thing and its package, then exits 1
  echo "install-deps: $1; missing:" >&2
  local i
  for i in "${!missing[@]}"; do echo "  ${missing[$i]}" >&2; done
  echo "install-deps: install them (Debian packages: ${packages[*]}) or point GPUSCALE_DEPS_INCLUDE_DIRS," \
    "GPUSCALE_DEPS_LIB_DIRS, CXX or PATH at them, then run this again" >&2
  exit 1
}

probe
[ ${#missing[@]} -eq 0 ] && exit 0
command -v apt-get >/dev/null || fail_missing "no apt-get to install with"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || fail_missing "not root and no sudo"
  sudo=(sudo)
fi
echo "install-deps: installing ${packages[*]} for: ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq || fail_missing "apt-get update failed (no network or no package source?)"
# Without systemd, package scripts may try to start daemons (munge, slurm): forbid that during install.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee /usr/sbin/policy-rc.d >/dev/null
  "${sudo[@]}" chmod +x /usr/sbin/policy-rc.d
  trap '"${sudo[@]}" rm -f /usr/sbin/policy-rc.d' EXIT
fi
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" \
  >/dev/null ||
  fail_missing "apt-get could not install ${packages[*]}"
probe
[ ${#missing[@]} -eq 0 ] || fail_missing "still missing after apt-get install ${packages[*]}"
