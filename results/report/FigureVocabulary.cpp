#include "results/report/FigureVocabulary.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "results/base/CheckIds.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Spelling.hpp"
#include "results/views/PhaseView.hpp"

namespace gpuscale::results {
namespace {

using namespace names;

// The projection's figures, fitted from the phases' (ProjectionBuild.hpp); not a phase of its own.
constexpr FigureSpec kProjectionFigures[] = {
    {kProjection, kFitAlpha, "op,tier,ranks", "s"},
    {kProjection, kFitBeta, "op,tier,ranks", "s/B"},
    {kProjection, kFitHeldOutError, "op,tier,ranks", "ratio"},
    {kProjection, kNcclModelTime, "op,tier,ranks,bytes", "s"},
    {kProjection, kProjectedTime, "op,algorithm,ranks,bytes", "s"},
    {kProjection, kProjectedBusBw, "op,algorithm,ranks,bytes", "GB/s"},
    {kProjection, kProjectedStepTime, "model,config,ranks", "s"},
    {kProjection, kProjectedSamplesPerS, "model,config,ranks", "samples/s"},
};

// Every phase's figures, then the projection's: built once, on first use.
const std::vector<FigureSpec>& vocabulary() {
  static const std::vector<FigureSpec> all = [] {
    std::vector<FigureSpec> specs;
    for (const auto& view : phase_views()) specs.insert(specs.end(), view.vocabulary.begin(), view.vocabulary.end());
    specs.insert(specs.end(), std::begin(kProjectionFigures), std::end(kProjectionFigures));
    return specs;
  }();
  return all;
}

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

std::span<const FigureSpec> figure_vocabulary() { return vocabulary(); }

std::vector<std::string> figure_phases() {
  std::vector<std::string> phases;
  for (const auto& f : vocabulary())
    if (std::find(phases.begin(), phases.end(), f.phase) == phases.end()) phases.emplace_back(f.phase);
  phases.emplace_back(kChecks);
  return phases;
}

std::string phase_of_metric(std::string_view metric) {
  std::string found;
  for (const auto& f : vocabulary()) {
    if (f.metric != metric || f.phase == found) continue;
    if (!found.empty())
      throw std::logic_error(std::string(metric) + " is a figure of " + found + " and of " + std::string(f.phase));
    found = f.phase;
  }
  if (found.empty()) throw std::logic_error(std::string(metric) + " is no phase's figure");
  return found;
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
  for (const auto& f : vocabulary()) {
    if (f.metric != metric) continue;
    metric_phases.emplace(f.phase);
    if (phase.empty() || f.phase == phase) entries.push_back(f);
  }
  if (entries.empty() && metric_phases.empty()) {
    std::vector<std::string> metrics;  // of the phase named, or of every phase
    for (const auto& f : vocabulary())
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
