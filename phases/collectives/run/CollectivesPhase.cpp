#include "phases/collectives/run/CollectivesPhase.hpp"

#include "collectives/CollectivesRun.hpp"
#include "collectives/LinkExpectation.hpp"
#include "phases/collectives/run/CollectivesPlan.hpp"

namespace gpuscale::launch {

results::CollectivesRecord run_collectives_phase(PhaseContext& ctx) {
  const auto& plan = ctx.plan<CollectivesPlan>();
  collectives::CollectivesRunSetup setup{
      .world = ctx.world,
      .backend = ctx.backend,
      .ranks = ctx.ranks,
      .nccl_algorithm = plan.nccl_algorithm,
      .hooks = ctx.hooks,
  };
  auto record = collectives::run_collectives(plan.sweep, setup, ctx.timeout_s);
  if (ctx.world.rank() == 0) {
    const auto link = collectives::link_for(ctx.ranks, plan.sweep.net_gbps);
    for (auto& s : record.sweeps) collectives::apply_link(s, link);
  }
  return record;
}

}  // namespace gpuscale::launch
