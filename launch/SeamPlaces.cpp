#include "launch/SeamPlaces.hpp"

#include <string>

#include "collectives/BenchResources.hpp"
#include "collectives/Op.hpp"
#include "launch/PhaseTable.hpp"
#include "workloads/layers/Shapes.hpp"

namespace gpuscale::launch {

// Points: harness::enter_phase (launch/Phases.cpp: "init", each phase, "finish") and each
// harness::OpScope, named PHASE/OP. Where a registry names the ops (collectives, layer kinds), it is
// read; the rest are the literal names of the scopes, each beside the file that opens it.
// tests/mpi/seam_places.sh fires a mark at every point and fails on one that never fires.
harness::SeamPlaces seam_places() {
  harness::SeamPlaces places;
  places.points = {"init", "finish"};
  for (const auto& phase : phase_table()) {
    places.points.emplace_back(phase.name);
    places.phases.emplace_back(phase.name);
  }
  places.points.emplace_back("env/smoke-allreduce");                      // harness/SmokeAllreduce.cpp
  for (const auto* op : collectives::all_ops()) places.points.push_back("collectives/" + std::string(op->name));
  for (const auto& shape : {workloads::LayerShape{workloads::LinearShape{}}, workloads::LayerShape{workloads::Conv2dShape{}}})
    places.points.push_back("compute/" + std::string(workloads::layer_kind(shape)));  // workloads/compute/ComputeRun.cpp
  for (const char* op : {"single", "ddp", "dp", "gradient-check"})      // workloads/train/TrainRun.cpp
    places.points.push_back(std::string("train/") + op);
  places.points.emplace_back("links/copies");                             // workloads/links/LinksRun.cpp
  places.points.emplace_back("burn/gemm");                                // phases/burn/run/BurnPhase.cpp
  // Buffers: harness/SmokeAllreduce.cpp, collectives::kCorruptBuffer, workloads/burn/Burn.cpp.
  places.buffers = {"smoke-allreduce", std::string(collectives::kCorruptBuffer), "burn-output"};
  return places;
}

}  // namespace gpuscale::launch
