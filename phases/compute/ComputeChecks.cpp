#include "phases/compute/ComputeChecks.hpp"

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "judge/base/BesideTenant.hpp"
#include "judge/base/Stragglers.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/Format.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/base/SpeedJudged.hpp"
#include "results/base/StragglerSpread.hpp"

namespace gpuscale::judge {

using namespace results;

namespace {

using Key = std::tuple<std::string, std::string, std::string, std::string, std::string>;

Key key_of(const ComputeRecord& r) { return {r.set, r.name, r.shape, r.precision, r.pass}; }

std::string label(const ComputeRecord& r) {
  return r.layer + " " + r.shape + (r.name.empty() ? "" : " (" + r.set + " " + r.name + ")") + " " + r.precision + " " +
         r.pass;
}

void stragglers(const std::vector<ComputeRecord>& records, double threshold, const RecordMarks& marks,
                Judged& judged) {
  std::map<Key, std::vector<const ComputeRecord*>> groups;
  for (const auto& r : records)
    if (r.skipped_reason.empty() && std::isfinite(r.time_s.median) && speed_judged(r.gpu) &&
        !marks.has(ComputeMark::beside_tenant, index_in(records, r)))
      groups[key_of(r)].push_back(&r);
  std::map<int, std::vector<std::string>> slow_by_rank;
  for (auto& [key, group] : groups) {
    if (group.size() < 2) continue;
    std::vector<double> medians;
    for (const auto* r : group) medians.push_back(r->time_s.median);
    const double typical = median(medians);
    for (const auto* r : group) {
      if (!is_straggler(r->time_s.median, typical, threshold)) continue;
      judged.marks.push_back(record_mark(ComputeMark::straggler, index_in(records, *r)));
      slow_by_rank[r->rank].push_back(label(*r) + " " + percent(excess_over(r->time_s.median, typical), 0));
    }
  }
  for (const auto& [rank, what] : slow_by_rank) {
    std::string message = "slower than the median GPU by more than " + percent(threshold, 0) + " on " +
                          plural(static_cast<long long>(what.size()), "measurement") + ", e.g. " + what.front() +
                          ": check clocks, power, thermals and other jobs on this GPU";
    judged.checks.push_back(Check{check_ids::kComputeStraggler, Severity::warning, {rank}, message});
  }
}

}  // namespace

Judged compute_checks(const std::vector<ComputeRecord>& records, double threshold, const RecordMarks& marks) {
  Judged judged;
  stragglers(records, threshold, marks, judged);
  for (const auto& r : records) {
    if (!r.verification.ran || r.verification.passed) continue;
    judged.checks.push_back(Check{
        check_ids::kComputeReferenceMismatch,
        Severity::error,
        {r.rank},
        label(r) + ": relative error " +
            (std::isnan(r.verification.relative_error) ? std::string("NaN") : fixed(r.verification.relative_error * 1e6, 2) + "e-6") +
            " against the reference exceeds " + fixed(r.verification.limit * 1e6, 2) + "e-6 (checked on " + r.verification.shape +
            ")"});
  }
  return judged;
}

namespace phases::compute {
namespace {

// A precision's item: its distinct shapes and passes measured.
ItemMeasured compute_measured(const Records& records, const PlannedItem& item, bool) {
  if (item.kind != results::planned::kCompute) return measured_if(false);
  ItemMeasured m{0, item.count, ""};
  std::set<std::tuple<std::string, std::string, std::string, std::string>> done;
  for (const auto& c : records) {
    if (c.precision != item_label(item, "precision")) continue;
    if (c.skipped_reason.empty()) done.insert({c.set, c.name, c.shape, c.pass});
    note_item_skip(m, c.skipped_reason);
  }
  m.done = static_cast<int>(done.size());
  return m;
}

}  // namespace

extern constinit const PhaseRulesOf<Records> kRules{
    .reads = "compute[]",
    .severities = "compute-straggler warning; compute-reference-mismatch error",
    .stops_gpu_work = GpuBlock::none,
    .judge = [](const Records& records, const RuleContext& context) {
      return compute_checks(records, context.straggler_threshold, context.record_marks());
    },
    .beside_tenant_marks = [](const Records& records, const SharedGpus& shared, const RuleContext&,
                              std::vector<RecordMark>& out) {
      mark_per_gpu(records, shared, ComputeMark::beside_tenant, out);
    },
    .measured = compute_measured,
    .count_skips = [](const Records& records, RecordSkips& out) {
      for (const auto& r : records) out.add(r.layer + " " + r.shape + " " + r.precision, r.skipped_reason);
    },
    .item_traits = nullptr,
};

}  // namespace phases::compute

}  // namespace gpuscale::judge
