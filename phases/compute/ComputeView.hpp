#pragma once
// Compute's view of its records (results/base/PhaseViewOf.hpp), which the outputs read through their
// table (results/views/PhaseView.hpp): its figures, console table, headline, charts and HTML section.
#include <vector>

#include "phases/compute/ComputeRecord.hpp"
#include "results/base/PhaseViewOf.hpp"

namespace gpuscale::results::views::compute {

using Records = std::vector<ComputeRecord>;
extern const PhaseViewOf<Records> kView;

}  // namespace gpuscale::results::views::compute
