#include "phases/links/run/LinksPhase.hpp"

#include "harness/GatherRecords.hpp"
#include "harness/LinkMonitor.hpp"
#include "phases/links/run/LinksPlan.hpp"
#include "results/base/Format.hpp"
#include "results/base/GpuPeak.hpp"
#include "results/world/RankEnv.hpp"
#include "workloads/links/LinksRun.hpp"

namespace gpuscale::launch {

std::vector<results::LinksRecord> run_links_phase(PhaseContext& ctx) {
  auto& world = ctx.world;
  const auto& plan = ctx.plan<LinksPlan>();
  results::RankEnv env;
  ctx.backend.probe(env);
  const std::string bus = env.gpu ? env.gpu->pci_bus_id : "";
  harness::LinkMonitor monitor(bus);  // NVLink counters and XID events from here on
  ctx.progress("links: host copies " + size_list_text(plan.links.pinned_bytes) + " pinned, " +
               results::binary_bytes(double(plan.links.pageable_bytes)) + " pageable; device memory " +
               results::binary_bytes(double(plan.links.hbm_bytes)));

  results::LinksRecord mine;
  mine.rank = world.rank();
  mine.node = world.node();
  mine.gpu = env.gpu ? env.gpu->name : "cpu";
  mine.pci_bus_id = bus;
  mine.numa_node = env.gpu ? env.gpu->numa_node : -1;
  mine.hbm_peak_gbps = results::peak_memory_gbps(mine.gpu);
  workloads::run_links(world, ctx.backend, plan.links, monitor, ctx.timeout_s, mine);
  mine.nvlinks = monitor.nvlinks();
  mine.xids = monitor.xids();
  mine.unreadable = monitor.unreadable();

  auto all = harness::gather_records(world, mine, ctx.deadline());
  for (auto& r : all) {  // rank 0 only: the others hold none
    if (static_cast<std::size_t>(r.rank) >= ctx.ranks.size()) continue;
    r.host = ctx.ranks[r.rank].host;
    r.cpu_affinity = ctx.ranks[r.rank].cpu_affinity;
  }
  return all;
}

}  // namespace gpuscale::launch
