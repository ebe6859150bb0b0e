#pragma once
// Burn's view of its records (results/base/PhaseViewOf.hpp), which the outputs read through their table
// (results/views/PhaseView.hpp): its figures, console table, headline and HTML section.
#include <vector>

#include "phases/burn/BurnRecord.hpp"
#include "results/base/PhaseViewOf.hpp"

namespace gpuscale::results::views::burn {

using Records = std::vector<BurnRecord>;
extern const PhaseViewOf<Records> kView;

}  // namespace gpuscale::results::views::burn
