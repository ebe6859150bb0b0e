// The command line of `gpuscale collectives`, read into collectives::SweepOptions.
#include <algorithm>
#include <climits>
#include <string>

#include "collectives/NcclTuningLog.hpp"
#include "collectives/Op.hpp"
#include "harness/Error.hpp"
#include "launch/base/Invocation.hpp"
#include "launch/base/OptionValue.hpp"
#include "launch/base/Profile.hpp"
#include "launch/base/ProjectionOptions.hpp"
#include "phases/collectives/run/CollectivesPhase.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch {
namespace {

// Upper bounds that no sensible sweep reaches, so a typo cannot start a run of days.
constexpr int kMaxIterations = 10'000'000;
constexpr int kMaxStepFactor = 65536;
constexpr int kMaxAggregated = 1024;
constexpr double kMaxNetGbps = 1e6;
constexpr int kMaxIsolationRounds = 1000;
// A message the cpu backend moves in milliseconds, so that 16 ranks on two cores finish the rounds.

}  // namespace

void add_collectives_options(cxxopts::Options& o) {
  const collectives::SweepOptions d;  // the defaults that no profile changes
  const auto by_profile = [](auto field) {
    return " (default " + profile_default_text([&](const Profile& p) { return field(p.collectives); }) + ")";
  };
  const auto fixed = [](const std::string& value) { return " (default " + value + ")"; };
  const auto number = [](auto value) { return results::shortest(static_cast<double>(value)); };
  o.add_options("collectives")
      ("b,minbytes", "smallest size in bytes: 8, 64K, 16M, 1G, 512MiB (K/M/G/T, 1024-based)" + fixed(size_text(d.min_bytes)),
       cxxopts::value<std::string>(), "SIZE")
      ("e,maxbytes", "largest size" + by_profile([](const CollectivesProfile& c) { return size_text(c.max_bytes); }),
       cxxopts::value<std::string>(), "SIZE")
      ("f,stepfactor", "multiply the size by F each step" +
       by_profile([](const CollectivesProfile& c) { return std::to_string(c.step_factor); }), cxxopts::value<int>(), "F")
      ("i,stepbytes", "add SIZE each step instead of -f", cxxopts::value<std::string>(), "SIZE")
      ("n,iters", "timed iterations per size" +
       by_profile([](const CollectivesProfile& c) { return std::to_string(c.iterations); }), cxxopts::value<int>(), "N")
      ("w,warmup_iters", "warm-up iterations per size" +
       by_profile([](const CollectivesProfile& c) { return std::to_string(c.warmup); }), cxxopts::value<int>(), "N")
      ("c,check", "check passes after timing; 0 disables the check" + fixed(std::to_string(d.check_passes)),
       cxxopts::value<int>(), "N")
      ("G,cudagraph", "time N launches of a CUDA graph of the -n iterations; 0: stream launches" +
       fixed(std::to_string(d.graph_launches)), cxxopts::value<int>(), "N")
      ("d,datatype", "float, half, bfloat16, double, int8, uint8, int32, uint32, int64, uint64" +
       fixed(std::string(harness::to_string(d.type))), cxxopts::value<std::string>(), "TYPE")
      ("o,op", "reduction: sum, prod, min, max, avg" + fixed(std::string(harness::to_string(d.redop))),
       cxxopts::value<std::string>(), "OP")
      ("r,root", "root of broadcast and reduce" + fixed(std::to_string(d.root)), cxxopts::value<int>(), "RANK")
      ("m,agg_iters", "ops per iteration, fused in one NCCL group" + fixed(std::to_string(d.aggregated)),
       cxxopts::value<int>(), "M")
      ("ops", "comma list of " + collectives::op_names() + ", or all" + fixed(std::string(collectives::kDefaultOps)),
       cxxopts::value<std::string>(), "LIST")
      ("scaling-sizes", "sizes for the scaling table over 2, 4, ..., N ranks; none disables it" +
       by_profile([](const CollectivesProfile& c) { return size_list_text(c.scaling_sizes); }),
       cxxopts::value<std::string>(), "LIST")
      ("scaling-ops", "ops for the scaling table" + fixed(std::string(collectives::kDefaultScalingOps)), cxxopts::value<std::string>(), "LIST")
      ("pair-bytes", "large message of the pairwise matrix; 0 disables it" +
       by_profile([](const CollectivesProfile& c) { return size_text(c.pair_large_bytes); }),
       cxxopts::value<std::string>(), "SIZE")
      ("pair-small-bytes", "small message of the pairwise matrix, for latency" + fixed(size_text(d.pair_small_bytes)),
       cxxopts::value<std::string>(), "SIZE")
      ("pairs", "pairwise matrix: auto (up to " + std::to_string(collectives::kPairMatrixAutoRanks) +
                " ranks), all or none (default auto)", cxxopts::value<std::string>(), "MODE")
      ("isolate", "only localise slow nodes: node-local allreduce, rounds of node pairs, bisection "
                  "(run by default from " + std::to_string(collectives::kIsolationAutoNodes) + " nodes)")
      ("isolate-rounds", "rounds of random node pairs (default " + std::to_string(d.isolation_rounds) + ")",
       cxxopts::value<int>(), "R")
      ("isolate-bytes", "message of the isolation measurements" +
        by_profile([](const CollectivesProfile& c) { return size_text(c.isolation_bytes); }),
        cxxopts::value<std::string>(), "SIZE")
      ("isolate-threshold", "a node fails a round under this fraction of the median of the round's other pairs (default " +
                            results::shortest(d.isolation_threshold) + ")", cxxopts::value<double>(), "X")
      ("pair-threshold", "flag pairs under this fraction of their class's median" + fixed(number(d.pair_threshold)),
       cxxopts::value<double>(), "X")
      ("link-threshold", "warn when peak busbw is under this fraction of the link" + fixed(number(d.link_threshold)),
       cxxopts::value<double>(), "X")
      ("net-gbps", "inter-node network per rank and direction, GB/s, for link expectations",
       cxxopts::value<double>(), "GBPS")
      ("nccl-algo", "record NCCL's algorithm/protocol per size from its tuning log (costs small-size timing)");
  add_projection_options(o);
}

