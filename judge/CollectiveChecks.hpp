#pragma once
// Findings from the collectives record: wrong data, slow nodes and an isolation that measured nothing
// fail the run (error); busbw under the link threshold, slow pairs and skipped sweeps warn.
#include <vector>

#include "results/schema/Check.hpp"
#include "results/schema/CollectiveRecords.hpp"

namespace gpuscale::judge {

// node_of_rank[world rank] = its node (RankEnv::node): a slow-node finding names its nodes' ranks;
// empty: the ranks are unknown and the finding names the nodes only.
std::vector<results::Check> collective_checks(const results::CollectivesRecord& record,
                                              const std::vector<int>& node_of_rank = {});

}  // namespace gpuscale::judge
