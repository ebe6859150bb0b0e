#include "results/models/GpuTenants.hpp"

#include <algorithm>
#include <numeric>
#include <set>

namespace gpuscale::results {

std::optional<double> mean_utilization_pct(const Tenancy& tenancy) {
  if (tenancy.utilization_pct.empty()) return std::nullopt;
  const double sum = std::accumulate(tenancy.utilization_pct.begin(), tenancy.utilization_pct.end(), 0.0);
  return sum / static_cast<double>(tenancy.utilization_pct.size());
}

std::vector<GpuProcess> foreign_processes(const std::vector<RankEnv>& ranks, std::size_t index) {
  const auto& me = ranks[index];
  std::set<int> job_pids;
  int sharing = 0;  // ranks of the job on this GPU, each holding a context on it
  for (const auto& r : ranks) {
    if (r.host != me.host) continue;
    job_pids.insert(r.pid);
    if (r.gpu && me.gpu && r.gpu->uuid == me.gpu->uuid) ++sharing;
  }
  int listed_own = 0;
  std::vector<GpuProcess> out;
  for (const auto& p : me.tenancy.processes) {
    if (job_pids.count(p.pid)) {
      ++listed_own;
    } else {
      out.push_back(p);
    }
  }
  // NVML lists host PIDs; inside a container getpid() differs, so the job's own contexts appear as
  // unnamed PIDs. Count that many unnamed entries as the job's.
  int unclaimed = std::max(0, sharing - listed_own);
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const GpuProcess& p) { return p.name.empty() && p.compute && unclaimed-- > 0; }),
            out.end());
  return out;
}

}  // namespace gpuscale::results
