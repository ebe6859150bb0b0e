#pragma once
// Findings aggregate: one check per id and severity, however many ranks, nodes or pairs raised it,
// so that a job of hundreds of ranks prints one line per kind of problem, not one per rank or pair.
// The judge stores the aggregated checks in the report (RunReport::checks); renderers name them with
// results/render/FindingText.hpp.
#include <cstddef>
#include <vector>

#include "results/base/Check.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::judge {

// How many findings' own messages one check keeps in `details`: enough to see the pattern, bounded so
// that a million findings of one kind cost no more than a hundred (`count` still counts them all).
inline constexpr std::size_t kMaxFindingDetails = 100;

// Merges `finding` (of the same id and severity) into `into`: counts add, ranks, nodes and pairs are
// unions (sorted), and each finding's message goes to `details` until it holds kMaxFindingDetails.
void merge_finding(results::Check& into, results::Check&& finding);

// Merges the checks of one id and severity into the first of them (in order of first appearance), as
// merge_finding does; nodes are filled from the ranks' records. Merging merged checks again changes nothing.
std::vector<results::Check> aggregate_findings(std::vector<results::Check> checks,
                                               const std::vector<results::RankEnv>& ranks);

}  // namespace gpuscale::judge
