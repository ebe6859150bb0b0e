#include "results/FloorChecks.hpp"

#include <algorithm>
#include <map>

#include "results/CheckIds.hpp"
#include "results/Format.hpp"
#include "results/GpuFloors.hpp"

namespace gpuscale::results {
namespace {

template <class Record>
std::string who(const Record& r) {
  return "rank " + std::to_string(r.rank) + " (" + r.host + ", " + r.gpu + ")";
}

std::string under(double value, const Floor& floor, int decimals, const char* unit) {
  return fixed(value, decimals) + " " + unit + ", under the model's floor of " + fixed(floor.value, decimals) + " " +
         unit + " (" + floor.source + ")";
}

void burn(std::vector<BurnRecord>& records, std::map<std::string, std::vector<int>>& unknown, std::vector<Check>& out) {
  for (auto& r : records) {
    r.floor_tflops.reset();
    if (r.gpu == "cpu" || r.sustained_tflops <= 0) continue;
    const auto floor = burn_floor(r.gpu, r.precision);
    if (!floor) {
      if (!find_gpu_reference(r.gpu)) unknown[r.gpu].push_back(r.rank);
      continue;
    }
    r.floor_tflops = floor->value;
    if (r.sustained_tflops >= floor->value) continue;
    r.slow = true;
    out.push_back({check_ids::kGpuSlowSustained, Severity::error, {r.rank},
                   who(r) + " sustained " + under(r.sustained_tflops, *floor, 1, "TFLOP/s") + " " + r.precision +
                       ": check its power limit, clocks and cooling (nvidia-smi -q -d POWER,CLOCK,PERFORMANCE) and "
                       "other processes on it"});
  }
}

void host_link(LinksRecord& r, std::vector<Check>& out) {
  const auto floor = host_link_floor(r.gpu, r.pcie.gen_max, r.pcie.width_max);
  if (!floor) return;
  r.h2d_floor_gbps = floor->value;
  for (const char* direction : {"h2d", "d2h"}) {
    const auto* c = largest_copy(r, direction, "pinned", "solo");
    if (!c || c->gbps <= 0 || c->gbps >= floor->value) continue;
    r.h2d_slow = true;
    out.push_back({check_ids::kH2dSlow, Severity::error, {r.rank},
                   who(r) + " pinned " + direction + " " + under(c->gbps, *floor, 1, "GB/s") +
                       ": check the link's training (nvidia-smi -q -d PCIE), ACS/IOMMU settings and the rank's CPU "
                       "and memory binding"});
  }
}

void hbm(LinksRecord& r, std::vector<Check>& out) {
  const auto floor = hbm_floor(r.gpu);
  const auto* h = find_hbm(r, "copy");
  if (!floor) return;
  r.hbm_floor_gbps = floor->value;
  if (!h || h->gbps <= 0 || h->gbps >= floor->value) return;
  r.hbm_slow = true;
  out.push_back({check_ids::kHbmSlow, Severity::error, {r.rank},
                 who(r) + " device memory copy (read + write) " + under(h->gbps, *floor, 0, "GB/s") +
                     ": check its memory clock and throttle reasons (nvidia-smi -q -d CLOCK,PERFORMANCE) and other "
                     "processes on it"});
}

void links(std::vector<LinksRecord>& records, std::map<std::string, std::vector<int>>& unknown,
           std::vector<Check>& out) {
  for (auto& r : records) {
    r.h2d_floor_gbps.reset();
    r.hbm_floor_gbps.reset();
    if (r.gpu == "cpu") continue;
    host_link(r, out);
    hbm(r, out);
    if (!find_gpu_reference(r.gpu)) unknown[r.gpu].push_back(r.rank);
  }
}

}  // namespace

std::vector<Check> floor_checks(RunReport& run) {
  std::vector<Check> out;
  std::map<std::string, std::vector<int>> unknown;  // model -> ranks
  burn(run.burn, unknown, out);
  links(run.links, unknown, out);
  for (auto& [model, ranks] : unknown) {
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    out.push_back({check_ids::kGpuFloorUnknown, Severity::info, ranks,
                   model + " is not in gpuscale's table of GPU models: its burn and device memory figures have no "
                           "floor and are compared only with the job's other GPUs (a baseline judges them too)"});
  }
  return out;
}

bool is_floor_finding(const Check& c) {
  if (c.id == check_ids::kGpuFloorUnknown) return true;
  return c.severity == Severity::error &&
         (c.id == check_ids::kGpuSlowSustained || c.id == check_ids::kH2dSlow || c.id == check_ids::kHbmSlow);
}

}  // namespace gpuscale::results
