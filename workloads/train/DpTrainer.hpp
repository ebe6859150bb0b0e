#pragma once
// DP-style data parallelism (torch.nn.DataParallel): one process drives every device, one stream
// each. Every step: broadcast the fp32 parameters from device 0 in chunks of whole layers up to
// 10 MiB (as broadcast_coalesced: a larger layer goes alone, never split) and cast them to the
// compute precision on each replica, scatter the global batch along dim 0, forward on every device,
// gather the outputs to device 0, loss there, scatter the gradient of the outputs back, backward on
// every device, reduce the gradients to device 0 (no overlap), SGD on device 0 only. Nothing in a
// step synchronises the host. Local: communicates only among this process's devices.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "harness/Backend.hpp"
#include "workloads/train/Network.hpp"

namespace gpuscale::workloads {

// Device-0 events at the phase boundaries of one step, for the time in each phase.
struct DpStepEvents {
  enum Mark { start, broadcast, scatter, forward, gather, grad_scatter, backward, reduce, end, count };
  std::array<std::unique_ptr<harness::Event>, count> marks;
};

struct DpOptions {
  std::size_t broadcast_chunk_bytes = std::size_t{10} << 20;  // torch's broadcast_coalesced buffer
  bool h2d = false;
  float lr = 0.01f;
};

class DpTrainer {
 public:
  // devices: one backend per device (device 0 first); global_batch divisible by their count.
  // timeout_s bounds each wait of the trainer's own (setup, its communicators' operations, downloads):
  // the phase's timeout.
  DpTrainer(std::vector<harness::Backend*> devices, const TuningOptions& tuning, const Model& model,
            std::int64_t global_batch, Precision precision, const DpOptions& options, std::uint64_t seed,
            double timeout_s);
  ~DpTrainer();

  void step(DpStepEvents* events = nullptr);
  DpStepEvents make_events();
  harness::Backend& backend(std::size_t device);
  void synchronize(const harness::Deadline& deadline);
  // Device 0's gradients after the last step's reduce (the sum over replicas).
  std::vector<float> download_gradients();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuscale::workloads
