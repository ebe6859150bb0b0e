#pragma once
// A small, fully determined run report for reporter tests: two ranks on one node, one GPU rank and
// one CPU rank, a warning check, smoke allreduce results. And synthetic figures of every phase's
// charts, standing in for the phases that are not built yet.
#include <vector>

#include "results/base/Figure.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results::testing {

RunReport sample_run();
// busbw by size/op and by ranks, TFLOP/s per rank (rank 3 slow), step time, efficiency, compute and
// exposed communication, and a 4x4 pairwise matrix.
std::vector<Figure> synthetic_phase_figures();

// Eight H200 ranks on four nodes (hosts n0..n3, two ranks each) with burn records (rank 5, on n2, at
// 600 TFLOP/s, the others at 800), a slow-node check on n2, and an isolation record naming n2 (two
// rounds of pairs in which every pair with n2 moves a tenth of the others).
RunReport sample_fleet_run();
// Per-rank figures of the fleet run's other phases: compute (rank 5 slow), host links, HBM, the
// allreduce sweep over 8 ranks and DDP's step time.
std::vector<Figure> fleet_phase_figures();

}  // namespace gpuscale::results::testing
