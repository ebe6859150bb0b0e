#include "workloads/links/LinksRun.hpp"

#include "harness/Activity.hpp"

namespace gpuscale::workloads {
namespace {

// PCIe link readings every 10 ms while this GPU's copies run: tens of readings in the shortest turn.
constexpr double kPcieSamplePeriodS = 0.01;

}  // namespace

void run_links(harness::World& world, harness::Backend& backend, const LinkOptions& options,
               harness::LinkMonitor& monitor, double timeout_s, results::LinksRecord& mine) {
  const auto deadline = [timeout_s] { return harness::Deadline::after(timeout_s); };
  const harness::OpScope scope("copies");  // test seam "links/copies"
  HostLinkBench bench(backend, options, timeout_s);
  // One GPU of each node at a time: turn t is local rank t's on every node at once.
  const int turns = static_cast<int>(world.max_over_ranks(world.local_size(), deadline()));
  for (int turn = 0; turn < turns; ++turn) {
    world.barrier(deadline());
    if (turn != world.local_rank()) continue;
    monitor.start_pcie(kPcieSamplePeriodS);
    mine.copies = bench.copies("solo", timeout_s);
    mine.pcie = monitor.stop_pcie();
  }
  // Every GPU of the node at once: the PCIe and NUMA contention a data loader meets. With one GPU
  // per node it would repeat the solo figures.
  if (turns > 1) {
    world.barrier(deadline());
    for (auto& f : bench.copies("concurrent", timeout_s)) mine.copies.push_back(std::move(f));
  }
  world.barrier(deadline());
  mine.hbm = bench.device_memory(timeout_s);
}

}  // namespace gpuscale::workloads
