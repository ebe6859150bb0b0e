#include "workloads/train/TrainVerification.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "harness/Communicator.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/Format.hpp"
#include "workloads/train/DpTrainer.hpp"

namespace gpuscale::workloads {

namespace ids = results::check_ids;
namespace {

using harness::DataType;

// Here and below, timeout_s bounds each wait (run_train_verification's).
std::vector<float> single_gradients(const VerificationSetup& s, std::int64_t batch, double timeout_s) {
  DdpTrainer t(*s.ctx, *s.ops, *s.model, batch, s.precision, nullptr, DdpOptions{}, s.seed, 0, batch, timeout_s);
  t.gradients_only();
  return t.download_gradients();
}

// This rank's DDP trainer over the check's communicator: its slice of the global batch.
std::unique_ptr<DdpTrainer> ddp_trainer(const VerificationSetup& s, const DdpOptions& options, double timeout_s) {
  const std::int64_t b = s.batch_per_rank;
  return std::make_unique<DdpTrainer>(*s.ctx, *s.ops, *s.model, b, s.precision, s.comm, options, s.seed,
                                      s.comm->rank() * b, s.comm->size() * b, timeout_s);
}

// The DDP options every check starts from: the run's bucket memory, the rest DDP's defaults.
DdpOptions base_options(const VerificationSetup& s) {
  DdpOptions options;
  options.comm_window = s.comm_window;
  return options;
}

// The gradients after one forward and backward with the allreduce, SGD not applied.
std::vector<float> gradients_of(DdpTrainer& t) {
  t.gradients_only();
  return t.download_gradients();
}

std::vector<float> ddp_gradients(const VerificationSetup& s, const DdpOptions& options, double timeout_s) {
  return gradients_of(*ddp_trainer(s, options, timeout_s));
}

// The learning rate of the trainers that sgd_check steps: an update well above the weights' rounding
// wherever the gradient allows. The gradients do not depend on it, so one trainer may serve a
// gradient check first and then the SGD check.
constexpr float kCheckLr = 1.0f;
DdpOptions with_check_lr(DdpOptions options) {
  options.lr = kCheckLr;
  return options;
}

// One full DDP step (SGD per bucket as its allreduce ends) must apply w - lr g with the averaged
// gradients to every element: a bucket updated before its allreduce finished, or never, breaks it.
// Exact up to float rounding: error = the fraction of elements further than two ulps from
// w_before - lr g (g: the gradients after the step, as the optimizer read them); tolerance 0.
// t: built with with_check_lr(...), its weights not yet updated (gradients_only() may have run).
results::TrainVerification sgd_check(const VerificationSetup& s, DdpTrainer& t, const std::string& name, const std::string& ranks) {
  const auto before = t.download_weights();
  t.step();
  const auto after = t.download_weights(), g = t.download_gradients();
  std::size_t off = 0;
  bool moved = false;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double expected = static_cast<double>(before[i]) - static_cast<double>(kCheckLr) * g[i];
    const double ulp = std::max(std::abs(expected), std::abs(static_cast<double>(before[i]))) * 0x1p-23 + 0x1p-140;
    if (!(std::abs(after[i] - expected) <= 2 * ulp)) ++off;
    moved = moved || after[i] != before[i];
  }
  double error = moved ? static_cast<double>(off) / static_cast<double>(std::max<std::size_t>(1, g.size())) : 1.0;
  error = s.max_over_ranks(error);
  return {name, s.config, error == 0, error, 0,
          ranks + ", SGD per bucket after its allreduce: share of weights off w - lr g"};
}

// Allreduce max and min of the gradients: both equal this rank's exactly iff every rank agrees.
bool bitwise_equal_everywhere(const VerificationSetup& s, const std::vector<float>& mine, double timeout_s) {
  auto& backend = s.ctx->backend();
  auto stream = backend.create_stream(harness::StreamPriority::normal);
  const std::size_t bytes = mine.size() * sizeof(float);
  auto hi = backend.allocate(bytes), lo = backend.allocate(bytes);
  s.ctx->upload(hi->data(), mine.data(), bytes, *stream);
  s.ctx->upload(lo->data(), mine.data(), bytes, *stream);
  s.comm->all_reduce(hi->data(), hi->data(), mine.size(), DataType::float32, harness::RedOp::max, *stream,
                     harness::Deadline::after(timeout_s));
  s.comm->all_reduce(lo->data(), lo->data(), mine.size(), DataType::float32, harness::RedOp::min, *stream,
                     harness::Deadline::after(timeout_s));
  s.comm->wait(*stream, harness::Deadline::after(timeout_s), "the gradient equality check");
  std::vector<float> h(mine.size()), l(mine.size());
  backend.download(h.data(), *hi, bytes, harness::Deadline::after(timeout_s));
  backend.download(l.data(), *lo, bytes, harness::Deadline::after(timeout_s));
  return std::memcmp(h.data(), mine.data(), bytes) == 0 && std::memcmp(l.data(), mine.data(), bytes) == 0;
}

results::TrainVerification compare(const VerificationSetup& s, std::string name, const std::vector<float>& got,
                            const std::vector<float>& ref, double tolerance, std::string detail, bool collective) {
  double error = relative_l2_error(got, ref);
  if (collective) error = s.max_over_ranks(error);
  return {std::move(name), s.config, error <= tolerance, error, tolerance, std::move(detail)};
}

}  // namespace

