#pragma once
// The console view of the collectives phase, read like nccl-tests' output: one table per op with
// out-of-place and in-place columns, then the headline, the scaling table and the pairwise matrix.
// Rank 0 only, through ConsoleReporter; no CUDA or MPI here.
#include <cstdint>
#include <ostream>
#include <string>

#include "phases/collectives/CollectiveRecords.hpp"
#include "results/base/Suspect.hpp"

namespace gpuscale::results {

// detailed: every size's row and the 12 slowest pairs; else each op's headline alone and the 5
// slowest pairs (the console past a few nodes; the JSON and CSV keep every size and pair).
void write_collectives(const CollectivesRecord& record, const RecordMarks& marks, bool detailed, std::ostream& out);
// The slow-node isolation: what it measured in one line, then one line per suspect the judge named (the
// rounds and steps stay in the JSON). Apart from write_collectives, since the suspects are the judge's,
// beside the records (RunReport::suspects).
void write_isolation(const IsolationRecord& record, const SuspectList& suspects, std::ostream& out);

// nccl-tests' time column in microseconds: 2 decimals below 100 us, 1 below 10 ms, none above.
std::string microseconds(double seconds);
// "8 B", "64 KiB", "256 MiB", "1 GiB" (binary units, exact multiples only; otherwise bytes).
std::string size_label(std::uint64_t bytes);

}  // namespace gpuscale::results
