#pragma once
// The elementwise work of a training step, beside the layers: ReLU, the loss and its gradient, the
// joins between layers whose sizes differ (Model.hpp), and the fused SGD update. cuda: kernels in
// TrainKernels.cu; cpu: host loops with the same arithmetic (float, round to nearest even), the
// twins that CI checks. Element types: float32, float16, bfloat16. Every call only enqueues work on
// `stream`. Local: no communication.
#include <cstddef>
#include <memory>

#include "harness/Backend.hpp"
#include "harness/DataType.hpp"

namespace gpuscale::workloads {

// How wide an update's grid is: full (enough blocks to cover the elements; the fastest alone), or
// narrow (four blocks per SM, for an update that runs while allreduces are in flight: NCCL's CTAs keep
// their SM slots and more of the memory bandwidth). Four per SM: one per SM slows the update itself,
// while at four the whole-model update alone is as fast as at full width.
enum class SgdGrid { full, narrow };

class TrainOps {
 public:
  virtual ~TrainOps() = default;
  // data[i] = max(data[i], 0), in place.
  virtual void relu_forward(void* data, harness::DataType type, std::size_t count, harness::Stream& stream) = 0;
  // dy[i] = y[i] > 0 ? dy[i] : 0, where y is ReLU's output.
  virtual void relu_backward(void* dy, const void* y, harness::DataType type, std::size_t count,
                             harness::Stream& stream) = 0;
  virtual void fill(void* data, harness::DataType type, std::size_t count, float value, harness::Stream& stream) = 0;
  // *loss (one float in device memory) = mean of data.
  virtual void mean(const void* data, harness::DataType type, std::size_t count, float* loss,
                    harness::Stream& stream) = 0;
  // Per sample s of `samples` (each tensor holds them one after another, y_count / samples and
  // x_count / samples elements each): x_s[j] = y_s[j mod |y_s|].
  virtual void join_forward(const void* y, std::size_t y_count, void* x, std::size_t x_count, std::size_t samples,
                            harness::DataType type, harness::Stream& stream) = 0;
  // Per sample: dy_s[k] = sum over j = k (mod |y_s|), j < |x_s|, of dx_s[j]; 0 where no j exists.
  virtual void join_backward(const void* dx, std::size_t x_count, void* dy, std::size_t y_count, std::size_t samples,
                             harness::DataType type, harness::Stream& stream) = 0;
  // w[i] -= lr * g[i] (float32 master weights; gradients in grad_type: float32, or the half type
  // they were averaged in), then, when `copy` is not null, copy[i] = w[i] rounded to copy_type (the
  // half-precision weights of the next step).
  virtual void sgd(float* w, const void* g, harness::DataType grad_type, std::size_t count, float lr, void* copy,
                   harness::DataType copy_type, SgdGrid grid, harness::Stream& stream) = 0;
};

// cpu or cuda by backend.kind(); the device must be current.
std::unique_ptr<TrainOps> make_train_ops(harness::Backend& backend);
// The cuda implementation: TrainOpsCuda.cpp where CUDA is built, a throwing stub elsewhere.
std::unique_ptr<TrainOps> make_cuda_train_ops();
std::unique_ptr<TrainOps> make_cpu_train_ops();

}  // namespace gpuscale::workloads
