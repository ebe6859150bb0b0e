#include "collectives/SweepOptions.hpp"

#include <string>

#include "harness/Error.hpp"
#include "results/base/RuleInputRanges.hpp"

namespace gpuscale::collectives {
namespace {

using harness::UsageError;

constexpr std::size_t kMaxSizes = 10000;  // a typo like -i 1 -e 1G must not start a billion runs

}  // namespace

void validate(const SweepOptions& o) {
  auto fail = [](const std::string& why) { throw UsageError(why); };
  if (o.max_bytes < o.min_bytes) fail("-e (max bytes) is smaller than -b (min bytes)");
  if (o.step_bytes == 0 && o.step_factor < 2) fail("-f (step factor) must be at least 2");
  if (o.step_bytes == 0 && o.min_bytes == 0) fail("-b must be at least 1 with a step factor (0 * f stays 0)");
  if (o.iterations < 1) fail("-n (iterations) must be at least 1");
  if (o.warmup < 0) fail("-w (warm-up iterations) must not be negative");
  if (o.check_passes < 0) fail("-c (check passes) must not be negative");
  if (o.graph_launches < 0) fail("-G (graph launches) must not be negative");
  if (o.aggregated < 1) fail("-m (ops per iteration) must be at least 1");
  if (o.root < 0) fail("-r (root) must not be negative");
  if (!results::is_pair_threshold(o.pair_threshold)) fail("--pair-threshold must lie in [0, 1]");
  if (!results::is_isolate_threshold(o.isolation_threshold)) fail("--isolate-threshold must lie in (0, 1)");
  if (o.isolation_rounds < 1) fail("--isolate-rounds must be at least 1");
  if (o.isolation_bytes < 8) fail("--isolate-bytes must be at least 8");
  if (!(o.link_threshold >= 0 && o.link_threshold <= 1)) fail("--link-threshold must lie in [0, 1]");
  if (!(o.net_gbps >= 0)) fail("--net-gbps must not be negative");
  if (o.step_bytes != 0) {
    if ((o.max_bytes - o.min_bytes) / o.step_bytes >= kMaxSizes) fail("-i gives more than 10000 sizes");
  }
}

PairMatrixMode parse_pair_mode(const std::string& text) {
  if (text == "auto") return PairMatrixMode::automatic;
  if (text == "all") return PairMatrixMode::all;
  if (text == "none") return PairMatrixMode::none;
  throw harness::UsageError("--pairs must be auto, all or none, got '" + text + "'");
}

std::vector<std::uint64_t> size_list(const SweepOptions& o) {
  validate(o);
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t size = o.min_bytes; size <= o.max_bytes;) {
    sizes.push_back(size);
    const std::uint64_t next = o.step_bytes ? size + o.step_bytes : size * o.step_factor;
    if (next <= size || (o.step_bytes == 0 && next / o.step_factor != size)) break;  // overflow
    size = next;
  }
  return sizes;
}

}  // namespace gpuscale::collectives
