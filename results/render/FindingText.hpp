#pragma once
// How the verdict and the console name a check that stands for many findings (the judge aggregates
// them: judge/Findings.hpp).
#include <string>

#include "results/base/Check.hpp"

namespace gpuscale::results {

// "slow-pair x53" (the id alone for a single finding).
std::string finding_name(const Check& c);

// "ranks 0-7,12 | nodes 0-1 | 53 pairs": whom the check concerns, in ranges; "" for the whole job.
std::string finding_scope(const Check& c);

}  // namespace gpuscale::results
