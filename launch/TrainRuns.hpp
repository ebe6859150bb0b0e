#pragma once
// One training configuration each, run collectively by every rank of the job (ranks that take no
// part only join the gathers and barriers); rank 0 returns the assembled record, other ranks an
// empty one.
#include <map>
#include <memory>
#include <vector>

#include "launch/Job.hpp"
#include "launch/TrainPlan.hpp"
#include "workloads/DdpTrainer.hpp"

namespace gpuscale::launch {

// What every configuration of one model and precision shares on this rank.
struct TrainEnv {
  Job& job;
  const TrainPlan& plan;
  workloads::ComputeContext& ctx;
  workloads::TrainOps& ops;
  const workloads::Model& model;
  workloads::Precision precision;
  std::map<int, std::unique_ptr<harness::Communicator>>& ddp_comms;  // by size; null where not a member
  std::vector<harness::Backend*> dp_devices;  // rank 0: DP's devices; empty elsewhere
  std::vector<results::TraceSpan>* trace = nullptr;  // rank 0 collects spans here when tracing
  // By size, twins of ddp_comms with TrainPlan's kTunedCommCtas (--comm-ctas auto); may be null.
  std::map<int, std::unique_ptr<harness::Communicator>>* tuned_comms = nullptr;
};

struct DdpConfig {
  std::string strategy;  // "single" (every rank alone) or "ddp" (the first `gpus` ranks)
  std::string scaling;
  int gpus = 1;
  std::int64_t batch_per_gpu = 0;
  workloads::DdpOptions options;
  bool traced = false;
};

results::TrainRecord run_ddp_config(TrainEnv& env, const DdpConfig& config);

// DP over rank 0's first `devices` devices; global_batch split evenly.
results::TrainRecord run_dp_config(TrainEnv& env, const std::string& scaling, int devices, std::int64_t global_batch);

}  // namespace gpuscale::launch
