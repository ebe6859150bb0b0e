#pragma once
// The rules that turn isolation rounds and the bisection into a ranked suspect list. A node fails a
// round when it is under the threshold fraction of the median of the round's other pairs in both the sendrecv and the
// allreduce figure; a slow node fails with every partner, a slow link or partner in one round.
#include <vector>

#include "results/IsolationRecord.hpp"

namespace gpuscale::results {

// A node is named when it failed more than this share of its counted rounds ...
inline constexpr double kSuspectRoundShare = 2.0 / 3.0;
// ... and at least this many, so that two unlucky rounds of a short run name no one.
inline constexpr int kSuspectMinFailedRounds = 3;

// Per node and round: the node's figure over the median of the round's other pairs, the better of sendrecv and
// allreduce (under the threshold only when slow in both). Index = position in record.matches.
std::vector<double> round_ratios(const IsolationRecord& record);

// Greedy: the node with the largest share of failed rounds is named first; a later node's rounds
// with a named partner no longer count (that partner explains them). The bisection's node confirms its
// entry, or joins the list only where no round measured it (a single bisection is too noisy to
// overrule the rounds). Reads matches, threshold, node_hosts and bisection_node.
std::vector<Suspect> rank_suspects(const IsolationRecord& record);

}  // namespace gpuscale::results
