#pragma once
// What the training phase runs, parsed from the command line. Pure (no MPI, no device), so the
// parsing is unit-tested; bad input throws harness::UsageError with one line.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "results/RunReport.hpp"

#include "workloads/DdpTrainer.hpp"
#include "workloads/Model.hpp"
#include "workloads/TrainBench.hpp"
#include "workloads/TrainTiming.hpp"

namespace gpuscale::launch {

struct TrainPlan {
  std::vector<std::string> models;
  std::vector<workloads::Precision> precisions;
  bool single = true, dp = true, ddp = true;
  std::optional<int> depth, width;  // unset: the preset's
  std::optional<std::int64_t> batch;  // per GPU; unset: the preset's
  bool weak = true, strong = false;
  std::vector<int> ddp_sizes;  // rank counts; empty: 1, 2, 4, ... up to the world size (and the world size)
  std::optional<int> dp_devices;  // unset: every visible GPU (cpu: the ranks of the node, at least 2)
  workloads::DdpOptions ddp_options;
  // cuDNN algorithms found by timing (cudnnFind, like torch.backends.cudnn.benchmark = True).
  workloads::TuningOptions tuning{workloads::AlgoSearch::exhaustive};
  std::vector<harness::StreamPriority> comm_priorities;  // each is measured at the largest DDP size
  // DDP communicators: thread blocks per collective asked of NCCL; 0: NCCL's choice. With
  // comm_ctas_auto, each DDP configuration over 2+ ranks times steps on both NCCL's choice and
  // kTunedCommCtas and keeps the faster (as cudnn.benchmark picks algorithms), comm_ctas unused.
  int comm_ctas = 0;
  bool comm_ctas_auto = true;
  workloads::TimingOptions timing;
  bool check = true;
  std::int64_t check_batch = 2;  // samples per rank in the correctness checks
  double straggler_threshold = results::kDefaultStragglerThreshold;
};

using workloads::kTunedCommCtas;  // --comm-ctas takes 0..this

// The options of `gpuscale train` (the phase reads its defaults where a command lacks them).
void add_train_options(cxxopts::Options& options);

// cpu: scaled-down defaults (depth 3, width 16, batch 4, 3 timed steps) so that CI runs in seconds.
// quick: mlp only, bf16, fewer steps. quick and whole_job (the training phase of the whole-job run,
// not `gpuscale train`) keep NCCL's CTAs unless --comm-ctas says otherwise: a second communicator per
// DDP size and the timed trials do not fit the default run's time budget. whole_job also searches
// convolutions with cudnnFind alone unless --cudnn-algo says otherwise (graph plans timed in every DP
// replica's context do not fit it either).
TrainPlan parse_train_plan(const cxxopts::ParseResult& options, bool quick, bool cpu, bool whole_job = false);

// 1, 2, 4, ... below world_size, then world_size.
std::vector<int> default_ddp_sizes(int world_size);

}  // namespace gpuscale::launch
