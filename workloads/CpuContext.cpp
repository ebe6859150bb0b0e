#include "workloads/CpuContext.hpp"

#include <cstring>
#include <utility>
#include <vector>

#include "workloads/CpuReference.hpp"
#include "workloads/HostConvert.hpp"
#include "workloads/RandomValue.hpp"

namespace gpuscale::workloads {
namespace {

std::size_t count(std::int64_t elements) { return static_cast<std::size_t>(elements); }

// Both layer kinds: convert the inputs to double, run the reference, convert the output back.
class CpuLayer final : public Layer {
 public:
  explicit CpuLayer(LayerSpec spec) : spec_(std::move(spec)) {}
  const LayerSpec& spec() const noexcept override { return spec_; }
  AlgorithmChoice algorithm(Pass) const override {
    return {std::holds_alternative<LinearShape>(spec_.shape) ? "cpu dgemm" : "cpu im2col+dgemm", 0};
  }

  void forward(const void* x, const void* w, void* y, harness::Stream&) override {
    const auto xd = inputs(x, input_elements(spec_.shape)), wd = inputs(w, weight_elements(spec_.shape));
    std::vector<double> yd(count(output_elements(spec_.shape)));
    if (const auto* l = linear()) {
      reference::linear_forward(*l, xd.data(), wd.data(), yd.data());
    } else {
      reference::conv2d_forward(conv(), xd.data(), wd.data(), yd.data());
    }
    from_double(yd.data(), yd.size(), output_type(spec_), y, false);
  }

  void backward_data(const void* dy, const void* w, void* dx, harness::Stream&) override {
    const auto dyd = inputs(dy, output_elements(spec_.shape)), wd = inputs(w, weight_elements(spec_.shape));
    std::vector<double> dxd(count(input_elements(spec_.shape)));
    if (const auto* l = linear()) {
      reference::linear_backward_data(*l, dyd.data(), wd.data(), dxd.data());
    } else {
      reference::conv2d_backward_data(conv(), dyd.data(), wd.data(), dxd.data());
    }
    from_double(dxd.data(), dxd.size(), output_type(spec_), dx, false);
  }

  void backward_weight(const void* dy, const void* x, void* dw, Accumulate mode, harness::Stream&) override {
    const auto dyd = inputs(dy, output_elements(spec_.shape)), xd = inputs(x, input_elements(spec_.shape));
    std::vector<double> dwd(count(weight_elements(spec_.shape)));
    if (const auto* l = linear()) {
      reference::linear_backward_weight(*l, dyd.data(), xd.data(), dwd.data());
    } else {
      reference::conv2d_backward_weight(conv(), dyd.data(), xd.data(), dwd.data());
    }
    from_double(dwd.data(), dwd.size(), weight_grad_type(spec_), dw, mode == Accumulate::add);
  }

 private:
  std::vector<double> inputs(const void* data, std::int64_t elements) const {
    return to_double(data, input_type(spec_), count(elements));
  }
  const LinearShape* linear() const { return std::get_if<LinearShape>(&spec_.shape); }
  const Conv2dShape& conv() const { return std::get<Conv2dShape>(spec_.shape); }

  LayerSpec spec_;
};

class CpuContext final : public ComputeContext {
 public:
  explicit CpuContext(harness::Backend& backend) : backend_(backend) {}
  harness::Backend& backend() noexcept override { return backend_; }

  std::unique_ptr<Layer> create_layer(const LayerSpec& spec) override {
    validate(spec);
    return std::make_unique<CpuLayer>(spec);
  }

  void fill_uniform(void* data, harness::DataType type, std::size_t n, std::uint64_t seed, float scale,
                    harness::Stream&) override {
    std::vector<double> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = uniform_value(seed, i, scale);
    from_double(values.data(), n, type, data, false);
  }

  void upload(void* dst, const void* src, std::size_t bytes, harness::Stream&) override { std::memcpy(dst, src, bytes); }

  void poison(void* data, std::size_t bytes, harness::Stream&) override { std::memset(data, 0xff, bytes); }

  void convert(const void* src, harness::DataType src_type, void* dst, harness::DataType dst_type, std::size_t n,
               Accumulate mode, harness::Stream&) override {
    const auto values = to_double(src, src_type, n);
    from_double(values.data(), n, dst_type, dst, mode == Accumulate::add);
  }

  std::size_t workspace_bytes() const noexcept override { return 0; }

 private:
  harness::Backend& backend_;
};

}  // namespace

std::unique_ptr<ComputeContext> make_cpu_context(harness::Backend& backend) {
  return std::make_unique<CpuContext>(backend);
}

}  // namespace gpuscale::workloads
