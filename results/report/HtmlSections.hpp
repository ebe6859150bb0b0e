#pragma once
// The fleet-level sections of the HTML report, each one <section id="..."> (escaped, self-contained):
//   summary     the headline figures (results/report/Headlines.hpp) against their peak and the baseline
//   suspects    the ranked suspect list of the slow-node isolation: how each was named (rounds of pairs,
//               node-local allreduce, bisection) and its evidence, then every node's node-local
//               allreduce and rounds (folded)
//   node-heat   node x per-GPU headline: each node's worst GPU relative to the median over nodes, and
//               the node's inter-node busbw (the slow-node rounds') where measured; coloured by how far
//               it lies on the worse side, signed as the console signs (+ worse) (multi-node runs only)
// Each writes nothing when it has nothing to show.
#include <ostream>
#include <vector>

#include "phases/collectives/IsolationRecord.hpp"
#include "results/base/Suspect.hpp"
#include "results/report/Headlines.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

// A node's cell turns fully red at this fraction on the worse side of the median over nodes.
inline constexpr double kHeatFullScale = 0.30;

void write_summary(const std::vector<Headline>& headlines, std::ostream& out);
void write_suspects(const IsolationRecord& isolation, const SuspectList& suspects, std::ostream& out);
void write_node_heat_map(const RunReport& run, const std::vector<Headline>& headlines,
                         const std::vector<Figure>& figures, std::ostream& out);

}  // namespace gpuscale::results
