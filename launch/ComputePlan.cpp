#include "launch/ComputePlan.hpp"

#include <algorithm>
#include <optional>

#include "harness/Error.hpp"
#include "launch/OptionValue.hpp"

namespace gpuscale::launch {
namespace {

using harness::UsageError;
using namespace workloads;

// "a;b;c" -> {"a", "b", "c"}: several --mnk / --conv shapes in one option (commas are taken).
std::vector<std::string> split_shapes(const std::string& text) { return split_list(text, ';'); }

std::vector<NamedShape> shapes_for(const cxxopts::ParseResult& r, std::optional<Layout> layout, Precision p,
                                   bool cpu_backend) {
  const Layout conv_layout = layout.value_or(auto_layout(p));
  const std::string mnk = option<std::string>(r, "mnk", ""), conv = option<std::string>(r, "conv", "");
  const bool user = !mnk.empty() || !conv.empty();
  std::vector<NamedShape> out;
  if (!mnk.empty())
    for (const auto& s : split_shapes(mnk)) out.push_back({"user", "matmul", parse_mnk(s)});
  if (!conv.empty())
    for (const auto& s : split_shapes(conv)) out.push_back({"user", "conv", parse_conv(s, conv_layout)});
  // Sets: as asked, or the defaults when no shape was given at all.
  const std::string sets = option<std::string>(r, "shapes", user ? "" : cpu_backend ? "cpu" : "default");
  if (!sets.empty())
    for (auto& s : shape_sets(sets, conv_layout)) out.push_back(std::move(s));
  return out;
}

// "all", or any of fwd, bwd_data, bwd_weight separated by commas.
PassSet parse_passes(const std::string& text) {
  if (text == "all") return kEveryPass;
  PassSet set = 0;
  for (const auto& name : split_list(text, ',')) {
    const auto* pass = std::find_if(std::begin(kAllPasses), std::end(kAllPasses),
                                    [&](Pass p) { return to_string(p) == name; });
    if (pass == std::end(kAllPasses))
      throw UsageError("--passes: '" + name + "' is none of fwd, bwd_data, bwd_weight (or all)");
    set |= pass_bit(*pass);
  }
  return set;
}

// Upper bounds past any sensible run, so that a typo or an overflow is refused before any work.
constexpr int kMaxCalls = 1'000'000;
constexpr int kMaxCandidates = 1024;
constexpr double kMaxWorkspaceMb = 1 << 20;  // a TiB
constexpr double kMaxStragglerFraction = 100;

}  // namespace

ComputePlan parse_compute_plan(const cxxopts::ParseResult& r, bool quick, bool cpu_backend) {
  ComputePlan plan;
  // --quick (the preflight, 15 s for every phase) measures the precisions training runs in.
  const auto precisions =
      parse_precision_list(option<std::string>(r, "precision", quick ? "tf32,bf16" : "fp32,tf32,fp16,bf16"));
  const std::string layout_text = option<std::string>(r, "layout", "auto");
  std::optional<Layout> layout;
  if (layout_text != "auto") layout = parse_layout(layout_text);
  // Shape-major order: a shape's precisions side by side in the table.
  std::vector<std::vector<NamedShape>> per_precision;
  for (Precision p : precisions) per_precision.push_back(shapes_for(r, layout, p, cpu_backend));
  for (std::size_t s = 0; s < per_precision.front().size(); ++s)
    for (std::size_t p = 0; p < precisions.size(); ++p) plan.items.push_back({per_precision[p][s], precisions[p]});

  plan.tuning.conv_search = parse_algo_search(option<std::string>(r, "cudnn-algo", "heuristic"));
  const double workspace_mb = option_within(r, "workspace-mb", 1024.0, 0.0, kMaxWorkspaceMb);
  plan.tuning.workspace_limit_bytes = static_cast<std::size_t>(workspace_mb * 1024 * 1024);
  plan.tuning.matmul_candidates = option_within(r, "matmul-candidates", 8, 1, kMaxCandidates);
  plan.tuning.conv_plans = option_within(r, "cudnn-plans", 8, 1, kMaxCandidates);
  plan.tuning.conv_runtime_compiled = r.count("cudnn-runtime-compiled") > 0;
  plan.tuning.matmul_path = parse_matmul_path(option<std::string>(r, "matmul-path", "lt"));
  plan.bench.iterations = option_within(r, "iters", quick ? 5 : 20, 1, kMaxCalls);
  plan.bench.warmup = option_within(r, "warmup", quick ? 2 : 5, 0, kMaxCalls);
  plan.bench.warmup_s = option_within(r, "warmup-ms", 0.0, 0.0, 3'600'000.0) * 1e-3;
  plan.bench.min_time_s = option_within(r, "min-time-ms", 0.0, 0.0, 60'000.0) * 1e-3;
  plan.tuning.settled_window_s = option_within(r, "tune-window-ms", 0.0, 0.0, 10'000.0) * 1e-3;
  plan.bench.passes = parse_passes(option<std::string>(r, "passes", "all"));
  plan.bench.check = !r.count("no-check");
  plan.straggler_threshold = option_within(r, "straggler-threshold", results::kDefaultStragglerThreshold, 0.0, kMaxStragglerFraction);
  if (!(plan.straggler_threshold > 0))
    throw UsageError("--straggler-threshold must be a positive fraction (0.10 = 10%)");
  return plan;
}

}  // namespace gpuscale::launch
