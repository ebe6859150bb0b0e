#pragma once
// DDP-style data parallelism (torch.nn.parallel.DistributedDataParallel), one rank per device, and
// the single-device baseline (no communicator). Parameters are broadcast from rank 0 once; every
// step runs forward and backward on the compute stream; as soon as backward has produced every
// gradient of a bucket, an event is recorded, the comm stream waits on it and allreduces (averages)
// the bucket, in launch order; the compute stream waits on each bucket's event and applies SGD to
// that bucket (or, without optimizer overlap, waits on all of them, then one SGD). SGD runs on every
// rank. Nothing in a step synchronises the host.
//
// Streams: compute_stream() for the model, comm_stream() for the allreduces. Collective: the
// constructor (broadcast) and every step that communicates must be called by every rank of `comm`.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/Backend.hpp"
#include "workloads/train/Network.hpp"

namespace gpuscale::workloads {

struct DdpOptions {
  bool overlap = true;                  // false: every allreduce after the whole backward, then SGD
  // SGD of each bucket as soon as its allreduce is done, while later buckets are still on the wire
  // (the same update, elementwise; torch's DDP optimizer-overlap hook). false: one SGD after all.
  bool overlap_optimizer = true;
  double first_bucket_mb = 1;           // MiB
  double bucket_mb = 25;                // MiB
  int accum = 1;                        // micro-steps per optimizer step; only the last communicates
  // bfloat16 / float16 on the wire. When it is the compute's storage type (bf16 with bf16, like torch's
  // autocast + bf16_compress_hook) and accum is 1, the weight-gradient GEMMs write the bucket in that
  // type and SGD reads it: no cast pass. Otherwise fp32 gradients are cast, allreduced, cast back.
  std::optional<harness::DataType> grad_type;
  harness::StreamPriority comm_priority = harness::StreamPriority::normal;
  // Buckets in the communicator's window memory (Communicator::allocate_window: NCCL's symmetric
  // kernels, no staging copies) where it has such memory; elsewhere, and when false, the backend's.
  bool comm_window = false;
  bool h2d = false;                     // copy the batch from pinned host memory every micro-step
  // SMs the backward GEMMs leave to the allreduces that overlap them (LayerSpec::backward_sm_margin);
  // applied only where buckets are allreduced during the backward (a communicator, overlap on).
  int sm_margin = 0;
  float lr = 0.01f;
};

// A bucket's allreduce, or a layer's pass, as device events: for trace spans.
struct TracedWork {
  std::string lane;  // "compute" | "comm"
  std::string name;
  std::unique_ptr<harness::Event> begin, end;
};

class DdpTrainer {
 public:
  // comm: nullptr for the single-device baseline. Micro-step k of this rank reads global samples
  // first_sample + k * micro_stride + [0, batch): with accum > 1 each micro-step has its own samples
  // (kept on the device, or in pinned host memory with h2d), so K micro-steps equal one K-times batch.
  // timeout_s bounds each wait of the trainer's own (setup, switching communicators, downloads): the
  // phase's timeout.
  DdpTrainer(ComputeContext& ctx, TrainOps& ops, const Model& model, std::int64_t batch, Precision precision,
             harness::Communicator* comm, const DdpOptions& options, std::uint64_t seed, std::int64_t first_sample,
             std::int64_t micro_stride, double timeout_s);
  ~DdpTrainer();

  // One optimizer step (accum micro-steps). communicate = false: no allreduce (compute-only timing).
  // trace: when not null, device events around every layer pass and bucket allreduce are appended.
  void step(bool communicate = true, std::vector<TracedWork>* trace = nullptr);
  // From the next step on, allreduce over `comm`: the same ranks in the same order, another
  // configuration (NCCL's CTA count). Every rank switches between the same steps. UsageError when
  // the buckets are window memory (registered with the first communicator) or there was none.
  void use_communicator(harness::Communicator* comm);
  // Only the bucket allreduces, on the comm stream (communication-only timing).
  void allreduce_only();
  // Backward-free check seam: one step without SGD (gradients as the optimizer would see them).
  void gradients_only();

  harness::Stream& compute_stream();
  harness::Stream& comm_stream();
  Network& network();
  const BucketPlan& buckets() const;
  bool communicates() const;  // false for the single-device baseline
  bool buckets_in_window() const;  // the allreduces read and write window memory
  // Blocks until both streams are idle (polls the communicator's errors); throws TimeoutError.
  void synchronize(const harness::Deadline& deadline);
  std::vector<float> download_gradients();
  std::vector<float> download_weights();  // the fp32 master weights

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The type the layers write weight gradients in: the wire type where it can come straight out of the
// GEMMs (see DdpOptions::grad_type; never for the single-device baseline, which does not
// communicate), else float32.
harness::DataType gradient_type(const DdpOptions& options, Precision precision, bool communicates);

// Bytes of one bucket cap in MiB (the option's unit).
std::size_t mib_to_bytes(double mib);

}  // namespace gpuscale::workloads
