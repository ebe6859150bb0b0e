#include "launch/LinksPhase.hpp"

#include "harness/Activity.hpp"
#include "harness/GatherRecords.hpp"
#include "harness/LinkMonitor.hpp"
#include "launch/LinksPlan.hpp"
#include "results/Format.hpp"
#include "results/GpuPeak.hpp"
#include "results/RankEnv.hpp"

namespace gpuscale::launch {
namespace {

// PCIe link readings every 10 ms while this GPU's copies run: tens of readings in the shortest turn.
constexpr double kPcieSamplePeriodS = 0.01;

}  // namespace

void run_links_phase(Job& job) {
  auto& world = job.world();
  LinksPlan plan = *job.plan().links;
  plan.links.timeout_s = job.timeout_s();
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
  {
    const harness::OpScope scope("copies");  // test seam "links/copies"
    workloads::HostLinkBench bench(job.backend(), plan.links);
    // One GPU of each node at a time: turn t is local rank t's on every node at once.
    const int turns = static_cast<int>(world.max_over_ranks(world.local_size(), job.deadline()));
    for (int turn = 0; turn < turns; ++turn) {
      world.barrier(job.deadline());
      if (turn != world.local_rank()) continue;
      monitor.start_pcie(kPcieSamplePeriodS);
      mine.copies = bench.copies("solo");
      mine.pcie = monitor.stop_pcie();
    }
    // Every GPU of the node at once: the PCIe and NUMA contention a data loader meets. With one GPU
    // per node it would repeat the solo figures.
    if (turns > 1) {
      world.barrier(job.deadline());
      for (auto& f : bench.copies("concurrent")) mine.copies.push_back(std::move(f));
    }
    world.barrier(job.deadline());
    mine.hbm = bench.device_memory();
  }
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
    report.straggler_threshold = plan.straggler_threshold;
    report.links = std::move(all);
  }
  job.phase_done("links");
}

}  // namespace gpuscale::launch