double relative_l2_error(const std::vector<float>& a, const std::vector<float>& ref) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size() && i < ref.size(); ++i) {
    const double d = static_cast<double>(a[i]) - ref[i];
    diff += d * d;
    norm += static_cast<double>(ref[i]) * ref[i];
  }
  if (!std::isfinite(diff) || a.size() != ref.size()) return 1e300;
  return norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

std::vector<results::TrainVerification> run_train_verification(const VerificationSetup& s, double timeout_s) {
  std::vector<results::TrainVerification> out;
  // Two configurations of one batch (split across ranks or micro-steps, or not) take different GEMM
  // and convolution algorithms, so their rounding differs layer by layer: the per-layer limit, grown
  // like a random walk over the 2L passes of forward and backward. Seen on 2 H200s (mlp, 8 layers):
  // bf16 ddp vs single 4.5e-2 (limit 8e-2), fp32 cnn accumulation 5.0e-5 with Winograd (limit 8e-5).
  // In fp16/bf16 the activations themselves are rounded per layer and the differences grow about
  // linearly with depth (bf16: mlp 4.5e-2 over 16 passes, resnet50 2.4e-1 over 108): limit x passes / 2,
  // capped at 0.5, which still fails an allreduce that forgets to average (error 1) or mixes buckets.
  const double passes = 2.0 * static_cast<double>(std::max<std::size_t>(1, s.model->layers.size()));
  const bool half = s.precision == Precision::fp16 || s.precision == Precision::bf16;
  const double tolerance = half ? std::min(0.5, relative_error_limit(s.precision) * passes / 2)
                                : 2 * relative_error_limit(s.precision) * std::sqrt(passes);
  const std::int64_t n = s.comm->size(), b = s.batch_per_rank;
  const std::string ranks = results::plural(n, "rank") + " x " + results::plural(b, "sample");

  const auto reference = single_gradients(s, n * b, timeout_s);
  auto ddp = ddp_gradients(s, base_options(s), timeout_s);
  if (s.corrupt_for_test && !ddp.empty()) ddp.front() += 1.0f;
  const bool equal = bitwise_equal_everywhere(s, ddp, timeout_s);
  const double differing = s.max_over_ranks(equal ? 0.0 : 1.0);
  out.push_back({ids::kDdpGradientsBitwiseEqual, s.config, differing == 0, differing, 0, ranks});
  out.push_back(compare(s, ids::kDdpMatchesSingle, ddp, reference, tolerance, ranks + " vs 1 device", true));
  if (s.essential_only) return out;
  // A trainer of its own: kept from ddp_gradients, its replica would sit beside the equality check's
  // buffers.
  out.push_back(
      sgd_check(s, *ddp_trainer(s, with_check_lr(base_options(s)), timeout_s), ids::kDdpStepUpdatesEveryBucket, ranks));

  DdpOptions accum = base_options(s);
  accum.accum = std::max(2, s.accum);
  const auto accumulated = ddp_gradients(s, accum, timeout_s);
  const auto big = single_gradients(s, accum.accum * n * b, timeout_s);
  out.push_back(compare(s, ids::kDdpAccumMatchesBatch, accumulated, big, tolerance,
                        std::to_string(accum.accum) + " micro-steps vs one " + std::to_string(accum.accum) +
                            "x batch", true));

  {  // its trainer freed before DP builds replicas of its own
    DdpOptions compressed = base_options(s);
    compressed.grad_type = s.compressed;
    const auto compressed_trainer = ddp_trainer(s, with_check_lr(compressed), timeout_s);
    const auto squeezed = gradients_of(*compressed_trainer);
    out.push_back(compare(s, ids::kDdpCompressedGradients, squeezed, ddp, std::max(tolerance, 2e-2),
                          std::string(harness::to_string(s.compressed)) + " allreduce vs fp32", true));
    // With the compute's own type on the wire the GEMMs write the buckets and SGD reads them as they
    // are: the update must still reach every bucket.
    out.push_back(sgd_check(s, *compressed_trainer, ids::kDdpCompressedStepUpdatesEveryBucket, ranks));
  }

  if (!s.dp_devices.empty()) {
    const auto g = static_cast<std::int64_t>(s.dp_devices.size());
    std::vector<float> dp;
    {
      DpTrainer t(s.dp_devices, s.tuning, *s.model, g * b, s.precision, DpOptions{}, s.seed, timeout_s);
      t.step();
      dp = t.download_gradients();
    }
    s.ctx->backend().make_current();
    const auto dp_reference = g == n ? reference : single_gradients(s, g * b, timeout_s);
    out.push_back(compare(s, ids::kDpMatchesSingle, dp, dp_reference, tolerance,
                          results::plural(g, "device") + " x " + results::plural(b, "sample") + " vs 1 device", false));
  }
  return out;
}

}  // namespace gpuscale::workloads
