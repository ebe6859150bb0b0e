#pragma once
// The report's projection (results/models/Projection.hpp), kept up to date by the phases it is fitted
// from: collectives, and train once it ran.
namespace gpuscale::launch {

class Job;

// Rank 0: (re)builds the report's projection from what the report holds now, to --project-ranks'
// targets (ProjectionOptions.hpp), so each phase's write carries it. Local; other ranks return at once.
void update_projection(Job& job);

}  // namespace gpuscale::launch
