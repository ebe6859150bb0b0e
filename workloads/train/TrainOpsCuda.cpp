#include "workloads/train/TrainKernels.hpp"
#include "workloads/train/TrainOps.hpp"

namespace gpuscale::workloads {
namespace {

using harness::DataType;

class CudaTrainOps final : public TrainOps {
 public:
  void relu_forward(void* data, DataType type, std::size_t n, harness::Stream& s) override {
    kernels::relu_forward(data, type, n, s.native());
  }
  void relu_backward(void* dy, const void* y, DataType type, std::size_t n, harness::Stream& s) override {
    kernels::relu_backward(dy, y, type, n, s.native());
  }
  void fill(void* data, DataType type, std::size_t n, float value, harness::Stream& s) override {
    kernels::fill(data, type, n, value, s.native());
  }
  void mean(const void* data, DataType type, std::size_t n, float* loss, harness::Stream& s) override {
    kernels::mean(data, type, n, loss, s.native());
  }
  void join_forward(const void* y, std::size_t ny, void* x, std::size_t nx, std::size_t samples, DataType type,
                    harness::Stream& s) override {
    kernels::join_forward(y, ny, x, nx, samples, type, s.native());
  }
  void join_backward(const void* dx, std::size_t nx, void* dy, std::size_t ny, std::size_t samples, DataType type,
                     harness::Stream& s) override {
    kernels::join_backward(dx, nx, dy, ny, samples, type, s.native());
  }
  void sgd(float* w, const void* g, DataType grad_type, std::size_t n, float lr, void* copy, DataType copy_type,
           SgdGrid grid, harness::Stream& s) override {
    kernels::sgd(w, g, grad_type, n, lr, copy, copy_type, grid == SgdGrid::narrow, s.native());
  }
};

}  // namespace

std::unique_ptr<TrainOps> make_cuda_train_ops() { return std::make_unique<CudaTrainOps>(); }

}  // namespace gpuscale::workloads
