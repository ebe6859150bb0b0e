#include "launch/phases/collectives/ProjectionUpdate.hpp"

#include "launch/Job.hpp"
#include "launch/phases/collectives/CollectivesPlan.hpp"
#include "launch/phases/collectives/ProjectionOptions.hpp"
#include "results/models/ProjectionBuild.hpp"

namespace gpuscale::launch {

void update_projection(Job& job) {
  if (job.world().rank() != 0) return;
  auto& report = job.report();
  // The collectives plan holds --project-ranks' targets; a command without collectives has nothing to
  // fit, and projects to the defaults.
  const auto* collectives = job.plan().find<CollectivesPlan>("collectives");
  const auto targets = collectives ? collectives->project_ranks : default_project_ranks();
  report.projection = results::build_projection(report, targets);
}

}  // namespace gpuscale::launch
