#include "launch/phases/collectives/ProjectionUpdate.hpp"

#include "launch/Job.hpp"
#include "launch/phases/collectives/ProjectionOptions.hpp"
#include "results/models/ProjectionBuild.hpp"

namespace gpuscale::launch {

void update_projection(Job& job) {
  if (job.world().rank() != 0) return;
  auto& report = job.report();
  report.projection = results::build_projection(report, project_ranks(job.invocation().options));
}

}  // namespace gpuscale::launch
