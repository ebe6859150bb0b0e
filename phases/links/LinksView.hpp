#pragma once
// Links's view of its records (results/base/PhaseViewOf.hpp), which the outputs read through their table
// (results/views/PhaseView.hpp): its figures, console table, headlines and HTML section.
#include <vector>

#include "phases/links/LinksRecord.hpp"
#include "results/base/PhaseViewOf.hpp"

namespace gpuscale::results::views::links {

using Records = std::vector<LinksRecord>;
extern const PhaseViewOf<Records> kView;

}  // namespace gpuscale::results::views::links
