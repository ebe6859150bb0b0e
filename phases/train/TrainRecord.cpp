#include "phases/train/TrainRecord.hpp"

#include <cmath>


namespace gpuscale::results {

bool measured(const TrainRecord& r) { return r.skipped_reason.empty() && r.samples_per_s > 0; }

const TrainRecord* scaling_baseline(const std::vector<TrainRecord>& all, const TrainRecord& r) {
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

void finish_train_results(TrainResults& results) {
  for (auto& r : results.records) {
    if (!measured(r)) continue;
    if (const TrainRecord* base = scaling_baseline(results.records, r))
      r.efficiency = r.samples_per_s / (static_cast<double>(r.gpus) * base->samples_per_s);
  }
}

}  // namespace gpuscale::results
