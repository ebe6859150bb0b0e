#pragma once
// Collectives' view of its record (results/base/PhaseViewOf.hpp), which the outputs read through their
// table (results/views/PhaseView.hpp): its figures, console tables, headlines, charts and HTML section.
#include <optional>

#include "phases/collectives/CollectiveRecords.hpp"
#include "results/base/PhaseViewOf.hpp"

namespace gpuscale::results::views::collectives {

using Records = std::optional<CollectivesRecord>;
extern const PhaseViewOf<Records> kView;

}  // namespace gpuscale::results::views::collectives
