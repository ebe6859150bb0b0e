#include "launch/ProjectionUpdate.hpp"

#include "results/models/ProjectionBuild.hpp"

namespace gpuscale::launch {

void update_projection(results::RunReport& report, const RunPlan& plan) {
  report.projection = results::build_projection(report, plan.project_ranks);
}

}  // namespace gpuscale::launch
