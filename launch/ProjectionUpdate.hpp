#pragma once
// The report's projection (results/schema/Projection.hpp), kept up to date after each phase it is
// fitted from (PhaseSpec::feeds_projection: collectives, and train once it ran). The driver runs it
// (Job::phase_done), so that neither phase reaches into the other for it.
#include "launch/base/RunPlan.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::launch {

// Rank 0: (re)builds `report`'s projection from what it holds now, to the plan's targets
// (RunPlan::project_ranks), so each write after the phase carries it. Local.
void update_projection(results::RunReport& report, const RunPlan& plan);

}  // namespace gpuscale::launch
