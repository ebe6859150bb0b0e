#pragma once
// The projection of a run to more ranks, built from its collectives and training records
// (results/schema/Projection.hpp holds the record it returns, which the report carries).
#include <optional>
#include <string>
#include <vector>

#include "results/schema/Projection.hpp"

namespace gpuscale::results {

struct RunReport;

// The note a projection carries, first, when ranks of different emulated nodes shared a GPU
// (RunReport::emulation): their collectives timed the ranks' contention for that GPU, so every fit,
// and all that is projected from it, says nothing of the links.
std::string shared_gpu_fit_note();

// nullopt when there are no targets or no collectives record.
std::optional<Projection> build_projection(const RunReport& report, const std::vector<int>& target_ranks);

}  // namespace gpuscale::results
