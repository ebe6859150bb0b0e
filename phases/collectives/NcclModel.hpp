#pragma once
// NCCL's own cost model of a communicator, as its tuning log prints it when the communicator starts
// (`--nccl-algo`): per collective, algorithm and protocol a latency (us) and an algorithm bandwidth
// (GB/s). NCCL predicts a call of n bytes to take latency + n / bandwidth and runs the fastest
// enabled pair; a bandwidth of 0 is a pair it will not run. Read by collectives/NcclTuningLog, which
// names each collective by its gpuscale op (the op registry's NCCL name, collectives/Op.hpp); its
// prediction for a call is results/models/NcclPrediction.hpp's.
#include <string>
#include <vector>

namespace gpuscale::results {

struct NcclModelEntry {
  std::string op;         // "allreduce", "allgather", ... (NCCL's AllReduce, AllGather, ...)
  std::string algorithm;  // "Tree", "Ring", "NVLS", ...
  std::string protocol;   // "LL", "LL128", "Simple"
  double latency_us = 0;
  double bandwidth_gbps = 0;  // algorithm bandwidth; 0: not run
};

struct NcclModel {
  int ranks = 0;  // of the communicator; 0 where the log did not say
  int nodes = 0;
  std::vector<NcclModelEntry> entries;
};

}  // namespace gpuscale::results
