#include "phases/links/LinksChecks.hpp"

#include <map>
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

std::string who(const LinksRecord& r) {
  return "rank " + std::to_string(r.rank) + " (" + r.host + ", " + r.gpu + (r.pci_bus_id.empty() ? "" : " " + r.pci_bus_id) +
         ")";
}

std::string binding(const LinksRecord& r) {
  return "GPU on NUMA node " + (r.numa_node < 0 ? std::string("?") : std::to_string(r.numa_node)) + ", rank bound to CPUs " +
         (r.cpu_affinity.empty() ? std::string("?") : r.cpu_affinity);
}

void h2d_against_node(const std::vector<LinksRecord>& records, double threshold, const RecordMarks& marks,
                      Judged& judged) {
  auto& out = judged.checks;
  for (const char* direction : {"h2d", "d2h"}) {
    std::map<std::tuple<int, std::string>, std::vector<std::pair<const LinksRecord*, const CopyFigure*>>> groups;
    for (const auto& r : records)
      if (const auto* c = largest_copy(r, direction, "pinned", "solo");
          c && speed_judged(r.gpu) && c->gbps > 0 && !marks.has(LinksMark::beside_tenant, index_in(records, r)))
        groups[{r.node, r.gpu}].push_back({&r, c});
    for (auto& [key, group] : groups) {
      if (group.size() < 2) continue;
      std::vector<double> figures;
      for (const auto& [r, c] : group) figures.push_back(c->gbps);
      const double typical = median(figures);
      for (auto& [r, c] : group) {
        if (!is_below_median(c->gbps, typical, threshold)) continue;
        judged.marks.push_back(record_mark(LinksMark::h2d_slow, index_in(records, *r)));
        out.push_back({check_ids::kH2dSlow,
                       Severity::warning,
                       {r->rank},
                       who(*r) + " pinned " + direction + " " + fixed(c->gbps, 1) + " GB/s at " +
                           binary_bytes(double(c->bytes)) + "B, " + percent(1 - c->gbps / typical, 0) +
                           " below its node's median GPU (" + fixed(typical, 1) + " GB/s; " + binding(*r) +
                           "): check the PCIe link (nvidia-smi -q -d PCIE), the slot and the "
                           "rank's CPU and memory binding"});
      }
    }
  }
}

void hbm_slow(const std::vector<LinksRecord>& records, double threshold, const RecordMarks& marks, Judged& judged) {
  auto& out = judged.checks;
  std::map<std::string, std::vector<std::pair<const LinksRecord*, double>>> groups;
  for (const auto& r : records)
    if (const auto* h = find_hbm(r, "copy");
        h && speed_judged(r.gpu) && h->gbps > 0 && !marks.has(LinksMark::beside_tenant, index_in(records, r)))
      groups[r.gpu].push_back({&r, h->gbps});
  for (auto& [gpu, group] : groups) {
    std::vector<double> figures;
    for (const auto& [r, gbps] : group) figures.push_back(gbps);
    const double typical = median(figures);
    if (group.size() < 2) continue;
    for (auto& [r, gbps] : group) {
      if (!is_below_median(gbps, typical, threshold)) continue;
      judged.marks.push_back(record_mark(LinksMark::hbm_slow, index_in(records, *r)));
      out.push_back({check_ids::kHbmSlow,
                     Severity::warning,
                     {r->rank},
                     who(*r) + " device memory copy " + fixed(gbps, 0) + " GB/s (read + write), " +
                         percent(1 - gbps / typical, 0) + " below the median GPU (" + fixed(typical, 0) + " GB/s)" +
                         ": " + results::fix_text(check_ids::kHbmSlow)});
    }
  }
}

void pcie_downtrained(const LinksRecord& r, std::vector<Check>& out) {
  const auto& p = r.pcie;
  if (!p.gen || !p.width || !p.gen_max || !p.width_max) return;
  if (*p.gen >= *p.gen_max && *p.width >= *p.width_max) return;
  out.push_back({check_ids::kPcieDowntrained,
                 Severity::warning,
                 {r.rank},
                 who(r) + " PCIe link ran at gen" + std::to_string(*p.gen) + " x" + std::to_string(*p.width) +
                     " under load, below its maximum gen" + std::to_string(*p.gen_max) + " x" +
                     std::to_string(*p.width_max) + ": " + results::fix_text(check_ids::kPcieDowntrained)});
}

