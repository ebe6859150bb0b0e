#pragma once
// Each isolation round's figure of a node against the median of the round's other pairs: the
// measurement's own arithmetic, which the suspect ranking (phases/collectives/SuspectRanking.hpp) judges against
// the threshold and the HTML's per-node table shows.
#include <vector>

#include "phases/collectives/IsolationRecord.hpp"

namespace gpuscale::results {

// Per node and round: the node's figure over the median of the round's other pairs, the worse of
// sendrecv and allreduce among those measured on both sides (0 GB/s: not measured); 1 where nothing
// could be compared. Index = position in record.matches.
std::vector<double> round_ratios(const IsolationRecord& record);

}  // namespace gpuscale::results
