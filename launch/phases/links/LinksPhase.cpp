#include "launch/phases/links/LinksPhase.hpp"

#include "harness/GatherRecords.hpp"
#include "harness/LinkMonitor.hpp"
#include "launch/phases/links/LinksPlan.hpp"
#include "results/base/Format.hpp"
#include "results/models/GpuPeak.hpp"
#include "results/schema/RankEnv.hpp"
#include "workloads/links/LinksRun.hpp"

namespace gpuscale::launch {

void run_links_phase(Job& job) {
  auto& world = job.world();
  LinksPlan plan = job.plan().get<LinksPlan>("links");
  results::RankEnv env;
  job.backend().probe(env);
  const std::string bus = env.gpu ? env.gpu->pci_bus_id : "";
  harness::LinkMonitor monitor(bus);  // NVLink counters and XID events from here on
  job.progress("links: host copies " + size_list_text(plan.links.pinned_bytes) + " pinned, " +
               results::binary_bytes(double(plan.links.pageable_bytes)) + " pageable; device memory " +
               results::binary_bytes(double(plan.links.hbm_bytes)));

  results::LinksRecord mine;
  mine.rank = world.rank();
  mine.node = world.node();
  mine.gpu = env.gpu ? env.gpu->name : "cpu";
  mine.pci_bus_id = bus;
  mine.numa_node = env.gpu ? env.gpu->numa_node : -1;
  mine.hbm_peak_gbps = results::peak_memory_gbps(mine.gpu);
  workloads::run_links(world, job.backend(), plan.links, monitor, job.timeout_s(), mine);
  mine.nvlinks = monitor.nvlinks();
  mine.xids = monitor.xids();
  mine.unreadable = monitor.unreadable();

  auto all = harness::gather_records(world, mine, job.deadline());
  if (world.rank() == 0) {
    auto& report = job.report();
    for (auto& r : all) {
      if (static_cast<std::size_t>(r.rank) >= report.ranks.size()) continue;
      r.host = report.ranks[r.rank].host;
      r.cpu_affinity = report.ranks[r.rank].cpu_affinity;
    }
    report.links = std::move(all);
  }
  job.phase_done("links");
}

}  // namespace gpuscale::launch
