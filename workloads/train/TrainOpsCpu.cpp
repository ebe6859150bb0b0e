// The cpu twins of TrainKernels.cu: the same arithmetic in float, results rounded to the element type.
#include <vector>

#include "workloads/layers/HostConvert.hpp"
#include "workloads/train/TrainOps.hpp"

namespace gpuscale::workloads {
namespace {

using harness::DataType;

std::vector<double> load(const void* data, DataType type, std::size_t n) { return to_double(data, type, n); }
void store(const std::vector<double>& v, DataType type, void* data) { from_double(v.data(), v.size(), type, data, false); }

class CpuTrainOps final : public TrainOps {
 public:
  void relu_forward(void* data, DataType type, std::size_t n, harness::Stream&) override {
    auto v = load(data, type, n);
    for (auto& x : v) x = x > 0 ? x : 0;
    store(v, type, data);
  }
  void relu_backward(void* dy, const void* y, DataType type, std::size_t n, harness::Stream&) override {
    auto d = load(dy, type, n);
    const auto out = load(y, type, n);
    for (std::size_t i = 0; i < n; ++i)
      if (!(out[i] > 0)) d[i] = 0;
    store(d, type, dy);
  }
  void fill(void* data, DataType type, std::size_t n, float value, harness::Stream&) override {
    store(std::vector<double>(n, static_cast<double>(value)), type, data);
  }
  void mean(const void* data, DataType type, std::size_t n, float* loss, harness::Stream&) override {
    double sum = 0;
    for (double x : load(data, type, n)) sum += x;
    *loss = static_cast<float>(sum / static_cast<double>(n));
  }
  void join_forward(const void* y, std::size_t ny, void* x, std::size_t nx, std::size_t samples, DataType type,
                    harness::Stream&) override {
    const auto in = load(y, type, ny);
    const std::size_t ys = ny / samples, xs = nx / samples;
    std::vector<double> out(nx);
    for (std::size_t i = 0; i < nx; ++i) out[i] = in[(i / xs) * ys + (i % xs) % ys];
    store(out, type, x);
  }
  void join_backward(const void* dx, std::size_t nx, void* dy, std::size_t ny, std::size_t samples, DataType type,
                     harness::Stream&) override {
    const auto in = load(dx, type, nx);
    const std::size_t ys = ny / samples, xs = nx / samples;
    std::vector<double> out(ny, 0.0);
    for (std::size_t i = 0; i < ny; ++i) {
      const std::size_t s = i / ys, k = i % ys;
      float sum = 0;  // float, in the kernel's order
      for (std::size_t j = k; j < xs; j += ys) sum += static_cast<float>(in[s * xs + j]);
      out[i] = sum;
    }
    store(out, type, dy);
  }
  void sgd(float* w, const void* g, DataType grad_type, std::size_t n, float lr, void* copy, DataType copy_type,
           SgdGrid, harness::Stream&) override {
    const auto grad = load(g, grad_type, n);  // exact: every element type widens to double
    for (std::size_t i = 0; i < n; ++i) w[i] -= lr * static_cast<float>(grad[i]);
    if (!copy) return;
    std::vector<double> v(w, w + n);
    store(v, copy_type, copy);
  }
};

}  // namespace

std::unique_ptr<TrainOps> make_cpu_train_ops() { return std::make_unique<CpuTrainOps>(); }

std::unique_ptr<TrainOps> make_train_ops(harness::Backend& backend) {
  if (backend.kind() == harness::BackendKind::cpu) return make_cpu_train_ops();
  return make_cuda_train_ops();
}

}  // namespace gpuscale::workloads
