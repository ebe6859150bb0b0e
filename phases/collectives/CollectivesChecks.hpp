#pragma once
// Findings from the collectives record: wrong data, slow nodes and an isolation that measured nothing
// fail the run (error); busbw under the link threshold, slow pairs and skipped sweeps warn. The record
// holds measurements; which pairs are slow and which nodes are suspects is decided here, from the
// bandwidths and rounds with the record's thresholds, so a saved run is judged by today's rules.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "judge/base/Judged.hpp"
#include "judge/base/PhaseRulesOf.hpp"
#include "phases/collectives/CollectiveRecords.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/base/Suspect.hpp"

namespace gpuscale::judge {

// The marks collectives's rules set on its records, whichever family raises them
// (phases/collectives/CollectiveRecords.hpp).
using results::CollectivesMark;

// The pairs (indexes into matrix.pairs, ascending) under matrix.threshold x the median bandwidth of
// the pairs of their class (intra- or inter-node): a pair slow next to NVLink may be normal for the
// network.
std::vector<std::size_t> slow_pairs(const results::PairMatrix& matrix);

// The checks and the marks pair_slow. The isolation's finding names the suspects judge_suspects ranks
// (phases/collectives/SuspectRanking.hpp), as the judge keeps them beside the records; `saved` (the
// report's) stand where the isolation measured nothing to rank again.
// node_of_rank[world rank] = its node (RankEnv::node): a slow-node finding names its nodes' ranks;
// empty: the ranks are unknown and the finding names the nodes only. Sweeps and pairs `marks` says
// were measured beside another process raise no speed finding.
Judged collective_checks(const results::CollectivesRecord& record, const std::vector<int>& node_of_rank = {},
                         const RecordMarks& marks = RecordMarks(), const results::SuspectList& saved = {});

// Collectives's rules, which the judge reads through its table (judge/PhaseRules.hpp).
namespace phases::collectives {
using Records = std::optional<results::CollectivesRecord>;
extern const PhaseRulesOf<Records> kRules;
}  // namespace phases::collectives

}  // namespace gpuscale::judge
