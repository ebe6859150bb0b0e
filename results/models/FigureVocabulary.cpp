#include "results/models/FigureVocabulary.hpp"

#include <algorithm>
#include <set>

#include "results/models/FigureNames.hpp"
#include "results/models/Spelling.hpp"
#include "results/schema/CheckIds.hpp"

namespace gpuscale::results {
namespace {

using namespace names;

// Label sets shared by several metrics.
constexpr std::string_view kSweepLabels = "op,bytes,ranks,scope,placement,dtype";
constexpr std::string_view kScalingLabels = "op,bytes,ranks,scope";
constexpr std::string_view kHeadlineLabels = "op,scope,dtype";
constexpr std::string_view kComputeLabels = "layer,precision,pass,set,rank";
constexpr std::string_view kTrainLabels = "strategy,model,precision,scaling,gpus,options?";
constexpr std::string_view kBurnLabels = "rank,precision";

// The check figures (phase "checks", metric = check id) are not listed: any known check id is one.
constexpr FigureSpec kVocabulary[] = {
    {phase::env, kSmokeAllreduceTime, "rank", "s"},
    {phase::env, kSmokeInitTime, "rank", "s"},
    {phase::env, kWrongElements, "rank,test", "count"},
    {phase::env, kGpuMemoryTotal, "rank", "B"},
    {phase::env, kGpuMemoryFree, "rank", "B"},
    {phase::env, kSmClock, "rank", "MHz"},
    {phase::env, kSmClockMax, "rank", "MHz"},
    {phase::env, kMemoryClock, "rank", "MHz"},
    {phase::env, kTemperature, "rank", "C"},
    {phase::env, kPowerDraw, "rank", "W"},
    {phase::env, kPowerLimit, "rank", "W"},
    {phase::env, "foreign_gpu_processes", "rank", "count"},
    {phase::env, "gpu_utilization_before_start", "rank", "%"},
    {phase::env, "rdma_port_rate", "rank,adapter,port", "Gb/s"},
    {phase::links, kHostCopyBw, "rank,direction,memory,mode,bytes", "GB/s"},
    {phase::links, kHbmBw, "rank,kernel", "GB/s"},
    {phase::links, kHbmPeakFraction, "rank,kernel", "ratio"},
    {phase::links, kNvlinkErrors, "rank", "count"},
    {phase::links, kXidEvents, "rank", "count"},
    {phase::compute, kTflops, kComputeLabels, "TFLOP/s"},
    {phase::compute, kTime, kComputeLabels, "s"},
    {phase::compute, kRelativeError, kComputeLabels, "ratio"},
    {phase::compute, kWrongElements, kComputeLabels, "count"},
    {phase::compute, kStragglerSpread, "layer,precision,pass,set", "ratio"},
    {phase::burn, kSustainedTflops, kBurnLabels, "TFLOP/s"},
    {phase::burn, "first_to_sustained", kBurnLabels, "ratio"},
    {phase::burn, "clock_p50", kBurnLabels, "MHz"},
    {phase::burn, "peak_temperature", kBurnLabels, "C"},
    {phase::collectives, kBusBw, kSweepLabels, "GB/s"},
    {phase::collectives, kBusBw, kScalingLabels, "GB/s"},
    {phase::collectives, kAlgBw, kSweepLabels, "GB/s"},
    {phase::collectives, kTime, kSweepLabels, "s"},
    {phase::collectives, kWrongElements, kSweepLabels, "count"},
    {phase::collectives, kWrongElements, kScalingLabels, "count"},
    {phase::collectives, kPeakBusBw, kHeadlineLabels, "GB/s"},
    {phase::collectives, kLatency, kHeadlineLabels, "s"},
    {phase::collectives, kLatencyGraph, kHeadlineLabels, "s"},
    {phase::collectives, kLinkUse, kHeadlineLabels, "ratio"},
    {phase::collectives, kPairBusBw, "src,dst", "GB/s"},
    {phase::collectives, kPairLatency, "src,dst", "s"},
    {phase::collectives, kNodeLocalBusBw, "node", "GB/s"},
    {phase::collectives, kInterNodeBusBw, "node", "GB/s"},
    {phase::train, kStepTime, kTrainLabels, "s"},
    {phase::train, kSamplesPerS, kTrainLabels, "samples/s"},
    {phase::train, kScalingEfficiency, kTrainLabels, "ratio"},
    {phase::train, kComputeTime, kTrainLabels, "s"},
    {phase::train, kCommTime, kTrainLabels, "s"},
    {phase::train, kExposedCommTime, kTrainLabels, "s"},
    {phase::train, kOverlap, kTrainLabels, "%"},
    {phase::train, kPeakMemory, kTrainLabels, "B"},
    {phase::train, kRankStepTime, "strategy,model,precision,scaling,gpus,options?,rank", "s"},
    {phase::train, kDpPhaseTime, "strategy,model,precision,scaling,gpus,options?,dp_phase", "s"},
    {kProjection, kFitAlpha, "op,tier,ranks", "s"},
    {kProjection, kFitBeta, "op,tier,ranks", "s/B"},
    {kProjection, kFitHeldOutError, "op,tier,ranks", "ratio"},
    {kProjection, kNcclModelTime, "op,tier,ranks,bytes", "s"},
    {kProjection, kProjectedTime, "op,algorithm,ranks,bytes", "s"},
    {kProjection, kProjectedBusBw, "op,algorithm,ranks,bytes", "GB/s"},
    {kProjection, kProjectedStepTime, "model,config,ranks", "s"},
    {kProjection, kProjectedSamplesPerS, "model,config,ranks", "samples/s"},
};

constexpr std::string_view kCheckLabels = "severity,on_ranks?";

std::vector<std::string> label_keys_of(std::string_view labels) {
  std::vector<std::string> keys;
  while (!labels.empty()) {
    const auto comma = labels.find(',');
    auto key = labels.substr(0, comma);
    if (!key.empty() && key.back() == '?') key.remove_suffix(1);
    keys.emplace_back(key);
    labels = comma == std::string_view::npos ? std::string_view{} : labels.substr(comma + 1);
  }
  return keys;
}

std::string comma_list(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

}  // namespace

std::span<const FigureSpec> figure_vocabulary() { return kVocabulary; }

std::vector<std::string> figure_phases() {
  std::vector<std::string> phases;
  for (const auto& f : kVocabulary)
    if (std::find(phases.begin(), phases.end(), f.phase) == phases.end()) phases.emplace_back(f.phase);
  phases.emplace_back(kChecks);
  return phases;
}

std::string names_nothing(std::string_view phase, std::string_view metric, const std::vector<std::string>& label_keys,
                          std::string_view unit) {
  const auto phases = figure_phases();
  if (!phase.empty() && std::find(phases.begin(), phases.end(), phase) == phases.end())
    return "unknown phase '" + std::string(phase) + "'" + did_you_mean(phase, phases) + " (" + comma_list(phases) + ")";
  // The entries the name could mean: the metric in the phase named, or in any phase.
  std::vector<FigureSpec> entries;
  std::set<std::string> metric_phases;
  const bool check = phase == kChecks || (phase.empty() && check_ids::is_known(metric));
  if (check) {
    if (!check_ids::is_known(metric))
      return "unknown check id '" + std::string(metric) + "' (phase checks holds one figure per check id)";
    entries.push_back({kChecks, metric, kCheckLabels, "count"});
  }
  for (const auto& f : kVocabulary) {
    if (f.metric != metric) continue;
    metric_phases.emplace(f.phase);
    if (phase.empty() || f.phase == phase) entries.push_back(f);
  }
  if (entries.empty() && metric_phases.empty()) {
    std::vector<std::string> metrics;  // of the phase named, or of every phase
    for (const auto& f : kVocabulary)
      if (phase.empty() || f.phase == phase) metrics.emplace_back(f.metric);
    const auto guess = did_you_mean(metric, metrics);
    return "unknown metric '" + std::string(metric) + "'" +
           (guess.empty() ? " (the figures are listed in docs/REPORT.md)" : guess);
  }
  if (entries.empty())
    return std::string(metric) + " is a figure of " +
           comma_list(std::vector<std::string>(metric_phases.begin(), metric_phases.end())) + ", not of " +
           std::string(phase);
  std::set<std::string> known;
  for (const auto& e : entries)
    for (auto& k : label_keys_of(e.labels)) known.insert(std::move(k));
  const std::string name = (phase.empty() ? "" : std::string(phase) + " ") + std::string(metric);
  for (const auto& key : label_keys)
    if (!known.count(key))
      return "label '" + key + "' is not one of " + name + "'s (" +
             comma_list(std::vector<std::string>(known.begin(), known.end())) + ")";
  if (!unit.empty() && std::none_of(entries.begin(), entries.end(), [&](const FigureSpec& e) { return e.unit == unit; }))
    return "unit '" + std::string(unit) + "' is not " + name + "'s (" + std::string(entries.front().unit) + ")";
  return "";
}

}  // namespace gpuscale::results
