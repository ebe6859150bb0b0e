#include "results/TrainRecord.hpp"

#include <cmath>
#include <cstdio>

#include "results/Format.hpp"
#include "results/CheckIds.hpp"
#include "results/Stragglers.hpp"

namespace gpuscale::results {
namespace {

std::string label(const TrainRecord& r) {
  return r.strategy + " " + r.model + " " + r.precision + " " + std::to_string(r.gpus) + " GPU" +
         (r.gpus == 1 ? "" : "s") + " (" + r.scaling + ")";
}

std::string sci(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", v);
  return text;
}

bool measured(const TrainRecord& r) { return r.skipped_reason.empty() && r.samples_per_s > 0; }

// The 1-GPU record that `r` scales from, or nullptr.
const TrainRecord* baseline_of(const std::vector<TrainRecord>& all, const TrainRecord& r) {
  const std::int64_t batch = r.scaling == "strong" ? r.global_batch : r.batch_per_gpu;
  const TrainRecord* own = nullptr;
  for (const auto& b : all) {
    if (!measured(b) || b.gpus != 1 || b.model != r.model || b.precision != r.precision || b.batch_per_gpu != batch ||
        b.accum != r.accum || b.h2d != r.h2d)
      continue;
    if (b.strategy == "single") return &b;
    if (b.strategy == r.strategy && !own) own = &b;
  }
  return own;
}

void mark_stragglers(TrainRecord& r, double threshold, std::vector<Check>& checks) {
  if (r.ranks.size() < 2) return;
  std::vector<double> medians;
  for (const auto& k : r.ranks) medians.push_back(k.step_s.median);
  const double typical = median(medians);
  for (auto& k : r.ranks) {
    // Relative and absolute: tens of microseconds of jitter on a tiny step are no straggler.
    k.straggler = is_straggler(k.step_s.median, typical, threshold) && k.step_s.median - typical > 50e-6;
    if (k.straggler)
      checks.push_back({check_ids::kTrainStraggler, Severity::warning, {k.rank},
                        label(r) + ": step " + fixed(k.step_s.median * 1e3, 2) + " ms vs median rank " +
                            fixed(typical * 1e3, 2) + " ms (+" + percent(excess_over(k.step_s.median, typical), 0) +
                            "): check this GPU's clocks, links and neighbours"});
  }
}

}  // namespace

std::string train_options_text(const TrainRecord& r) {
  std::string c;
  const auto add = [&c](const std::string& option) {
    if (!c.empty()) c += ' ';
    c += option;
  };
  if (r.grad_dtype != "fp32") add("grad:" + r.grad_dtype);
  if (r.accum > 1) add("accum:" + std::to_string(r.accum));
  if (!r.overlap && r.strategy == "ddp") add("no-overlap");
  if (r.optimizer_overlap) add("opt-overlap");
  if (r.comm_priority != "normal") add("comm:" + r.comm_priority);
  if (r.comm_buffers != "plain") add("buf:" + r.comm_buffers);
  if (r.comm_ctas > 0 || !r.comm_ctas_trials.empty())
    add("ctas:" + (r.comm_ctas > 0 ? std::to_string(r.comm_ctas) : std::string("nccl")) +
        (r.comm_ctas_trials.empty() ? "" : "(auto)"));
  if (r.comm_sm_margin > 0) add("sm-margin:" + std::to_string(r.comm_sm_margin));
  if (r.h2d) add("h2d");
  return c;
}

std::string train_config(const TrainRecord& r) {
  const std::string options = train_options_text(r);
  return r.strategy + " " + r.model + " " + r.precision + " x" + std::to_string(r.gpus) + " " + r.scaling +
         (options.empty() ? "" : " " + options);
}

std::vector<Check> finish_train_results(TrainResults& results, double straggler_threshold) {
  std::vector<Check> checks;
  for (auto& r : results.records) {
    if (!measured(r)) continue;
    if (const TrainRecord* base = baseline_of(results.records, r))
      r.efficiency = r.samples_per_s / (static_cast<double>(r.gpus) * base->samples_per_s);
    mark_stragglers(r, straggler_threshold, checks);
  }
  for (const auto& c : results.verifications) {
    if (c.passed) continue;
    checks.push_back({check_ids::kTrainCheckPrefix + c.name, Severity::error, {},
                      c.config + ": error " + sci(c.error) + " exceeds " + sci(c.tolerance) +
                          (c.detail.empty() ? "" : " (" + c.detail + ")")});
  }
  return checks;
}

}  // namespace gpuscale::results
