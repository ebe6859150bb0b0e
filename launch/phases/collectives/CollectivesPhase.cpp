#include "launch/phases/collectives/CollectivesPhase.hpp"

#include "collectives/CollectivesRun.hpp"
#include "collectives/LinkExpectation.hpp"
#include "launch/Job.hpp"

namespace gpuscale::launch {

void run_collectives_phase(Job& job) {
  auto& world = job.world();
  const auto& plan = job.plan().get<CollectivesPlan>("collectives");
  auto o = plan.sweep;
  o.isolation_seed = static_cast<std::uint64_t>(job.options().seed);
  collectives::CollectivesRunSetup setup{
      .world = world,
      .backend = job.backend(),
      .ranks = job.report().ranks,
      .nccl_algorithm = plan.nccl_algorithm,
      .hooks = run_hooks(job),
  };
  auto record = collectives::run_collectives(o, setup, job.timeout_s());
  if (world.rank() == 0) {
    auto& report = job.report();
    const auto link = collectives::link_for(report.ranks, o.net_gbps);
    for (auto& s : record.sweeps) collectives::apply_link(s, link);
    report.collectives = std::move(record);
  }
  job.phase_done("collectives");
}

}  // namespace gpuscale::launch
