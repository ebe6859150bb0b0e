#pragma once
// Findings aggregate: one check per id and severity, however many ranks, nodes or pairs raised it,
// so that a job of hundreds of ranks prints one line per kind of problem, not one per rank or pair.
#include <cstddef>
#include <string>
#include <vector>

#include "results/base/Check.hpp"
#include "results/schema/RankEnv.hpp"

namespace gpuscale::results {

// How many findings' own messages one check keeps in `details`: enough to see the pattern, bounded so
// that a million findings of one kind cost no more than a hundred (`count` still counts them all).
inline constexpr std::size_t kMaxFindingDetails = 100;

// Merges `finding` (of the same id and severity) into `into`: counts add, ranks, nodes and pairs are
// unions (sorted), and each finding's message goes to `details` until it holds kMaxFindingDetails.
void merge_finding(Check& into, Check&& finding);

// Merges the checks of one id and severity into the first of them (in order of first appearance), as
// merge_finding does; nodes are filled from the ranks' records. Merging merged checks again changes nothing.
std::vector<Check> aggregate_findings(std::vector<Check> checks, const std::vector<RankEnv>& ranks);

// "slow-pair x53" (the id alone for a single finding): how the verdict and the console name a check.
std::string finding_name(const Check& c);

// "ranks 0-7,12 | nodes 0-1 | 53 pairs": whom the check concerns, in ranges; "" for the whole job.
std::string finding_scope(const Check& c);

}  // namespace gpuscale::results
