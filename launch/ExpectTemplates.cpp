#include "launch/ExpectTemplates.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <variant>

#include "launch/base/Profile.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/GpuReference.hpp"
#include "results/report/FigureVocabulary.hpp"
#include "workloads/burn/Burn.hpp"
#include "workloads/layers/Precision.hpp"
#include "workloads/layers/ShapeSets.hpp"

namespace gpuscale::launch {
namespace {

using nlohmann::json;
namespace names = results::names;

constexpr TemplateModel kModels[] = {
    {"a100-sxm-80gb", "A100 80GB SXM"}, {"h100-sxm", "H100 SXM"}, {"h200-sxm", "H200 SXM"}};

// Warnings that rule a node out for a job by themselves: another process holds memory on a GPU; a row
// remap waits for a reset.
constexpr const char* kMustPass[] = {results::check_ids::kGpuInUse, results::check_ids::kRowRemapPending};

// The GEMM's forward pass: the backward passes run transposed GEMMs, whose tf32 weight gradient one
// H200 ran at 52-53% of the peak in healthy runs (the forward at 83%): a floor for every pass would sit
// on a healthy GPU's figure.
constexpr const char* kGemmPass = "fwd";

// Rounded down to a tenth: a template never holds a figure above its floor (the 1e-9 keeps 494.7 from
// reading 494.6 where 494.7 x 10 lands a hair under 4947 in binary).
double floor_value(double value) { return std::floor(value * 10 + 1e-9) / 10; }

json threshold(const std::string& phase, const std::string& metric, json labels, const results::Floor& floor,
               const std::string& what, const std::string& unit) {
  const double min = floor_value(floor.value);
  return json{{"name", what + " >= " + results::shortest(min) + " " + unit + " (" + floor.source + ")"},
              {"phase", phase},
              {"metric", metric},
              {"labels", std::move(labels)},
              {"min", min}};
}

const results::GpuReference& reference(const TemplateModel& model) {
  for (const auto& r : results::gpu_references())
    if (r.model == model.model) return r;
  throw std::logic_error("no floors for the template model " + std::string(model.model));
}

// The default shape set's GEMM, the compute phase's one shape large enough to near the peak.
std::string large_gemm_name() {
  for (const auto& s : workloads::shape_set("default", workloads::Layout::nhwc))
    if (std::holds_alternative<workloads::LinearShape>(s.shape)) return s.name;
  throw std::logic_error("the default shape set has no GEMM");
}

// The plan's profile; for a run written before plans were recorded, what its command line and
// backend say (`--quick`; the cpu backend adds "-cpu").
std::string profile_of(const results::RunReport& report) {
  if (report.plan) return report.plan->profile;
  const auto& line = report.command_line;
  const bool quick = line.find(" --quick") != std::string::npos;
  const bool cpu = !report.ranks.empty() && report.ranks.front().backend == "cpu";
  return std::string(quick ? "quick" : "default") + (cpu ? "-cpu" : "");
}

}  // namespace

std::span<const TemplateModel> template_models() { return kModels; }

json expect_template(const TemplateModel& model, bool quick) {
  const auto& gpu = reference(model);
  const std::string name(gpu.cuda_name);
  const auto profile = make_profile(quick, false);
  json thresholds = json::array();
  const std::string gemm = large_gemm_name();
  for (const auto precision : workloads::parse_precision_list(profile.compute.precisions)) {
    const std::string p(workloads::to_string(precision));
    if (const auto floor = results::compute_floor(name, p))
      thresholds.push_back(
          threshold(results::phase_of_metric(names::kTflops), names::kTflops,
                    {{names::kLayer, gemm}, {"set", "default"}, {"pass", kGemmPass}, {names::kPrecision, p}}, *floor,
                    "compute " + gemm + " " + p + " " + kGemmPass, "TFLOP/s"));
  }
  const std::string burn_precision(workloads::to_string(workloads::BurnOptions{}.precision));
  if (const auto floor = results::burn_floor(name, burn_precision))
    thresholds.push_back(threshold(results::phase_of_metric(names::kSustainedTflops), names::kSustainedTflops, {{names::kPrecision, burn_precision}}, *floor,
                                   "burn " + burn_precision + " sustained", "TFLOP/s"));
  const auto largest = *std::max_element(profile.links.pinned_bytes.begin(), profile.links.pinned_bytes.end());
  if (const auto floor = results::host_link_floor(name, std::nullopt, std::nullopt))
    for (const char* direction : {"h2d", "d2h"})
      thresholds.push_back(threshold(
          results::phase_of_metric(names::kHostCopyBw), names::kHostCopyBw,
          {{"direction", direction}, {"memory", "pinned"}, {"mode", "solo"}, {names::kBytes, std::to_string(largest)}},
          *floor, "host copy " + std::string(direction) + " pinned " + results::binary_bytes(largest), "GB/s"));
  if (const auto floor = results::hbm_floor(name))
    thresholds.push_back(threshold(results::phase_of_metric(names::kHbmBw), names::kHbmBw, {{"kernel", "copy"}}, *floor, "device copy", "GB/s"));
  json must_pass = json::array();
  for (const char* id : kMustPass) must_pass.push_back(id);
  return json{{"checks_must_pass", must_pass}, {"thresholds", thresholds}};
}

std::string template_file_name(const TemplateModel& model, bool quick) {
  return std::string(model.stem) + (quick ? "-quick" : "-default") + ".json";
}

std::string template_text(const json& t) { return t.dump(2) + "\n"; }

PickedTemplate pick_template(const results::RunReport& report) {
  const std::string rule = "expect template";
  const results::RankEnv* gpu_rank = nullptr;
  for (const auto& e : report.ranks)
    if (e.gpu) {
      gpu_rank = &e;
      break;
    }
  if (!gpu_rank)
    return {std::nullopt, {rule, results::RuleResult::skip, "--expect auto: no GPU (the cpu backend), no template"}};
  const std::string& gpu = gpu_rank->gpu->name;
  const auto* reference = results::find_gpu_reference(gpu);
  const TemplateModel* model = nullptr;
  for (const auto& m : kModels)
    if (reference && reference->model == m.model) model = &m;
  std::string known;
  for (const auto& m : kModels) known += (known.empty() ? "" : ", ") + std::string(m.model);
  if (!model)
    return {std::nullopt,
            {rule, results::RuleResult::warn,
             "--expect auto: no template for " + gpu + " (templates: " + known + "); no thresholds checked"}};
  const std::string profile = profile_of(report);
  if (profile != "quick" && profile != "default")
    return {std::nullopt,
            {rule, results::RuleResult::warn,
             "--expect auto: no template for the run's profile '" + profile + "' (quick, default)"}};
  const bool quick = profile == "quick";
  return {expect_template(*model, quick),
          {rule, results::RuleResult::pass,
           template_file_name(*model, quick) + " for " + gpu + " (rank " + std::to_string(gpu_rank->rank) + "), the " +
               profile + " profile"}};
}

}  // namespace gpuscale::launch
