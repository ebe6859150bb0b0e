#pragma once
// Findings from the collectives record: wrong data fails the run (error); busbw under the link
// threshold, slow pairs and skipped sweeps warn.
#include <vector>

#include "results/Check.hpp"
#include "results/CollectiveRecords.hpp"

namespace gpuscale::collectives {

std::vector<results::Check> collective_checks(const results::CollectivesRecord& record);

}  // namespace gpuscale::collectives
