#include "launch/ComputePlan.hpp"

#include <algorithm>
#include <cmath>
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

void validate(const ComputePlan& plan) {
  if (plan.bench.iterations < 1 || plan.bench.warmup < 0)
    throw UsageError("--iters must be at least 1 and --warmup not negative");
  if (!(plan.bench.warmup_s >= 0) || plan.bench.warmup_s > 3600)
    throw UsageError("--warmup-ms must be in 0..3600000");
  if (!(plan.bench.min_time_s >= 0) || plan.bench.min_time_s > 60)
    throw UsageError("--min-time-ms must be in 0..60000");
  if (!(plan.tuning.settled_window_s >= 0) || plan.tuning.settled_window_s > 10)
    throw UsageError("--tune-window-ms must be in 0..10000");
  if (!(plan.straggler_threshold > 0) || !std::isfinite(plan.straggler_threshold))
    throw UsageError("--straggler-threshold must be a positive fraction (0.10 = 10%)");
  if (plan.tuning.matmul_candidates < 1) throw UsageError("--matmul-candidates must be at least 1");
  if (plan.tuning.conv_plans < 1) throw UsageError("--cudnn-plans must be at least 1");
}

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
  const double workspace_mb = option<double>(r, "workspace-mb", 1024);
  if (!(workspace_mb >= 0) || !std::isfinite(workspace_mb)) throw UsageError("--workspace-mb must be >= 0");
  plan.tuning.workspace_limit_bytes = static_cast<std::size_t>(workspace_mb * 1024 * 1024);
  plan.tuning.matmul_candidates = option<int>(r, "matmul-candidates", 8);
  plan.tuning.conv_plans = option<int>(r, "cudnn-plans", 8);
  plan.tuning.conv_runtime_compiled = r.count("cudnn-runtime-compiled") > 0;
  plan.tuning.matmul_path = parse_matmul_path(option<std::string>(r, "matmul-path", "lt"));
  plan.bench.iterations = option<int>(r, "iters", quick ? 5 : 20);
  plan.bench.warmup = option<int>(r, "warmup", quick ? 2 : 5);
  plan.bench.warmup_s = option<double>(r, "warmup-ms", 0) * 1e-3;
  plan.bench.min_time_s = option<double>(r, "min-time-ms", 0) * 1e-3;
  plan.tuning.settled_window_s = option<double>(r, "tune-window-ms", 0) * 1e-3;
  plan.bench.passes = parse_passes(option<std::string>(r, "passes", "all"));
  plan.bench.check = !r.count("no-check");
  plan.straggler_threshold = option<double>(r, "straggler-threshold", kDefaultStragglerThreshold);
  validate(plan);
  return plan;
}

}  // namespace gpuscale::launch
