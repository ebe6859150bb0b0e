#include "phases/burn/BurnChecks.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "judge/base/BesideTenant.hpp"
#include "judge/base/Stragglers.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/CheckTable.hpp"
#include "results/base/Format.hpp"
#include "results/base/SpeedJudged.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::judge {

using namespace results;
namespace {

std::string who(const BurnRecord& r) { return "rank " + std::to_string(r.rank) + " (" + r.host + ", " + r.gpu + ")"; }

double share(const BurnRecord& r, const char* reason) {
  const auto it = r.throttle_share.find(reason);
  return it == r.throttle_share.end() ? 0.0 : it->second;
}

void slow_sustained(const std::vector<BurnRecord>& records, double threshold, const RecordMarks& marks,
                    Judged& judged) {
  auto& out = judged.checks;
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<const BurnRecord*>> groups;
  for (const auto& r : records)
    if (speed_judged(r.gpu) && r.sustained_tflops > 0 && !marks.has(BurnMark::beside_tenant, index_in(records, r)))
      groups[{r.gpu, r.precision, r.shape}].push_back(&r);
  for (auto& [key, group] : groups) {
    if (group.size() < 2) continue;
    std::vector<double> figures;
    for (const auto* r : group) figures.push_back(r->sustained_tflops);
    const double typical = median(figures);
    for (const auto* r : group) {
      if (!is_below_median(r->sustained_tflops, typical, threshold)) continue;
      judged.marks.push_back(record_mark(BurnMark::slow, index_in(records, *r)));
      out.push_back({check_ids::kGpuSlowSustained,
                     Severity::warning,
                     {r->rank},
                     who(*r) + " sustained " + fixed(r->sustained_tflops, 1) + " TFLOP/s under load, " +
                         percent(1 - r->sustained_tflops / typical, 0) + " below the median GPU (" + fixed(typical, 1) +
                         "): check its clocks, power and cooling, and other processes on it (nvidia-smi)"});
    }
  }
}

void throttling(const BurnRecord& r, std::vector<Check>& out) {
  const double thermal = std::max(share(r, "sw_thermal"), share(r, "hw_thermal"));
  if (thermal > 0 || r.counters.thermal_ns.value_or(0) > 0)
    out.push_back({check_ids::kGpuThermalThrottle,
                   Severity::warning,
                   {r.rank},
                   who(r) + " slowed its clocks for temperature in " + percent(thermal, 0) +
                       " of the burn's samples (peak " +
                       (r.peak_temperature_c ? fixed(*r.peak_temperature_c, 0) + " C" : std::string("unknown")) +
                       "): " + results::fix_text(check_ids::kGpuThermalThrottle)});
  const double hardware = std::max(share(r, "hw_slowdown"), share(r, "hw_power_brake"));
  if (hardware > 0)
    out.push_back({check_ids::kGpuHwSlowdown,
                   Severity::error,
                   {r.rank},
                   who(r) + " ran with hardware slowdown or the power brake active in " + percent(hardware, 0) +
                       " of the burn's samples: " + results::fix_text(check_ids::kGpuHwSlowdown)});
}

void errors_under_load(const BurnRecord& r, std::vector<Check>& out) {
  const auto uncorrected = r.counters.ecc_uncorrected.value_or(0);
  const auto corrected = r.counters.ecc_corrected.value_or(0);
  if (uncorrected > 0)
    out.push_back({check_ids::kGpuErrorsUnderLoad, Severity::error, {r.rank},
                   who(r) + " raised " + plural(static_cast<long long>(uncorrected), "uncorrected ECC error") +
                       " under load: drain the node and have the GPU checked (nvidia-smi -q "
                       "-d ECC,ROW_REMAPPER)"});
  else if (corrected > 0)
    out.push_back({check_ids::kGpuErrorsUnderLoad, Severity::warning, {r.rank},
                   who(r) + " corrected " + plural(static_cast<long long>(corrected), "ECC error") +
                       " under load: watch this GPU's error counts (nvidia-smi -q -d ECC)"});
}

void wrong_self(const std::vector<BurnRecord>& records, const BurnRecord& r, Judged& judged) {
  auto& out = judged.checks;
  const auto& h = r.output_hashes;
  if (h.size() < 2 || std::all_of(h.begin(), h.end(), [&](const std::string& x) { return x == h.front(); })) return;
  judged.marks.push_back(record_mark(BurnMark::wrong_result, index_in(records, r)));
  out.push_back({check_ids::kGpuWrongResult,
                 Severity::error,
                 {r.rank},
                 who(r) +
                     " computed different outputs for the same GEMM on the same inputs during the burn: silent "
                     "data corruption; " +
                     results::fix_text(check_ids::kGpuWrongResult)});
}

void wrong_across(const std::vector<BurnRecord>& records, Judged& judged) {
  auto& out = judged.checks;
  std::map<std::tuple<std::string, std::string, std::string, std::string>, std::vector<const BurnRecord*>> groups;
  for (const auto& r : records)
    if (!r.output_hashes.empty()) groups[{r.gpu, r.algorithm, r.precision, r.shape}].push_back(&r);
  for (auto& [key, group] : groups) {
    if (group.size() < 2) continue;
    std::vector<std::string> hashes;
    for (const auto* r : group) hashes.push_back(r->output_hashes.back());
    const HashVote vote = vote_hashes(hashes);
    std::vector<int> ranks;
    for (const auto i : vote.dissenters) {
      judged.marks.push_back(record_mark(BurnMark::wrong_result, index_in(records, *group[i])));
      ranks.push_back(group[i]->rank);
    }
    if (ranks.empty()) continue;
    if (vote.tie) {
      out.push_back({check_ids::kGpuWrongResult, Severity::error, ranks,
                     "the GPUs of ranks " + join_ints(ranks) + " disagree on the same GEMM with no majority (" +
                         group.front()->gpu + "): silent data corruption on some of them; run the burn again on more "
                                              "GPUs, or the vendor's diagnostics on each"});
      continue;
    }
    for (const auto i : vote.dissenters)
      out.push_back({check_ids::kGpuWrongResult,
                     Severity::error,
                     {group[i]->rank},
                     who(*group[i]) + " computed a different output than the " +
                         plural(static_cast<long long>(group.size() - vote.dissenters.size()), "other GPU") +
                         " that ran the same GEMM, algorithm and inputs: silent data corruption; " +
                         results::fix_text(check_ids::kGpuWrongResult)});
  }
}

void telemetry_note(const std::vector<BurnRecord>& records, std::vector<Check>& out) {
  std::map<std::string, std::vector<int>> by_reason;
  for (const auto& r : records)
    if (!r.telemetry_unavailable.empty()) by_reason[r.telemetry_unavailable].push_back(r.rank);
  for (const auto& [reason, ranks] : by_reason)
    out.push_back({check_ids::kBurnTelemetryUnavailable, Severity::info, ranks,
                   "no clock, power or temperature samples during the burn: " + reason});
}

}  // namespace

