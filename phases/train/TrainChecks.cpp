#include "phases/train/TrainChecks.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "judge/base/BesideTenant.hpp"
#include "judge/base/Stragglers.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/CheckTable.hpp"
#include "results/base/Format.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/base/SpeedJudged.hpp"
#include "results/base/StragglerSpread.hpp"

namespace gpuscale::judge {

using namespace results;

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

void stragglers(const TrainRecord& r, std::size_t index, double threshold, Judged& judged) {
  if (r.ranks.size() < 2) return;
  std::vector<double> medians;
  for (const auto& k : r.ranks) medians.push_back(k.step_s.median);
  const double typical = median(medians);
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    const auto& k = r.ranks[i];
    // Relative and absolute: tens of microseconds of jitter on a tiny step are no straggler.
    if (!is_straggler(k.step_s.median, typical, threshold) || k.step_s.median - typical <= 50e-6) continue;
    judged.marks.push_back(record_mark(TrainMark::straggler, index, i));
    judged.checks.push_back({check_ids::kTrainStraggler,
                             Severity::warning,
                             {k.rank},
                             label(r) + ": step " + fixed(k.step_s.median * 1e3, 2) + " ms vs median rank " +
                                 fixed(typical * 1e3, 2) + " ms (+" +
                                 percent(excess_over(k.step_s.median, typical), 0) +
                                 "): " + results::fix_text(check_ids::kTrainStraggler)});
  }
}

}  // namespace

Judged train_checks(const TrainResults& results, double straggler_threshold, const RecordMarks& marks) {
  Judged judged;
  for (std::size_t i = 0; i < results.records.size(); ++i)
    // A configuration beside another process: that process is its straggler (gpu-in-use).
    if (measured(results.records[i]) && !marks.has(TrainMark::beside_tenant, i))
      stragglers(results.records[i], i, straggler_threshold, judged);
  for (const auto& c : results.verifications) {
    if (c.passed) continue;
    judged.checks.push_back({check_ids::kTrainCheckPrefix + c.name, Severity::error, {},
                             c.config + ": error " + sci(c.error) + " exceeds " + sci(c.tolerance) +
                                 (c.detail.empty() ? "" : " (" + c.detail + ")")});
  }
  return judged;
}

namespace phases::train {
namespace {

// Host ranks share cores (CI runs 4 on 2): their spread is scheduling, not a slow GPU.
Judged train_family(const Records& train, const RuleContext& context) {
  const bool cpu = std::any_of(context.ranks.begin(), context.ranks.end(),
                               [](const RankPlace& p) { return !p.speed_judged; });
  return train_checks(train, cpu ? std::numeric_limits<double>::infinity() : context.straggler_threshold,
                      context.record_marks());
}

// The world ranks whose GPUs a training configuration ran on: DP drives rank 0's devices.
std::vector<int> train_ranks(const TrainRecord& r) {
  if (r.strategy == "dp" || r.ranks.empty()) return {0};
  std::vector<int> out;
  for (const auto& k : r.ranks) out.push_back(k.rank);
  return out;
}

bool train_shared(const SharedGpus& shared, const TrainRecord& r) {
  const auto ranks = train_ranks(r);
  return std::any_of(ranks.begin(), ranks.end(), [&](int k) { return shared.shared("train", k); });
}

void train_beside_tenant(const Records& records, const SharedGpus& shared, const RuleContext&,
                         std::vector<RecordMark>& out) {
  const auto& train = records.records;
  mark_each(train, TrainMark::beside_tenant, out, [&](const TrainRecord& r) {
    // Its efficiency divides by its 1-GPU baseline's rate: a baseline slowed by a tenant inflates it.
    const auto* base = r.efficiency ? scaling_baseline(train, r) : nullptr;
    return train_shared(shared, r) || (base && train_shared(shared, *base));
  });
}

bool same_config(const TrainRecord& t, const PlannedItem& item) {
  return t.strategy == item_label(item, "strategy") && t.model == item_label(item, "model") &&
         t.precision == item_label(item, "precision") && t.scaling == item_label(item, "scaling") &&
         std::to_string(t.gpus) == item_label(item, "gpus");
}

ItemMeasured config_measured(const TrainResults& train, const PlannedItem& item) {
  ItemMeasured m;
  for (const auto& t : train.records) {
    if (!same_config(t, item)) continue;
    if (t.skipped_reason.empty()) m.done = 1;
    note_item_skip(m, t.skipped_reason);
  }
  return m;
}

// DP on 1..gpus of rank 0's devices: one record per device count.
ItemMeasured dp_measured(const TrainResults& train, const PlannedItem& item) {
  ItemMeasured m{0, item.count, ""};
  for (const auto& t : train.records) {
    if (t.strategy != "dp" || t.model != item_label(item, "model") || t.precision != item_label(item, "precision"))
      continue;
    m.done += t.skipped_reason.empty() ? 1 : 0;
    note_item_skip(m, t.skipped_reason);
  }
  return m;
}

// The gradient checks of one model and precision.
ItemMeasured checks_measured(const TrainResults& train, const PlannedItem& item) {
  const std::string config = item_label(item, "model") + " " + item_label(item, "precision");
  const auto& checks = train.verifications;
  return measured_if(std::any_of(checks.begin(), checks.end(),
                                 [&](const TrainVerification& v) { return v.config.rfind(config, 0) == 0; }));
}

// DDP over two or more GPUs is work the job needs (its gradients cross the links); one GPU times none.
ItemTraits train_item_traits(const PlannedItem& item) {
  ItemTraits t;
  t.needed_over_gpus = item.kind == results::planned::kTrain && item_label(item, "strategy") == "ddp";
  return t;
}

ItemMeasured train_measured(const Records& train, const PlannedItem& item, bool) {
  if (item.kind == results::planned::kTrain) return config_measured(train, item);
  if (item.kind == results::planned::kDp) return dp_measured(train, item);
  if (item.kind == results::planned::kTrainChecks) return checks_measured(train, item);
  return measured_if(false);
}

void count_train_skips(const Records& train, RecordSkips& out) {
  for (const auto& r : train.records) out.add(r.strategy + " " + r.model, r.skipped_reason);
}

}  // namespace

extern constinit const PhaseRulesOf<Records> kRules{
    .reads = "train, ranks[].backend",
    .severities = "train-straggler warning; train-<verification> error",
    .stops_gpu_work = GpuBlock::none,
    .judge = train_family,
    .beside_tenant_marks = train_beside_tenant,
    .measured = train_measured,
    .count_skips = count_train_skips,
    .item_traits = train_item_traits,
};

}  // namespace phases::train

}  // namespace gpuscale::judge
