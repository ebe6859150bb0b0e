#include "results/world/GpuTenants.hpp"

#include <algorithm>
#include <numeric>
#include <set>

namespace gpuscale::results {

std::optional<double> mean_utilization_pct(const std::vector<unsigned>& samples) {
  if (samples.empty()) return std::nullopt;
  const double sum = std::accumulate(samples.begin(), samples.end(), 0.0);
  return sum / static_cast<double>(samples.size());
}

std::optional<double> mean_utilization_pct(const Tenancy& tenancy) {
  return mean_utilization_pct(tenancy.utilization_pct);
}

bool reads_busy(const std::vector<unsigned>& samples, double threshold_pct) {
  const auto mean = mean_utilization_pct(samples);
  return mean && *mean >= threshold_pct;
}

std::vector<GpuProcess> foreign_processes(const std::vector<RankEnv>& ranks, std::size_t index,
                                          const std::vector<GpuProcess>& listed, JobContexts contexts) {
  const auto& me = ranks[index];
  std::set<int> job_pids;
  int holders = 0;  // ranks of the job that may hold a context on this GPU
  for (const auto& r : ranks) {
    if (r.host != me.host) continue;
    job_pids.insert(r.pid);
    if (contexts == JobContexts::on_its_node ? r.node == me.node : r.gpu && me.gpu && r.gpu->uuid == me.gpu->uuid)
      ++holders;
  }
  int listed_own = 0;
  std::vector<GpuProcess> out;
  for (const auto& p : listed) {
    if (job_pids.count(p.pid)) {
      ++listed_own;
    } else {
      out.push_back(p);
    }
  }
  // NVML lists host PIDs; inside a container getpid() differs, so the job's own contexts appear as
  // unnamed PIDs. Count that many unnamed entries as the job's.
  int unclaimed = std::max(0, holders - listed_own);
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const GpuProcess& p) { return p.name.empty() && p.compute && unclaimed-- > 0; }),
            out.end());
  return out;
}

std::vector<GpuProcess> foreign_processes(const std::vector<RankEnv>& ranks, std::size_t index) {
  return foreign_processes(ranks, index, ranks[index].tenancy.processes, JobContexts::bound_to_gpu);
}

}  // namespace gpuscale::results