void nvlink_down(const LinksRecord& r, std::vector<Check>& out) {
  std::vector<int> idle, lost;
  bool any_active = false;
  for (const auto& l : r.nvlinks) {
    any_active = any_active || l.active_before || l.active_after;
    if (l.active_before && !l.active_after) lost.push_back(static_cast<int>(l.link));
    else if (!l.active_before && !l.active_after) idle.push_back(static_cast<int>(l.link));
  }
  if (!any_active) return;  // no NVLink fabric on this GPU: nothing is down
  if (!lost.empty())
    out.push_back({check_ids::kNvlinkDown, Severity::error, {r.rank},
                   who(r) + (lost.size() == 1 ? " NVLink " : " NVLinks ") + join_ints(lost) +
                       " went down during the phase: drain the node and check the fabric (nvidia-smi nvlink -s)"});
  if (!idle.empty())
    out.push_back({check_ids::kNvlinkDown, Severity::error, {r.rank},
                   who(r) + (idle.size() == 1 ? " NVLink " : " NVLinks ") + join_ints(idle) + " inactive while " +
                       plural(static_cast<long long>(r.nvlinks.size() - idle.size() - lost.size()), "other") +
                       " up: NCCL loses their bandwidth; check the fabric (nvidia-smi nvlink -s, "
                       "fabric manager) and drain the node"});
}

void nvlink_errors(const LinksRecord& r, std::vector<Check>& out) {
  std::uint64_t replay = 0, recovery = 0, crc = 0;
  std::vector<int> links;
  for (const auto& l : r.nvlinks) {
    const auto& e = l.errors;
    const std::uint64_t link_total = e.replay.value_or(0) + e.recovery.value_or(0) + e.crc_flit.value_or(0) + e.crc_data.value_or(0);
    replay += e.replay.value_or(0);
    recovery += e.recovery.value_or(0);
    crc += e.crc_flit.value_or(0) + e.crc_data.value_or(0);
    if (link_total > 0) links.push_back(static_cast<int>(l.link));
  }
  if (links.empty()) return;
  out.push_back({check_ids::kNvlinkErrors,
                 recovery > 0 ? Severity::error : Severity::warning,
                 {r.rank},
                 who(r) + " NVLink error counters grew during the phase on " +
                     (links.size() == 1 ? "link " : "links ") + join_ints(links) + ": " + std::to_string(crc) +
                     " CRC, " + std::to_string(replay) + " replay, " + std::to_string(recovery) +
                     " recovery: " + results::fix_text(check_ids::kNvlinkErrors)});
}

void xids(const LinksRecord& r, std::vector<Check>& out) {
  if (r.xids.empty()) return;
  std::vector<int> numbers;
  for (const auto x : r.xids) numbers.push_back(static_cast<int>(x));
  out.push_back({check_ids::kGpuXid,
                 Severity::error,
                 {r.rank},
                 who(r) + " the driver reported XID " + join_ints(numbers) +
                     " during the phase: " + results::fix_text(check_ids::kGpuXid)});
}

void unreadable_note(const std::vector<LinksRecord>& records, std::vector<Check>& out) {
  std::map<std::string, std::vector<int>> by_reason;
  for (const auto& r : records)
    for (const auto& reason : r.unreadable) by_reason[reason].push_back(r.rank);
  for (const auto& [reason, ranks] : by_reason)
    out.push_back({check_ids::kLinksUnreadable, Severity::info, ranks, "not checked in the links phase: " + reason});
}

}  // namespace

Judged links_checks(const std::vector<LinksRecord>& records, double straggler_threshold, const RecordMarks& marks) {
  Judged judged;
  h2d_against_node(records, straggler_threshold, marks, judged);
  hbm_slow(records, straggler_threshold, marks, judged);
  auto& out = judged.checks;
  for (const auto& r : records) {
    pcie_downtrained(r, out);
    nvlink_down(r, out);
    nvlink_errors(r, out);
    xids(r, out);
  }
  unreadable_note(records, out);
  return judged;
}

namespace phases::links {
namespace {

ItemMeasured links_measured(const Records& records, const PlannedItem& item, bool) {
  const auto any = [&records](auto&& has) {
    return measured_if(std::any_of(records.begin(), records.end(), has));
  };
  if (item.kind == results::planned::kHostCopies) return any([](const LinksRecord& l) { return !l.copies.empty(); });
  if (item.kind == results::planned::kDeviceMemory) return any([](const LinksRecord& l) { return !l.hbm.empty(); });
  return measured_if(false);
}

}  // namespace

extern constinit const PhaseRulesOf<Records> kRules{
    .reads = "links[]",
    .severities = "h2d-slow, hbm-slow warning; pcie-downtrained warning; nvlink-down error; nvlink-errors warning "
                  "or error; gpu-xid error; links-unreadable info",
    .stops_gpu_work = GpuBlock::none,
    .judge = [](const Records& records, const RuleContext& context) {
      return links_checks(records, context.straggler_threshold, context.record_marks());
    },
    .beside_tenant_marks = [](const Records& records, const SharedGpus& shared, const RuleContext&,
                              std::vector<RecordMark>& out) {
      mark_per_gpu(records, shared, LinksMark::beside_tenant, out);
    },
    .measured = links_measured,
    .count_skips = nullptr,
    .item_traits = nullptr,
};

}  // namespace phases::links

}  // namespace gpuscale::judge
