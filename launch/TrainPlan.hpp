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

// The whole-job run's training phase, unless the command line says otherwise: cudnnFind alone (the
// graph plans timed in every DP replica's fresh context) and a second communicator per DDP size with
// the timed CTA trials do not fit its time budget.
inline constexpr workloads::AlgoSearch kWholeJobConvSearch = workloads::AlgoSearch::find;
inline constexpr const char* kWholeJobCommCtas = "0";

// The options of `gpuscale train` (the phase reads its defaults where a command lacks them).
void add_train_options(cxxopts::Options& options);

// Defaults: the plan's initialisers, and where --quick or the backend (cpu) changes them the profile
// (Profile.hpp: models, precisions, steps, the cpu backend's small depth, width and batch, CTAs).
// whole_job (the training phase of the whole-job run, not `gpuscale train`): kWholeJob* above.
TrainPlan parse_train_plan(const cxxopts::ParseResult& options, bool quick, bool cpu, bool whole_job = false);

// 1, 2, 4, ... below world_size, then world_size.
std::vector<int> default_ddp_sizes(int world_size);

}  // namespace gpuscale::launch
