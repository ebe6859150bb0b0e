#pragma once
// Correctness of the training algorithms, run before timing on a small batch (the timed model's
// layers, batch_per_rank samples per rank). Each verification compares gradients after one step
// (its name is the check id raised when it fails):
//   ddp-gradients-bitwise-equal  every rank's averaged gradients are bitwise equal (allreduce max and
//                                min of them equal this rank's)
//   ddp-matches-single           DDP over the world = one device on the same global batch
//   ddp-accum-matches-batch      K micro-steps (K = max(accum, 2)) = one K-times batch on one device
//   ddp-compressed-gradients     bf16 (or --grad-dtype) allreduce within its precision of fp32
//   dp-matches-single            DP over rank 0's devices = one device on the same global batch
// Tolerance: relative L2 error <= 2 x relative_error_limit(precision) (fp32 2e-5, tf32 4e-3,
// fp16/bf16 2e-2); compressed gradients 2e-2. Collective over `comm` (dp: rank 0 only).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/Deadline.hpp"
#include "phases/train/TrainRecord.hpp"
#include "workloads/train/DdpTrainer.hpp"

namespace gpuscale::workloads {

// Not owning: everything pointed to outlives the verification.
struct VerificationSetup {
  ComputeContext* ctx = nullptr;
  TrainOps* ops = nullptr;
  harness::Communicator* comm = nullptr;  // every rank of the job
  const Model* model = nullptr;
  Precision precision = Precision::fp32;
  std::int64_t batch_per_rank = 2;
  int accum = 2;
  harness::DataType compressed = harness::DataType::bfloat16;
  std::uint64_t seed = 1;
  std::string config;                                 // "mlp fp32"
  std::function<double(double)> max_over_ranks;       // collective over the job
  std::vector<harness::Backend*> dp_devices;          // rank 0: DP's devices; empty: no DP verification
  TuningOptions tuning;
  bool corrupt_for_test = false;  // test seam: this rank's DDP gradients are perturbed before comparing
  bool essential_only = false;    // --quick: DDP bitwise equality and DDP vs single only
  bool comm_window = false;       // DDP trainers' buckets in the communicator's window memory
};

// timeout_s bounds each wait (the caller's: launch's phase --timeout).
std::vector<results::TrainVerification> run_train_verification(const VerificationSetup& setup, double timeout_s);

// ||a - ref||_2 / ||ref||_2; 1e300 when a holds NaN or Inf (JSON has no NaN).
double relative_l2_error(const std::vector<float>& a, const std::vector<float>& ref);

}  // namespace gpuscale::workloads
