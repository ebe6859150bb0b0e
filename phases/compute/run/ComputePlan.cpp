#include "phases/compute/run/ComputePlan.hpp"

#include <algorithm>
#include <optional>

#include "harness/Error.hpp"
#include "launch/base/OptionValue.hpp"
#include "launch/base/Profile.hpp"

namespace gpuscale::launch {
namespace {

using harness::UsageError;
using namespace workloads;

// "a;b;c" -> {"a", "b", "c"}: several --mnk / --conv shapes in one option (commas are taken).
std::vector<std::string> split_shapes(const std::string& text) { return split_list(text, ';'); }

std::vector<NamedShape> shapes_for(const cxxopts::ParseResult& r, std::optional<Layout> layout, Precision p,
                                   const std::string& default_sets) {
  const Layout conv_layout = layout.value_or(auto_layout(p));
  const std::string mnk = option<std::string>(r, "mnk", ""), conv = option<std::string>(r, "conv", "");
  const bool user = !mnk.empty() || !conv.empty();
  std::vector<NamedShape> out;
  if (!mnk.empty())
    for (const auto& s : split_shapes(mnk)) out.push_back({"user", "matmul", parse_mnk(s)});
  if (!conv.empty())
    for (const auto& s : split_shapes(conv)) out.push_back({"user", "conv", parse_conv(s, conv_layout)});
  // Sets: as asked, or the defaults when no shape was given at all.
  const std::string sets = option<std::string>(r, "shapes", user ? "" : default_sets);
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

}  // namespace

std::string passes_text(PassSet passes) {
  if (passes == kEveryPass) return "all";
  std::string text;
  for (Pass p : kAllPasses)
    if (passes & pass_bit(p)) text += (text.empty() ? "" : ",") + std::string(to_string(p));
  return text;
}

ComputePlan parse_compute_plan(const cxxopts::ParseResult& r, const ComputeProfile& profile) {
  ComputePlan plan;  // its initialisers: the defaults that no profile changes
  plan.bench.iterations = profile.iterations;
  plan.bench.warmup = profile.warmup;
  const auto precisions = parse_precision_list(option<std::string>(r, "precision", profile.precisions));
  const std::string layout_text = option<std::string>(r, "layout", kAutoLayout);
  std::optional<Layout> layout;
  if (layout_text != kAutoLayout) layout = parse_layout(layout_text);
  // Shape-major order: a shape's precisions side by side in the table.
  std::vector<std::vector<NamedShape>> per_precision;
  for (Precision p : precisions) per_precision.push_back(shapes_for(r, layout, p, profile.shape_sets));
  for (std::size_t s = 0; s < per_precision.front().size(); ++s)
    for (std::size_t p = 0; p < precisions.size(); ++p) plan.items.push_back({per_precision[p][s], precisions[p]});

  auto& tuning = plan.tuning;
  if (r.count("cudnn-algo")) tuning.conv_search = parse_algo_search(option<std::string>(r, "cudnn-algo", ""));
  if (const auto mb = option_within(r, "workspace-mb", 0.0, kMaxWorkspaceMb))
    tuning.workspace_limit_bytes = static_cast<std::size_t>(*mb * 1024 * 1024);
  tuning.matmul_candidates = option_within(r, "matmul-candidates", tuning.matmul_candidates, 1, kMaxCandidates);
  tuning.conv_plans = option_within(r, "cudnn-plans", tuning.conv_plans, 1, kMaxCandidates);
  tuning.conv_runtime_compiled = r.count("cudnn-runtime-compiled") > 0;
  if (r.count("matmul-path")) tuning.matmul_path = parse_matmul_path(option<std::string>(r, "matmul-path", ""));
  auto& bench = plan.bench;
  bench.iterations = option_within(r, "iters", bench.iterations, 1, kMaxCalls);
  bench.warmup = option_within(r, "warmup", bench.warmup, 0, kMaxCalls);
  bench.warmup_s = option_within(r, "warmup-ms", bench.warmup_s * 1e3, 0.0, 3'600'000.0) * 1e-3;
  bench.min_time_s = option_within(r, "min-time-ms", bench.min_time_s * 1e3, 0.0, 60'000.0) * 1e-3;
  tuning.settled_window_s = option_within(r, "tune-window-ms", tuning.settled_window_s * 1e3, 0.0, 10'000.0) * 1e-3;
  if (r.count("passes")) bench.passes = parse_passes(option<std::string>(r, "passes", ""));
  bench.check = !r.count("no-check");
  return plan;
}

}  // namespace gpuscale::launch
