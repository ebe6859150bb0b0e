#!/usr/bin/env bash
# Installs gpuscale's build and test dependencies from Debian/Ubuntu packages, where missing.
# Needs root (or sudo) only when something is missing. The CUDA toolkit, NCCL and cuDNN are not
# installed here: where they are found, CMake builds the CUDA backend too.
# --tests adds what the test labels need: chromium (html: renders the report headless) and a
# one-node Slurm with PMIx (slurm). Other arguments are extra package names.
set -euo pipefail
extra=()
for a in "$@"; do
  if [ "$a" = "--tests" ]; then
    extra+=(chromium slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge libpmix-dev)
  else
    extra+=("$a")
  fi
done
packages=(cmake make g++ openmpi-bin libopenmpi-dev libcxxopts-dev nlohmann-json3-dev libopenblas-dev
          libgtest-dev python3 "${extra[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# Without systemd, package scripts may try to start daemons (munge, slurm): forbid that during install.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
  $sudo chmod +x /usr/sbin/policy-rc.d
  trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
