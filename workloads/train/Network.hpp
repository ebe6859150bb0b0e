#pragma once
// One device's replica of a model: its layers, fp32 master weights and gradients, the weights in the
// compute precision, activations and the buffers of backward. Every pass is enqueued on the stream
// given; nothing here synchronises or communicates.
//
// Parameters live in flat buffers laid out by a BucketPlan (reverse layer order, bucket after
// bucket), each layer's slice padded to 8 elements so every slice is 16-byte aligned: the
// gradients are views into DDP's buckets, and one fused kernel updates every weight.
// Activations are in storage_type(precision) (like autocast); weight gradients come out of the
// layers straight into the flat buffer, in float32 by default, or in the storage type when the
// caller asks (DDP with --grad-dtype equal to it: the GEMM's epilogue rounds, as autocast's does, and
// the bucket goes on the wire with no cast pass).
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "workloads/layers/Layer.hpp"
#include "workloads/train/Buckets.hpp"
#include "workloads/train/Model.hpp"
#include "workloads/train/TrainOps.hpp"

namespace gpuscale::workloads {

// Called around each layer's work (trace spans); empty functions are skipped.
struct LayerHooks {
  std::function<void(int layer, Pass pass)> before, after;
};

// Allocates `bytes` of device memory for one of Network's buffers (DDP's gradient buckets in the
// communicator's window memory, Communicator::allocate_window).
using BufferAllocator = std::function<std::unique_ptr<harness::Buffer>(std::size_t bytes)>;

// Padded parameter counts per layer, in layer order: what BucketPlan and Network agree on.
std::vector<std::size_t> padded_layer_elements(const Model& model);

class Network {
 public:
  // The device of ctx must be current. Allocates everything now (harness::OutOfMemoryError).
  // grad_type: float32, or storage_type(precision) (UsageError otherwise). allocate_grads: where the
  // flat gradient buffer comes from (empty: the backend). backward_sm_margin: LayerSpec's, every layer.
  Network(ComputeContext& ctx, TrainOps& ops, const Model& model, std::int64_t batch, Precision precision,
          const BucketPlan& layout, harness::DataType grad_type = harness::DataType::float32,
          const BufferAllocator& allocate_grads = {}, int backward_sm_margin = 0);
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  // Weights uniform in +-1/sqrt(fan_in) from `seed` (the same on every device), gradients zero.
  void init_parameters(std::uint64_t seed, harness::Stream& stream);
  // Sample s of this batch is global sample first_sample + s: any split of a global batch over
  // devices sees the same samples.
  void fill_input(std::uint64_t seed, std::int64_t first_sample, harness::Stream& stream);
  // The same into `dst` (input_bytes() of device memory): another micro-batch, kept aside.
  void fill_samples(void* dst, std::uint64_t seed, std::int64_t first_sample, harness::Stream& stream);
  // Master weights -> compute copy (no-op for fp32 and tf32).
  void cast_weights(harness::Stream& stream);

  void forward(harness::Stream& stream, const LayerHooks& hooks = {});
  // dY of the last layer = value everywhere (the gradient of a mean, scaled for accumulation).
  void fill_grad_output(float value, harness::Stream& stream);
  // Backward from grad_output(); after each layer's weight gradient, grad_ready(layer).
  void backward(Accumulate mode, harness::Stream& stream, const std::function<void(int)>& grad_ready = {},
                const LayerHooks& hooks = {});
  // w -= lr g over every parameter, refreshing the compute copy in the same kernel; or over the
  // flat elements [first, first + count) only (one bucket: SGD is elementwise), on a narrow grid
  // when allreduces may be running beside it (TrainOps.hpp, SgdGrid).
  void sgd(float lr, harness::Stream& stream);
  void sgd(float lr, harness::Stream& stream, std::size_t first, std::size_t count, SgdGrid grid = SgdGrid::full);
  void loss(harness::Stream& stream);  // *loss_value() = mean of output()

  float* weights();
  void* grads();  // parameter_elements() of grad_type()
  harness::DataType grad_type() const;
  std::size_t parameter_elements() const;  // padded, = layout.total_elements
  void* input();
  std::size_t input_bytes() const;
  void* output();
  std::size_t output_elements() const;
  void* grad_output();  // dY of the last layer, output_elements() of activation_type()
  harness::DataType activation_type() const;
  float* loss_value();
  const BucketPlan& layout() const;
  std::int64_t batch() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuscale::workloads
