#include "workloads/train/TrainRankResult.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "results/base/Statistics.hpp"

namespace gpuscale::workloads {
// Not a field list: the message is one of two shapes, {"skipped"} or the figures, never both.
void to_json(nlohmann::json& j, const TrainRankResult& r) {
  if (!r.skipped_reason.empty()) {
    j = {{"skipped", r.skipped_reason}};
    return;
  }
  j = {{"figures", r.figures},
       {"buckets", r.buckets},
       {"window", r.window},
       {"ctas", r.cta_trials},
       {"trace", r.trace}};
}

void from_json(const nlohmann::json& j, TrainRankResult& r) {
  r = TrainRankResult{};
  if (j.contains("skipped")) {
    r.skipped_reason = j.at("skipped").get<std::string>();
    return;
  }
  r.figures = j.at("figures").get<results::TrainRankFigures>();
  r.buckets = j.at("buckets").get<int>();
  r.window = j.at("window").get<bool>();
  r.cta_trials = j.at("ctas").get<std::vector<std::pair<int, double>>>();
  r.trace = j.at("trace").get<std::vector<results::TraceSpan>>();
}

void derive_figures(results::TrainRecord& r, std::vector<results::TrainRankFigures> ranks, bool slowest) {
  if (ranks.empty()) return;
  const std::size_t steps = ranks.front().step_samples_s.size();
  for (std::size_t i = 0; i < steps; ++i) {
    double worst = 0;
    for (const auto& k : ranks) worst = std::max(worst, k.step_samples_s.at(i));
    r.step_samples_s.push_back(slowest ? worst : ranks.front().step_samples_s[i]);
  }
  r.step_s = results::summarize(r.step_samples_s);
  r.samples_per_s = static_cast<double>(r.global_batch * r.accum) / r.step_s.median;
  std::vector<double> computes, comms;
  for (const auto& k : ranks) {
    if (k.compute_s) computes.push_back(*k.compute_s);
    if (k.comm_s) comms.push_back(*k.comm_s);
    r.peak_memory_bytes = std::max(r.peak_memory_bytes, k.peak_memory_bytes);
  }
  r.compute_s = results::median_of(computes);
  r.comm_s = results::median_of(comms);
  if (r.compute_s) r.exposed_comm_s = std::max(0.0, r.step_s.median - *r.compute_s);
  if (r.comm_s && r.exposed_comm_s && *r.comm_s > 0)
    r.overlap_pct = std::clamp(100.0 * (1.0 - *r.exposed_comm_s / *r.comm_s), 0.0, 100.0);
  r.ranks = std::move(ranks);
}

void assemble_record(results::TrainRecord& r, const std::vector<std::optional<TrainRankResult>>& ranks, bool slowest,
                     std::vector<results::TraceSpan>* trace) {
  std::vector<results::TrainRankFigures> figures;
  for (const auto& part : ranks) {
    if (!part) continue;
    if (!part->skipped_reason.empty()) {
      r.skipped_reason = part->skipped_reason;
      return;
    }
    figures.push_back(part->figures);
    r.buckets = part->buckets;
    if (part->window) r.comm_buffers = "window";
    if (!part->cta_trials.empty()) {
      r.comm_ctas = part->cta_trials.front().first;
      r.comm_ctas_trials = part->cta_trials;
    }
    if (trace) trace->insert(trace->end(), part->trace.begin(), part->trace.end());
  }
  derive_figures(r, std::move(figures), slowest);
}

}  // namespace gpuscale::workloads