HashVote vote_hashes(const std::vector<std::string>& hashes) {
  HashVote vote;
  std::map<std::string, std::size_t> counts;
  for (const auto& h : hashes) ++counts[h];
  for (const auto& [hash, count] : counts)
    if (2 * count > hashes.size()) vote.majority = hash;
  vote.tie = vote.majority.empty() && counts.size() > 1;
  for (std::size_t i = 0; i < hashes.size(); ++i)
    if (hashes[i] != vote.majority && counts.size() > 1) vote.dissenters.push_back(i);
  return vote;
}

Judged burn_checks(const std::vector<BurnRecord>& records, double straggler_threshold, const RecordMarks& marks) {
  Judged judged;
  slow_sustained(records, straggler_threshold, marks, judged);
  for (const auto& r : records) {
    throttling(r, judged.checks);
    errors_under_load(r, judged.checks);
    wrong_self(records, r, judged);
  }
  wrong_across(records, judged);
  telemetry_note(records, judged.checks);
  return judged;
}

namespace phases::burn {
namespace {

ItemMeasured burn_measured(const Records& records, const PlannedItem& item, bool) {
  const auto precision = item_label(item, "precision");
  return measured_if(item.kind == results::planned::kBurn &&
                     std::any_of(records.begin(), records.end(),
                                 [&](const BurnRecord& b) { return b.precision == precision; }));
}

}  // namespace

extern constinit const PhaseRulesOf<Records> kRules{
    .reads = "burn[]",
    .severities = "gpu-slow-sustained warning; gpu-thermal-throttle warning; gpu-hw-slowdown error; "
                  "gpu-errors-under-load error or warning; gpu-wrong-result error; burn-telemetry-unavailable info",
    .stops_gpu_work = GpuBlock::none,
    .judge = [](const Records& records, const RuleContext& context) {
      return burn_checks(records, context.straggler_threshold, context.record_marks());
    },
    .beside_tenant_marks = [](const Records& records, const SharedGpus& shared, const RuleContext&,
                              std::vector<RecordMark>& out) {
      mark_per_gpu(records, shared, BurnMark::beside_tenant, out);
    },
    .measured = burn_measured,
    .count_skips = nullptr,
    .item_traits = nullptr,
};

}  // namespace phases::burn

}  // namespace gpuscale::judge
