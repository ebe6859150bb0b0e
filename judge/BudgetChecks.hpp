#pragma once
// budget-exceeded: the whole-job run's budget ran out and phases dropped work. The finding names what
// took the time (the phase's longest op and its seconds), the node that the slow-node localisation
// named where it named one (then the slowness is that node's: an error), and what was dropped. Pure:
// rank 0 runs it when the run ends, and unit tests feed it synthetic records.
#include <optional>
#include <vector>

#include "results/base/Check.hpp"
#include "results/base/Suspect.hpp"
#include "results/schema/BudgetRecord.hpp"

namespace gpuscale::judge {

// Dropped lines quoted in the message; every one stays in the JSON's budget record.
inline constexpr std::size_t kDroppedNamed = 3;

// `suspects`: the report's (RunReport::suspects, ranked by the judge before its families run) where the
// collectives phase's isolation ran, nullptr where it did not; the first is the node named.
std::optional<results::Check> budget_check(const results::BudgetRecord& budget, const results::SuspectList* suspects);

}  // namespace gpuscale::judge
