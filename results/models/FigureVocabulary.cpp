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
    {kEnv, kSmokeAllreduceTime, "rank", "s"},
    {kEnv, kSmokeInitTime, "rank", "s"},
    {kEnv, kWrongElements, "rank,test", "count"},
    {kEnv, kGpuMemoryTotal, "rank", "B"},
    {kEnv, kGpuMemoryFree, "rank", "B"},
    {kEnv, kSmClock, "rank", "MHz"},
    {kEnv, kSmClockMax, "rank", "MHz"},
    {kEnv, kMemoryClock, "rank", "MHz"},
    {kEnv, kTemperature, "rank", "C"},
    {kEnv, kPowerDraw, "rank", "W"},
    {kEnv, kPowerLimit, "rank", "W"},
    {kEnv, "foreign_gpu_processes", "rank", "count"},
    {kEnv, "gpu_utilization_before_start", "rank", "%"},
    {kEnv, "rdma_port_rate", "rank,adapter,port", "Gb/s"},
    {kLinks, kHostCopyBw, "rank,direction,memory,mode,bytes", "GB/s"},
    {kLinks, kHbmBw, "rank,kernel", "GB/s"},
    {kLinks, kHbmPeakFraction, "rank,kernel", "ratio"},
    {kLinks, kNvlinkErrors, "rank", "count"},
    {kLinks, kXidEvents, "rank", "count"},
    {kCompute, kTflops, kComputeLabels, "TFLOP/s"},
    {kCompute, kTime, kComputeLabels, "s"},
    {kCompute, kRelativeError, kComputeLabels, "ratio"},
    {kCompute, kWrongElements, kComputeLabels, "count"},
    {kCompute, kStragglerSpread, "layer,precision,pass,set", "ratio"},
    {kBurn, kSustainedTflops, kBurnLabels, "TFLOP/s"},
    {kBurn, "first_to_sustained", kBurnLabels, "ratio"},
    {kBurn, "clock_p50", kBurnLabels, "MHz"},
    {kBurn, "peak_temperature", kBurnLabels, "C"},
    {kCollectives, kBusBw, kSweepLabels, "GB/s"},
    {kCollectives, kBusBw, kScalingLabels, "GB/s"},
    {kCollectives, kAlgBw, kSweepLabels, "GB/s"},
    {kCollectives, kTime, kSweepLabels, "s"},
    {kCollectives, kWrongElements, kSweepLabels, "count"},
    {kCollectives, kWrongElements, kScalingLabels, "count"},
    {kCollectives, kPeakBusBw, kHeadlineLabels, "GB/s"},
    {kCollectives, kLatency, kHeadlineLabels, "s"},
    {kCollectives, kLatencyGraph, kHeadlineLabels, "s"},
    {kCollectives, kLinkUse, kHeadlineLabels, "ratio"},
    {kCollectives, kPairBusBw, "src,dst", "GB/s"},
    {kCollectives, kPairLatency, "src,dst", "s"},
    {kCollectives, kNodeLocalBusBw, "node", "GB/s"},
    {kCollectives, kInterNodeBusBw, "node", "GB/s"},
    {kTrain, kStepTime, kTrainLabels, "s"},
    {kTrain, kSamplesPerS, kTrainLabels, "samples/s"},
    {kTrain, kScalingEfficiency, kTrainLabels, "ratio"},
    {kTrain, kComputeTime, kTrainLabels, "s"},
    {kTrain, kCommTime, kTrainLabels, "s"},
    {kTrain, kExposedCommTime, kTrainLabels, "s"},
    {kTrain, kOverlap, kTrainLabels, "%"},
    {kTrain, kPeakMemory, kTrainLabels, "B"},
    {kTrain, kRankStepTime, "strategy,model,precision,scaling,gpus,options?,rank", "s"},
    {kTrain, kDpPhaseTime, "strategy,model,precision,scaling,gpus,options?,dp_phase", "s"},
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
