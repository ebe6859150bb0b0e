#include "phases/burn/run/BurnPlan.hpp"

#include "launch/base/OptionValue.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch {
namespace {

// --burn-s: from one throughput window (BurnPhase.cpp: 250 ms) to an hour.
constexpr double kMinBurnS = 0.25;
constexpr double kMaxBurnS = 3600;

}  // namespace

void add_burn_options(cxxopts::Options& o) {
  const BurnPlan d;
  auto add = o.add_options("burn");
  add("burn-s", "seconds of load on every GPU at once (default " + results::fixed(kBurnCommandSeconds, 0) + ")",
      cxxopts::value<double>(), "S");
  add("precision",
      "the GEMM's precision: fp32, tf32, fp16 or bf16 (default " + std::string(workloads::to_string(d.burn.precision)) +
          ")",
      cxxopts::value<std::string>(), "P");
}

BurnPlan parse_burn_plan(const cxxopts::ParseResult& r, const Profile& profile, bool own_command) {
  BurnPlan plan;
  plan.burn.burn_s = option_within(r, "burn-s", own_command ? kBurnCommandSeconds : profile.burn.seconds, kMinBurnS,
                                   kMaxBurnS);
  if (r.count("precision")) plan.burn.precision = workloads::parse_precision(option<std::string>(r, "precision", ""));
  plan.burn.dim = profile.burn.dim;
  return plan;
}

}  // namespace gpuscale::launch
