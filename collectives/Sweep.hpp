#pragma once
// The sweep driver: one op over every size, out of place then in place, into one record; and the
// headline figures that summarise it.
#include <cstdint>
#include <string>
#include <vector>

#include "collectives/BenchResources.hpp"
#include "collectives/Op.hpp"
#include "collectives/SweepOptions.hpp"
#include "harness/BudgetGate.hpp"
#include "phases/collectives/CollectiveRecords.hpp"

namespace gpuscale::collectives {

// Collective over the world (see measure). `comm` nullptr on ranks outside the communicator; `ranks`
// is its size, `group` its name in the report. Only a member's record is meaningful. `budget`: asked
// before every size after the first (collective over the world, so every world rank must sweep);
// once spent, the sizes left are not measured (the record's rows stop there).
results::CollectiveSweep sweep_op(BenchResources& resources, harness::Communicator* comm, const SweepOptions& options,
                                  const OpSpec& op, const std::vector<std::uint64_t>& sizes, int ranks,
                                  const std::string& group, harness::BudgetGate* budget = nullptr);

// Peak busbw, busbw at the largest measured sizes <= 256 MiB and <= 1 GiB, the time at the smallest
// size (out-of-place figures). Leaves the link fields alone.
void fill_headline(results::CollectiveSweep& sweep);

}  // namespace gpuscale::collectives
