#pragma once
// Localisation of a slow node: node-local allreduce per node, seeded rounds of node pairs
// (sendrecv and allreduce between partner nodes, every rail at once), the bisection steps (measured
// as the bisection chose them). Plain data, measurements only; node = index in World's node order. The
// suspects the judge ranks from them are its output, beside the records (results/base/Suspect.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

struct NodeLocalResult {
  int node = 0;
  double busbw_gbps = 0;  // allreduce over the node's own ranks, all nodes at once; 0: a one-rank node
};

// One node's part in one round of pairs.
struct NodeRound {
  int round = 0;
  int node = 0;
  int partner = -1;
  double sendrecv_gbps = 0;         // per direction; the node's slowest rail
  double allreduce_busbw_gbps = 0;  // the pair's allreduce; the node's slowest rail
};

// One step of the bisection: the two halves measured at once (a lone node runs with a reference
// node already cleared), and which half was kept.
struct BisectionStep {
  std::vector<int> a, b;  // the nodes of each half's communicator
  double a_busbw_gbps = 0, b_busbw_gbps = 0;
};

struct IsolationRecord {
  std::uint64_t bytes = 0;      // message of every measurement
  int rounds = 0;               // rounds of pairs asked for
  std::uint64_t seed = 0;       // of the matchings
  double threshold = 0;         // a node fails a round under this fraction of the median of the round's other pairs
  int rails = 0;                // ranks per node (the most of any node)
  std::vector<std::string> node_hosts;
  std::vector<NodeLocalResult> node_local;
  std::vector<NodeRound> matches;
  std::vector<BisectionStep> bisection;
  int bisection_node = -1;      // the node the bisection ended on; -1: none
  std::string bisection_note;   // why it named none
  std::string skipped_reason;   // why nothing was measured (out of memory); empty: it ran
};

constexpr auto json_fields(const NodeLocalResult*) {
  using T = NodeLocalResult;
  return optional_fields(field("node", &T::node), field("busbw_gbps", &T::busbw_gbps));
}

constexpr auto json_fields(const NodeRound*) {
  using T = NodeRound;
  return optional_fields(field("round", &T::round), field("node", &T::node), field("partner", &T::partner),
                         field("sendrecv_gbps", &T::sendrecv_gbps),
                         field("allreduce_busbw_gbps", &T::allreduce_busbw_gbps));
}

constexpr auto json_fields(const BisectionStep*) {
  using T = BisectionStep;
  return optional_fields(field("a", &T::a), field("b", &T::b), field("a_busbw_gbps", &T::a_busbw_gbps),
                         field("b_busbw_gbps", &T::b_busbw_gbps));
}

constexpr auto json_fields(const IsolationRecord*) {
  using T = IsolationRecord;
  return optional_fields(field("bytes", &T::bytes), field("rounds", &T::rounds), field("seed", &T::seed),
                         field("threshold", &T::threshold), field("rails", &T::rails),
                         field("node_hosts", &T::node_hosts), field("node_local", &T::node_local),
                         field("matches", &T::matches), field("bisection", &T::bisection),
                         field("bisection_node", &T::bisection_node), field("bisection_note", &T::bisection_note),
                         field("skipped_reason", &T::skipped_reason));
}

void to_json(nlohmann::json& j, const NodeLocalResult& v);
void from_json(const nlohmann::json& j, NodeLocalResult& v);
void to_json(nlohmann::json& j, const NodeRound& v);
void from_json(const nlohmann::json& j, NodeRound& v);
void to_json(nlohmann::json& j, const BisectionStep& v);
void from_json(const nlohmann::json& j, BisectionStep& v);
void to_json(nlohmann::json& j, const IsolationRecord& v);
void from_json(const nlohmann::json& j, IsolationRecord& v);

}  // namespace gpuscale::results
