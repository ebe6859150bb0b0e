#include "workloads/layers/CpuContext.hpp"

#include <cstring>
#include <utility>
#include <vector>

#include "workloads/layers/CpuReference.hpp"
#include "workloads/layers/HostConvert.hpp"
#include "workloads/layers/RandomValue.hpp"

namespace gpuscale::workloads {
namespace {

std::size_t element_count(std::int64_t elements) { return static_cast<std::size_t>(elements); }

// Both layer kinds: convert the inputs to double, run the reference, convert the output back.
class CpuLayer final : public Layer {
 public:
  explicit CpuLayer(LayerSpec spec) : spec_(std::move(spec)) {}
  const LayerSpec& spec() const noexcept override { return spec_; }
  AlgorithmChoice algorithm(Pass) const override {
    return {std::visit(Overloaded{[](const LinearShape&) { return "cpu dgemm"; },
                                  [](const Conv2dShape&) { return "cpu im2col+dgemm"; }},
                       spec_.shape),
            0};
  }

  void forward(const void* x, const void* w, void* y, harness::Stream&) override {
    run(Pass::forward, x, input_elements(spec_.shape), w, weight_elements(spec_.shape), y,
        output_elements(spec_.shape), output_type(spec_), false);
  }

  void backward_data(const void* dy, const void* w, void* dx, harness::Stream&) override {
    run(Pass::backward_data, dy, output_elements(spec_.shape), w, weight_elements(spec_.shape), dx,
        input_elements(spec_.shape), output_type(spec_), false);
  }

  void backward_weight(const void* dy, const void* x, void* dw, Accumulate mode, harness::Stream&) override {
    run(Pass::backward_weight, dy, output_elements(spec_.shape), x, input_elements(spec_.shape), dw,
        weight_elements(spec_.shape), weight_grad_type(spec_), mode == Accumulate::add);
  }

 private:
  // Inputs to double, the reference pass, the output back to its type.
  void run(Pass pass, const void* a, std::int64_t a_elements, const void* b, std::int64_t b_elements, void* out,
           std::int64_t out_elements, harness::DataType out_type, bool add) const {
    const auto ad = to_double(a, input_type(spec_), element_count(a_elements));
    const auto bd = to_double(b, input_type(spec_), element_count(b_elements));
    std::vector<double> result(element_count(out_elements));
    reference::run(pass, spec_.shape, ad.data(), bd.data(), result.data());
    from_double(result.data(), result.size(), out_type, out, add);
  }

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

  void upload(void* dst, const void* src, std::size_t bytes, harness::Stream&) override {
    std::memcpy(dst, src, bytes);
  }

  void poison(void* data, std::size_t bytes, harness::Stream&) override { std::memset(data, 0xff, bytes); }

  void convert(const void* src, harness::DataType src_type, void* dst, harness::DataType dst_type, std::size_t n,
               Accumulate mode, harness::Stream&) override {
    const auto values = to_double(src, src_type, n);
    from_double(values.data(), n, dst_type, dst, mode == Accumulate::add);
  }

  std::size_t workspace_bytes() const noexcept override { return 0; }
  void shrink_workspace(std::size_t) override {}

 private:
  harness::Backend& backend_;
};

}  // namespace

std::unique_ptr<ComputeContext> make_cpu_context(harness::Backend& backend) {
  return std::make_unique<CpuContext>(backend);
}

}  // namespace gpuscale::workloads
