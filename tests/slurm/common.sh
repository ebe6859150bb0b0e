# Sourced by the slurm tests: a scratch directory, and launches that can never hang or stay pending.
set -euo pipefail
: "${SLURM_CONF:?the slurm tests run against the private cluster (ctest starts it)}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# bounded CMD...: at most 150 s, then TERM, then KILL. Slurm commands also get --immediate, so a
# request the node cannot grant fails at once instead of waiting in the queue.
bounded() { timeout -k 10 150 "$@"; }
check_env() { python3 "$here/check_env.py" "$@"; }
