#include "workloads/layers/CudaContext.hpp"

#include <cuda_runtime.h>

#include "harness/LibraryCall.hpp"
#include "workloads/layers/DeviceKernels.hpp"
#include "workloads/layers/LayerFactory.hpp"

namespace gpuscale::workloads {
namespace {

cudaStream_t native(harness::Stream& stream) { return static_cast<cudaStream_t>(stream.native()); }

class CudaContext final : public ComputeContext {
 public:
  CudaContext(harness::Backend& backend, harness::Stream& stream, const TuningOptions& tuning, double wait_s)
      : workspace_(backend), env_{backend, stream, workspace_, tuning, wait_s} {
    linear_ = make_cublaslt_factory(env_);
    conv_ = make_cudnn_factory(env_);
  }
  harness::Backend& backend() noexcept override { return env_.backend; }

  std::unique_ptr<Layer> create_layer(const LayerSpec& spec) override {
    validate(spec);
    return std::visit(Overloaded{[&](const LinearShape&) { return linear_->create(spec); },
                                 [&](const Conv2dShape&) { return conv_->create(spec); }},
                      spec.shape);
  }

  void fill_uniform(void* data, harness::DataType type, std::size_t count, std::uint64_t seed, float scale,
                    harness::Stream& stream) override {
    kernels::fill_uniform(data, type, count, seed, scale, stream.native());
  }

  void upload(void* dst, const void* src, std::size_t bytes, harness::Stream& stream) override {
    GPUSCALE_CUDA_OK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, native(stream)));
  }

  void hold(harness::Stream& stream, double seconds) override { kernels::hold(seconds, stream.native()); }

  void poison(void* data, std::size_t bytes, harness::Stream& stream) override {
    GPUSCALE_CUDA_OK(cudaMemsetAsync(data, 0xff, bytes, native(stream)));
  }

  void convert(const void* src, harness::DataType src_type, void* dst, harness::DataType dst_type, std::size_t count,
               Accumulate mode, harness::Stream& stream) override {
    kernels::convert(src, src_type, dst, dst_type, count, mode == Accumulate::add, stream.native());
  }

  std::size_t workspace_bytes() const noexcept override { return workspace_.bytes(); }
  void shrink_workspace(std::size_t bytes) override { workspace_.shrink_to(bytes); }

 private:
  Workspace workspace_;
  DeviceEnv env_;
  std::unique_ptr<LayerFactory> linear_, conv_;
};

std::unique_ptr<harness::Buffer> random_buffer(harness::Backend& backend, harness::Stream& stream, std::size_t bytes,
                                               harness::DataType type, std::uint64_t seed) {
  auto buffer = backend.allocate(bytes);
  kernels::fill_uniform(buffer->data(), type, bytes / harness::size_of(type), seed, 1.0f, stream.native());
  return buffer;
}

std::unique_ptr<harness::Buffer> poisoned_buffer(harness::Backend& backend, harness::Stream& stream,
                                                 std::size_t bytes) {
  auto buffer = backend.allocate(bytes);
  GPUSCALE_CUDA_OK(cudaMemsetAsync(buffer->data(), 0xff, bytes, native(stream)));
  return buffer;
}

}  // namespace

ScratchTensors make_scratch(harness::Backend& backend, harness::Stream& stream, const LayerSpec& spec) {
  // Tuning on zeros would flatter algorithms (and clocks): inputs are random, outputs poisoned.
  ScratchTensors t;
  t.x = random_buffer(backend, stream, x_bytes(spec), input_type(spec), 101);
  t.w = random_buffer(backend, stream, w_bytes(spec), input_type(spec), 102);
  t.dy = random_buffer(backend, stream, dy_bytes(spec), input_type(spec), 103);
  t.y = poisoned_buffer(backend, stream, y_bytes(spec));
  t.dx = poisoned_buffer(backend, stream, dx_bytes(spec));
  t.dw = poisoned_buffer(backend, stream, dw_bytes(spec));
  return t;
}

std::unique_ptr<ComputeContext> make_cuda_context(harness::Backend& backend, harness::Stream& stream,
                                                  const TuningOptions& tuning, double wait_s) {
  return std::make_unique<CudaContext>(backend, stream, tuning, wait_s);
}

}  // namespace gpuscale::workloads
