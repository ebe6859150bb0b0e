#include "judge/FloorChecks.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "judge/GpuFloors.hpp"
#include "phases/burn/BurnChecks.hpp"
#include "phases/links/LinksChecks.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/CheckTable.hpp"
#include "results/base/Format.hpp"
#include "results/base/SpeedJudged.hpp"

namespace gpuscale::judge {

using namespace results;
namespace {

template <class Record>
std::string who(const Record& r) {
  return "rank " + std::to_string(r.rank) + " (" + r.host + ", " + r.gpu + ")";
}

// " at best of 5 copies (median 40.1)": which of a figure's samples the floor was held to, where it kept them.
std::string at_best(double median, std::size_t samples, const char* what, int decimals) {
  if (samples < 2) return "";
  return " at best of " + std::to_string(samples) + " " + what + " (median " + fixed(median, decimals) + ")";
}

std::string under(double value, const Floor& floor, int decimals, const char* unit, const std::string& which = "") {
  return fixed(value, decimals) + " " + unit + which + ", under the model's floor of " + fixed(floor.value, decimals) +
         " " + unit + " (" + floor.source + ")";
}

void burn(const std::vector<BurnRecord>& records, const RecordMarks& marks,
          std::map<std::string, std::vector<int>>& unknown, Judged& judged) {
  auto& out = judged.checks;
  for (const auto& r : records) {
    if (!speed_judged(r.gpu) || r.sustained_tflops <= 0) continue;
    const auto floor = burn_floor(r.gpu, r.precision);
    if (!floor) {
      if (!find_gpu_reference(r.gpu)) unknown[r.gpu].push_back(r.rank);
      continue;
    }
    judged.marks.push_back(record_mark(BurnMark::floor, index_in(records, r), 0, floor->value));
    // Beside another process the shortfall is its doing: gpu-in-use says what it cost.
    if (marks.has(BurnMark::beside_tenant, index_in(records, r)) || !below_floor(r.sustained_tflops, *floor)) continue;
    judged.marks.push_back(record_mark(BurnMark::slow, index_in(records, r)));
    judged.marks.push_back(record_mark(BurnMark::under_floor, index_in(records, r)));
    out.push_back({check_ids::kGpuSlowSustained,
                   Severity::error,
                   {r.rank},
                   who(r) + " sustained " + under(r.sustained_tflops, *floor, 1, "TFLOP/s") + " " + r.precision + ": " +
                       results::fix_text(check_ids::kGpuSlowSustained)});
  }
}

void host_link(const LinksRecord& r, std::size_t index, Judged& judged) {
  auto& out = judged.checks;
  const auto floor = host_link_floor(r.gpu, r.pcie.gen_max, r.pcie.width_max);
  if (!floor) return;
  judged.marks.push_back(record_mark(LinksMark::h2d_floor, index, 0, floor->value));
  constexpr std::pair<const char*, LinksMark> kDirections[] = {{"h2d", LinksMark::h2d_under_floor},
                                                               {"d2h", LinksMark::d2h_under_floor}};
  for (const auto& [direction, under_floor] : kDirections) {
    const auto* c = largest_copy(r, direction, "pinned", "solo");
    if (!c || c->gbps <= 0) continue;
    const double best = best_gbps(c->bytes, c->samples_s, c->gbps);
    if (!below_floor(best, *floor)) continue;
    judged.marks.push_back(record_mark(LinksMark::h2d_slow, index));
    judged.marks.push_back(record_mark(under_floor, index));
    out.push_back({check_ids::kH2dSlow, Severity::error, {r.rank},
                   who(r) + " pinned " + direction + " " +
                       under(best, *floor, 1, "GB/s", at_best(c->gbps, c->samples_s.size(), "copies", 1)) +
                       ": check the link's training (nvidia-smi -q -d PCIE), ACS/IOMMU settings and the rank's CPU "
                       "and memory binding"});
  }
}

void hbm(const LinksRecord& r, std::size_t index, Judged& judged) {
  auto& out = judged.checks;
  const auto floor = hbm_floor(r.gpu);
  const auto* h = find_hbm(r, "copy");
  if (!floor) return;
  judged.marks.push_back(record_mark(LinksMark::hbm_floor, index, 0, floor->value));
  if (!h || h->gbps <= 0) return;
  const double best = best_gbps(h->bytes_moved, h->samples_s, h->gbps);
  if (!below_floor(best, *floor)) return;
  judged.marks.push_back(record_mark(LinksMark::hbm_slow, index));
  judged.marks.push_back(record_mark(LinksMark::hbm_under_floor, index));
  out.push_back({check_ids::kHbmSlow,
                 Severity::error,
                 {r.rank},
                 who(r) + " device memory copy (read + write) " +
                     under(best, *floor, 0, "GB/s", at_best(h->gbps, h->samples_s.size(), "calls", 0)) + ": " +
                     results::fix_text(check_ids::kHbmSlow)});
}

void links(const std::vector<LinksRecord>& records, const RecordMarks& marks,
           std::map<std::string, std::vector<int>>& unknown, Judged& judged) {
  for (const auto& r : records) {
    if (!speed_judged(r.gpu)) continue;
    // Another process on the GPU shared its copies: gpu-in-use names it.
    if (!marks.has(LinksMark::beside_tenant, index_in(records, r))) {
      host_link(r, index_in(records, r), judged);
      hbm(r, index_in(records, r), judged);
    }
    if (!find_gpu_reference(r.gpu)) unknown[r.gpu].push_back(r.rank);
  }
}

}  // namespace

Judged floor_checks(const RunReport& run) {
  Judged judged;
  std::map<std::string, std::vector<int>> unknown;  // model -> ranks
  burn(run.burn, run.marks, unknown, judged);
  links(run.links, run.marks, unknown, judged);
  auto& out = judged.checks;
  for (auto& [model, ranks] : unknown) {
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    out.push_back({check_ids::kGpuFloorUnknown, Severity::info, ranks,
                   model + " is not in gpuscale's table of GPU models: its burn and device memory figures have no "
                           "floor and are compared only with the job's other GPUs (a baseline judges them too)"});
  }
  return judged;
}

// Ranks that share GPUs on purpose measure each other's load: no floor.
extern const RuleFamily kFloorChecks{
    "floors", "", "burn[], links[] (gpu, sustained_tflops, copies, hbm, pcie)",
    "gpu-slow-sustained, h2d-slow, hbm-slow error; gpu-floor-unknown info", GpuBlock::none,
    [](const RunReport& report, const RuleContext&) {
      return report.emulation && report.emulation->shared_gpu ? Judged{} : floor_checks(report);
    },
    nullptr};

}  // namespace gpuscale::judge
