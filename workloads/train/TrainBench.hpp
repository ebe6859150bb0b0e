#pragma once
// The training benchmark of one rank, as ComputeBench is the compute one: a configuration's trainer
// built, warmed up, timed and traced, with --comm-ctas auto's choice of NCCL CTAs; DP on the devices
// of rank 0; the record's configuration fields. Produces plain results; prints nothing. Which ranks
// run what, and the gathers and barriers between them, are TrainRun's.
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "phases/train/TrainRecord.hpp"
#include "workloads/train/DdpTrainer.hpp"
#include "workloads/train/DpTrainer.hpp"
#include "workloads/train/Model.hpp"
#include "workloads/train/TrainRankResult.hpp"
#include "workloads/train/TrainTiming.hpp"

namespace gpuscale::workloads {

// The CTA count that --comm-ctas auto tries beside NCCL's own choice: NCCL's most (MAXCHANNELS).
inline constexpr int kTunedCommCtas = 64;
// Steps timed per candidate by --comm-ctas auto (fewer when the timing asks for fewer).
inline constexpr int kCtaTuneSteps = 10;

// --comm-ctas auto's rule, on the slowest rank's median steps: kTunedCommCtas only when it beat NCCL's
// choice by more than 1%; a tie keeps NCCL's choice, which leaves the SMs to compute.
bool prefer_tuned_ctas(double nccl_choice_step_s, double tuned_step_s);

// What every configuration of a phase shares on this rank.
struct TrainBenchOptions {
  TimingOptions timing;
  std::uint64_t seed = 1;
  int rank = 0;          // world rank: the figures' and the trace spans'
};

// One single or DDP configuration, as this rank runs it.
struct DdpRun {
  std::int64_t batch_per_gpu = 0;
  DdpOptions options;
  harness::Communicator* comm = nullptr;        // the DDP ranks; nullptr: single (this rank alone)
  harness::Communicator* tuned_twin = nullptr;  // comm's twin with kTunedCommCtas; nullptr: no CTA tuning
  bool traced = false;                          // also trace one step
  std::string label;                            // names the traced spans' configuration
};

// This rank's part of `run`: the barrier of the timing ranks (a one-element allreduce), the CTA
// tuning where a twin is given (and the buckets are not window memory), then the timed steps.
// Collective over run.comm. Out of memory is a skipped result; other errors propagate. Here and below,
// timeout_s bounds every wait (the caller's: launch's phase --timeout).
TrainRankResult run_ddp_rank(ComputeContext& ctx, TrainOps& ops, const Model& model, Precision precision,
                             const DdpRun& run, const TrainBenchOptions& options, double timeout_s);

// --comm-ctas auto: kCtaTuneSteps steps (at most timing.iterations) timed on each candidate (comm,
// NCCL's choice of CTAs, then twin, kTunedCommCtas) after timing's warm-up; every rank keeps the one
// whose slowest rank's median step was lower by prefer_tuned_ctas (as cudnn.benchmark keeps the
// fastest algorithm) and leaves `trainer` on it. Returns (CTAs, the slowest rank's median step s)
// per candidate, the kept one first. Collective over comm (which must be the trainer's).
std::vector<std::pair<int, double>> tune_comm_ctas(DdpTrainer& trainer, harness::Backend& backend,
                                                   harness::Communicator& comm, harness::Communicator& twin,
                                                   TimingOptions timing, double timeout_s);

// DP over `devices` (rank 0's, device 0 first), `global_batch` split evenly: completes `record`
// with the figures per device and the phases, or skips it when out of memory. Local.
void run_dp(results::TrainRecord& record, std::span<harness::Backend* const> devices, const TuningOptions& tuning,
            const Model& model, Precision precision, std::int64_t global_batch, const DpOptions& dp,
            const TrainBenchOptions& options, double timeout_s);

// A record with a configuration's fields and no figures. strategy: "single", "ddp" or "dp".
results::TrainRecord train_record(const Model& model, Precision precision, const std::string& strategy,
                                  const std::string& scaling, int gpus, std::int64_t batch_per_gpu,
                                  const DdpOptions& options);

}  // namespace gpuscale::workloads