collectives::SweepOptions collectives_options(const cxxopts::ParseResult& r, const CollectivesProfile& profile) {
  collectives::SweepOptions o;
  o.max_bytes = profile.max_bytes;
  o.step_factor = profile.step_factor;
  o.iterations = profile.iterations;
  o.warmup = profile.warmup;
  o.scaling_sizes = profile.scaling_sizes;
  o.pair_large_bytes = profile.pair_large_bytes;
  o.isolation_bytes = profile.isolation_bytes;
  try {
    o.min_bytes = size_option(r, "minbytes", o.min_bytes);
    o.max_bytes = size_option(r, "maxbytes", o.max_bytes);
    if (!r.count("maxbytes")) o.max_bytes = std::max(o.max_bytes, o.min_bytes);  // -b alone sweeps one size
    o.step_factor = static_cast<std::uint64_t>(option_within(r, "stepfactor", static_cast<int>(o.step_factor), 2, kMaxStepFactor));
    o.step_bytes = size_option(r, "stepbytes", o.step_bytes);
    if (r.count("stepfactor") && r.count("stepbytes")) throw harness::UsageError("give -f or -i, not both");
    o.iterations = option_within(r, "iters", o.iterations, 1, kMaxIterations);
    o.warmup = option_within(r, "warmup_iters", o.warmup, 0, kMaxIterations);
    o.check_passes = option_within(r, "check", o.check_passes, 0, kMaxIterations);
    o.graph_launches = option_within(r, "cudagraph", o.graph_launches, 0, kMaxIterations);
    if (r.count("datatype")) o.type = harness::parse_data_type(r["datatype"].as<std::string>());
    if (r.count("op")) o.redop = harness::parse_red_op(r["op"].as<std::string>());
    o.root = option_within(r, "root", o.root, 0, INT_MAX);
    o.aggregated = option_within(r, "agg_iters", o.aggregated, 1, kMaxAggregated);
    o.ops = collectives::parse_ops(r.count("ops") ? r["ops"].as<std::string>() : collectives::kDefaultOps);
    o.scaling_ops = collectives::parse_ops(r.count("scaling-ops") ? r["scaling-ops"].as<std::string>() : collectives::kDefaultScalingOps);
    if (r.count("scaling-sizes")) {
      const auto text = r["scaling-sizes"].as<std::string>();
      o.scaling_sizes = text == "none" ? std::vector<std::uint64_t>{}
                                       : harness::parse_size_list(text, "--scaling-sizes");
    }
    o.pair_large_bytes = size_option(r, "pair-bytes", o.pair_large_bytes, true);  // 0 disables the matrix
    o.pair_small_bytes = size_option(r, "pair-small-bytes", o.pair_small_bytes);
    if (r.count("pairs")) o.pair_mode = collectives::parse_pair_mode(r["pairs"].as<std::string>());
    if (r.count("isolate")) o.isolation = collectives::IsolationMode::only;
    o.isolation_rounds = option_within(r, "isolate-rounds", o.isolation_rounds, 1, kMaxIsolationRounds);
    o.isolation_bytes = size_option(r, "isolate-bytes", o.isolation_bytes);
    o.isolation_threshold = option_within(r, "isolate-threshold", o.isolation_threshold, 0.0, 1.0);
    o.pair_threshold = option_within(r, "pair-threshold", o.pair_threshold, 0.0, 1.0);
    o.link_threshold = option_within(r, "link-threshold", o.link_threshold, 0.0, 1.0);
    o.net_gbps = option_within(r, "net-gbps", o.net_gbps, 0.0, kMaxNetGbps);
  } catch (const cxxopts::exceptions::exception& e) {
    throw harness::UsageError(std::string("gpuscale collectives: ") + usage_text(e));
  }
  if (o.step_bytes) o.step_factor = 0;
  collectives::validate(o);
  return o;
}

void prepare_collectives(const Invocation& invocation) {
  if (invocation.options.count("nccl-algo"))
    collectives::enable_nccl_tuning_log();
}

}  // namespace gpuscale::launch
