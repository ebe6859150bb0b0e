#include "workloads/layers/Layer.hpp"

#include <string>

#include "harness/Error.hpp"

namespace gpuscale::workloads {
namespace {

void require(const harness::Buffer& buffer, std::size_t bytes, const char* what) {
  if (buffer.bytes() < bytes)
    throw harness::RuntimeError(harness::error_location() + " " + what + " buffer holds " +
                                std::to_string(buffer.bytes()) + " bytes; the layer needs " + std::to_string(bytes));
}

std::size_t bytes_of(std::int64_t elements, harness::DataType type) {
  return static_cast<std::size_t>(elements) * harness::size_of(type);
}

}  // namespace

std::string_view to_string(Pass pass) {
  switch (pass) {
    case Pass::forward:
      return "fwd";
    case Pass::backward_data:
      return "bwd_data";
    case Pass::backward_weight:
      return "bwd_weight";
  }
  return "?";
}

harness::DataType input_type(const LayerSpec& spec) { return storage_type(spec.precision); }
harness::DataType output_type(const LayerSpec& spec) { return spec.output_type.value_or(input_type(spec)); }
harness::DataType weight_grad_type(const LayerSpec& spec) { return spec.weight_grad_type.value_or(input_type(spec)); }

std::size_t x_bytes(const LayerSpec& s) { return bytes_of(input_elements(s.shape), input_type(s)); }
std::size_t w_bytes(const LayerSpec& s) { return bytes_of(weight_elements(s.shape), input_type(s)); }
std::size_t y_bytes(const LayerSpec& s) { return bytes_of(output_elements(s.shape), output_type(s)); }
std::size_t dy_bytes(const LayerSpec& s) { return bytes_of(output_elements(s.shape), input_type(s)); }
std::size_t dx_bytes(const LayerSpec& s) { return bytes_of(input_elements(s.shape), output_type(s)); }
std::size_t dw_bytes(const LayerSpec& s) { return bytes_of(weight_elements(s.shape), weight_grad_type(s)); }

void Layer::forward(const harness::Buffer& x, const harness::Buffer& w, harness::Buffer& y, harness::Stream& stream) {
  require(x, x_bytes(spec()), "X");
  require(w, w_bytes(spec()), "W");
  require(y, y_bytes(spec()), "Y");
  forward(x.data(), w.data(), y.data(), stream);
}

void Layer::backward_data(const harness::Buffer& dy, const harness::Buffer& w, harness::Buffer& dx,
                          harness::Stream& stream) {
  require(dy, dy_bytes(spec()), "dY");
  require(w, w_bytes(spec()), "W");
  require(dx, dx_bytes(spec()), "dX");
  backward_data(dy.data(), w.data(), dx.data(), stream);
}

void Layer::backward_weight(const harness::Buffer& dy, const harness::Buffer& x, harness::Buffer& dw, Accumulate mode,
                            harness::Stream& stream) {
  require(dy, dy_bytes(spec()), "dY");
  require(x, x_bytes(spec()), "X");
  require(dw, dw_bytes(spec()), "dW");
  backward_weight(dy.data(), x.data(), dw.data(), mode, stream);
}

std::string_view to_string(AlgoSearch search) {
  switch (search) {
    case AlgoSearch::heuristic: return "heuristic";
    case AlgoSearch::find: return "find";
    case AlgoSearch::graph: return "graph";
    case AlgoSearch::exhaustive: return "exhaustive";
  }
  return "?";
}

AlgoSearch parse_algo_search(std::string_view text) {
  for (AlgoSearch s : {AlgoSearch::heuristic, AlgoSearch::find, AlgoSearch::graph, AlgoSearch::exhaustive})
    if (text == to_string(s)) return s;
  throw harness::UsageError("--cudnn-algo must be heuristic, find, graph or exhaustive, not '" + std::string(text) +
                            "'");
}

MatmulPath parse_matmul_path(std::string_view text) {
  for (MatmulPath p : {MatmulPath::fastest, MatmulPath::lt, MatmulPath::gemmex})
    if (text == to_string(p)) return p;
  throw harness::UsageError("--matmul-path must be fastest, lt or gemmex, not '" + std::string(text) + "'");
}

std::string_view to_string(MatmulPath path) {
  switch (path) {
    case MatmulPath::lt:
      return "lt";
    case MatmulPath::gemmex:
      return "gemmex";
    case MatmulPath::fastest:
      break;
  }
  return "fastest";
}

void validate(const LayerSpec& spec) {
  for (const auto type : {output_type(spec), weight_grad_type(spec)}) {
    if (type != harness::DataType::float32 && type != input_type(spec))
      throw harness::UsageError(std::string(layer_kind(spec.shape)) + " " + describe(spec.shape) + " " +
                                std::string(to_string(spec.precision)) + ": outputs are " +
                                std::string(harness::to_string(input_type(spec))) + " or float, not " +
                                std::string(harness::to_string(type)));
  }
  validate(spec.shape);
}

}  // namespace gpuscale::workloads
