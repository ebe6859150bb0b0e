#pragma once
// Bisection of the nodes: split the suspect set in halves, run a collective inside each half at
// once, keep the half that is slower by more than noise, until one node is left (log2(n) steps for
// one slow node). A lone node runs with a reference node already cleared, so that its half still
// crosses a link. The search is plain: `measure` runs the collectives, here only the decisions.
#include <functional>
#include <string>
#include <vector>

#include "phases/collectives/IsolationRecord.hpp"

namespace gpuscale::collectives {

// Bus bandwidth of the two halves' collectives, run at once; every rank must return the same pair
// (collective over the world: each call is one step on every rank).
using HalvesMeasure = std::function<std::pair<double, double>(const std::vector<int>& a, const std::vector<int>& b)>;

struct BisectionOutcome {
  int node = -1;  // the node the search ended on; -1: none
  std::vector<results::BisectionStep> steps;
  std::string note;  // why none was named
};

// The smallest node count the search can run on: two halves with a cleared reference each.
inline constexpr int kBisectionMinNodes = 4;

// A half is kept when its busbw is under `threshold` x the other's; when neither is, the search
// stops and names none.
BisectionOutcome bisect(int nodes, double threshold, const HalvesMeasure& measure);

}  // namespace gpuscale::collectives
