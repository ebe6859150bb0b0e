#include "judge/ThresholdScope.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/SpeedJudged.hpp"
#include "results/schema/PhasesCompleted.hpp"
#include "results/world/Emulation.hpp"

namespace gpuscale::judge {

using namespace results;

namespace {

// Metrics that exist only between GPUs: a spread over them, a collective's link, a pair, scaling.
bool needs_two_gpus(const std::string& metric) {
  static const std::set<std::string> kBetween = {
      names::kBusBw,     names::kAlgBw,     names::kStragglerSpread, names::kScalingEfficiency, names::kLinkUse,
      names::kPeakBusBw, names::kPairBusBw, names::kPairLatency,     names::kNodeLocalBusBw,    names::kInterNodeBusBw};
  return kBetween.count(metric) > 0;
}

bool is_count(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// Ranks whose figures count for stragglers: those on a GPU (the CPU backend's are not judged).
long gpu_ranks(const RunReport& r) {
  if (r.ranks.empty()) return r.world_size;
  return std::count_if(r.ranks.begin(), r.ranks.end(), [](const RankEnv& e) { return speed_judged(e.backend); });
}

std::string values_text(const std::string& label, const std::vector<std::string>& values) {
  std::vector<std::string> shown;
  for (const auto& v : values) shown.push_back(label == names::kBytes && is_count(v) ? binary_bytes(std::stod(v)) : v);
  std::string text;
  for (std::size_t i = 0; i < shown.size() && i < 8; ++i) text += (i ? ", " : "") + shown[i];
  if (shown.size() > 8) text += " ... " + shown.back();
  return text;
}

// A label value the plan of `phase` never gives.
std::string unplanned_label(const Threshold& t, const RunPlanRecord& plan) {
  const auto phase = plan.labels.find(t.phase);
  if (phase == plan.labels.end()) return "";
  for (const auto& [key, value] : t.labels) {
    const auto planned = phase->second.find(key);
    if (planned == phase->second.end()) continue;
    if (std::find(planned->second.begin(), planned->second.end(), value) != planned->second.end()) continue;
    const std::string shown = key == names::kBytes && is_count(value) ? binary_bytes(std::stod(value)) : value;
    return "the " + plan.profile + " plan measures " + t.phase + " " + key + " " + values_text(key, planned->second) +
           ", not " + shown;
  }
  return "";
}

// Figures of how fast something ran: bandwidths, rates, times and the ratios made of them.
bool is_speed_metric(const std::string& metric) {
  static const std::set<std::string> kSpeed = {names::kBusBw,
                                               names::kAlgBw,
                                               names::kTime,
                                               names::kPeakBusBw,
                                               names::kLatency,
                                               names::kLatencyGraph,
                                               names::kPairBusBw,
                                               names::kPairLatency,
                                               names::kTflops,
                                               names::kSmokeAllreduceTime,
                                               names::kSmokeInitTime,
                                               names::kStepTime,
                                               names::kScalingEfficiency,
                                               names::kComputeTime,
                                               names::kExposedCommTime,
                                               names::kCommTime,
                                               names::kSamplesPerS,
                                               names::kOverlap,
                                               names::kRankStepTime,
                                               names::kDpPhaseTime,
                                               names::kStragglerSpread,
                                               names::kSustainedTflops,
                                               names::kLinkUse,
                                               names::kHostCopyBw,
                                               names::kHbmBw,
                                               names::kHbmPeakFraction,
                                               names::kNodeLocalBusBw,
                                               names::kInterNodeBusBw};
  return kSpeed.count(metric) > 0;
}

}  // namespace

std::string shared_gpu_skip(const Threshold& t, const RunReport& r) {
  if (!r.emulation || !r.emulation->shared_gpu || !is_speed_metric(t.metric)) return "";
  return "test layout: " + emulation_text(*r.emulation, r.node_count) + ", so speed is not judged";
}

std::string threshold_out_of_scope(const Threshold& t, const RunReport& r) {
  if (r.plan && !t.phase.empty() && t.phase != names::kChecks &&
      std::find(r.plan->phases.begin(), r.plan->phases.end(), t.phase) == r.plan->phases.end())
    return "the command does not run phase " + t.phase;
  for (const char* key : {names::kRanks, names::kGpus}) {
    const auto it = t.labels.find(key);
    if (it != t.labels.end() && is_count(it->second) && std::stoll(it->second) > r.world_size)
      return std::string(key) + " " + it->second + ": the job has " + std::to_string(r.world_size) +
             (r.world_size == 1 ? " rank" : " ranks");
  }
  if (const auto it = t.labels.find(names::kRank);
      it != t.labels.end() && is_count(it->second) && std::stoll(it->second) >= r.world_size)
    return "rank " + it->second + ": the job has ranks 0.." + std::to_string(r.world_size - 1);
  if (r.plan && !t.phase.empty())
    if (auto why = unplanned_label(t, *r.plan); !why.empty()) return why;
  if (needs_two_gpus(t.metric) && r.world_size < 2) return "one rank: no " + t.metric + " between GPUs";
  if (t.metric == names::kStragglerSpread && gpu_ranks(r) < 2)
    return "fewer than 2 GPU ranks: no spread between GPUs (CPU ranks are not judged for stragglers)";
  return "";
}

bool one_gpu_figure_unnamed(const Threshold& t, const Figure& f) {
  const auto is_one = [&f](const char* key) {
    const auto it = f.labels.find(key);
    return it != f.labels.end() && it->second == "1";
  };
  if (f.phase == results::phase::collectives && f.metric != names::kWrongElements && is_one(names::kRanks))
    return !t.labels.count(names::kRanks);
  if (f.metric == names::kScalingEfficiency && is_one(names::kGpus)) return !t.labels.count(names::kGpus);
  return false;
}

std::string why_not_measured(const Threshold& t, const RunReport& r) {
  const auto phases = t.phase.empty() ? std::vector<std::string>{} : std::vector<std::string>{t.phase};
  for (const auto& p : phases) {
    for (const auto& s : r.phases_skipped)
      if (s.phase == p) return "; phase " + p + " was not run: " + s.reason;
    if (!results::phase_completed(r, p))
      return "; phase " + p + " did not complete";
    if (r.budget)
      for (const auto& b : r.budget->phases)
        if (b.phase == p && !b.dropped.empty()) return "; phase " + p + " dropped work for the budget";
  }
  return "";
}

}  // namespace gpuscale::judge
