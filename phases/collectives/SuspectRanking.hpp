#pragma once
// The rules that turn isolation rounds, the node-local allreduce and the bisection into a ranked
// suspect list: a judgement over the record's measurements, so `gpuscale report` ranks a saved run's
// suspects afresh with the record's threshold (the run's --isolate-threshold, or --expect's
// isolate_threshold). A node fails a round when it is under the threshold fraction of the median of
// the round's other pairs in any figure the round measured (sendrecv or allreduce: a node slowed by a
// stalled process, or in one direction, can be slow in one of them only); a slow node fails with
// every partner, a slow link or partner in one round.
#include <vector>

#include "phases/collectives/IsolationRecord.hpp"
#include "phases/collectives/RoundRatios.hpp"
#include "results/base/Suspect.hpp"

namespace gpuscale::judge {

// A node is named when it failed more than this share of its counted rounds ...
inline constexpr double kSuspectRoundShare = 2.0 / 3.0;
// ... and at least this many, so that two unlucky rounds of a short run name no one.
inline constexpr int kSuspectMinFailedRounds = 3;

// A node whose node-local allreduce busbw lies out of the job's nodes: under the threshold fraction
// of their median and further below it than kOutlierSigmas robust sigmas (results/base/Outlier.hpp), so
// that a spread the measurement's own noise makes never names one. Needs kOutlierMinGroup measured
// nodes. Furthest out first.
struct NodeLocalOutlier {
  int node = 0;
  double busbw_gbps = 0, median_gbps = 0;
  double sigmas = 0;  // below the median, in robust sigmas (inf: the other nodes all equal)
};
std::vector<NodeLocalOutlier> node_local_outliers(const results::IsolationRecord& record);

// Greedy: the node with the largest share of failed rounds is named first; a later node's rounds
// with a named partner no longer count (that partner explains them). A node-local outlier confirms
// its entry or joins the list after them. The bisection's node confirms its entry, or joins the list
// only where no round measured it (a single bisection is too noisy to overrule the rounds). Reads
// matches, node_local, threshold, node_hosts and bisection_node.
std::vector<results::Suspect> rank_suspects(const results::IsolationRecord& record);

// Whether the isolation took any figure: a node-local allreduce, a round, a bisection step.
bool measured_anything(const results::IsolationRecord& record);

// The isolation's ranked suspects, as the judge keeps them (RunReport::suspects): rank_suspects over
// the measurements; where the record measured nothing, `saved`, the suspects the file kept of its run,
// marked not_rejudged where it names any (a file that kept only its run's ranking).
results::SuspectList judge_suspects(const results::IsolationRecord& record, const results::SuspectList& saved = {});

}  // namespace gpuscale::judge
