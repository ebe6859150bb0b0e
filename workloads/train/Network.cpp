#include "workloads/train/Network.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "harness/Error.hpp"

namespace gpuscale::workloads {
namespace {

constexpr std::size_t kAlignElements = 8;

std::size_t elements(std::int64_t n) { return static_cast<std::size_t>(n); }

std::size_t fan_in(const LayerShape& shape) {
  return std::visit(Overloaded{[](const LinearShape& l) { return elements(l.k); },
                               [](const Conv2dShape& c) { return elements(c.c * c.r * c.s); }},
                    shape);
}

// Mixes the seed and a sample index into the seed of that sample's values.
std::uint64_t sample_seed(std::uint64_t seed, std::int64_t sample) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(sample) + 0x632BE59BD9B4E019ull;
  x ^= x >> 31;
  return x * 0xBF58476D1CE4E5B9ull;
}

}  // namespace

std::vector<std::size_t> padded_layer_elements(const Model& model) {
  std::vector<std::size_t> out;
  for (const auto& l : model.layers)
    out.push_back((elements(weight_elements(l.shape)) + kAlignElements - 1) / kAlignElements * kAlignElements);
  return out;
}

struct Network::Impl {
  Impl(ComputeContext& c, TrainOps& o, const Model& model, std::int64_t b, Precision p, const BucketPlan& plan,
       harness::DataType g)
      : ctx(c), ops(o), backend(c.backend()), precision(p), act(storage_type(p)), grad_type(g), batch(b),
        layout(plan), shapes(shapes_at(model, b)) {
    if (g != harness::DataType::float32 && g != act)
      throw harness::UsageError("gradients in " + std::string(harness::to_string(g)) + " need " +
                                std::string(harness::to_string(g)) +
                                " compute (they come out of the layers in its type)");
  }

  ComputeContext& ctx;
  TrainOps& ops;
  harness::Backend& backend;
  Precision precision;
  harness::DataType act, grad_type;
  std::int64_t batch;
  BucketPlan layout;
  std::vector<LayerShape> shapes;
  std::vector<std::unique_ptr<Layer>> layers;
  std::unique_ptr<harness::Buffer> weights, grads, copy, input, loss;
  std::vector<std::unique_ptr<harness::Buffer>> outputs, joined;  // joined[i]: layer i's input where sizes differ
  std::unique_ptr<harness::Buffer> grad_a, grad_b, grad_join;

  std::size_t act_bytes(std::size_t n) const { return n * harness::size_of(act); }
  std::size_t in_count(std::size_t i) const { return elements(workloads::input_elements(shapes[i])); }
  std::size_t out_count(std::size_t i) const { return elements(workloads::output_elements(shapes[i])); }
  void* in(std::size_t i) {
    if (i == 0) return input->data();
    return joined[i] ? joined[i]->data() : outputs[i - 1]->data();
  }
  void* w(std::size_t i) {
    const std::size_t off = layout.layer_offset[i];
    if (copy) return static_cast<char*>(copy->data()) + off * harness::size_of(act);
    return static_cast<float*>(weights->data()) + off;
  }
  void* g(std::size_t i) {
    return static_cast<char*>(grads->data()) + layout.layer_offset[i] * harness::size_of(grad_type);
  }

  // Layers first: their algorithm search may need a large workspace, which is cut back to what the
  // chosen algorithms use before the activations are allocated.
  void create_layers(int backward_sm_margin) {
    std::size_t workspace = 0;
    for (const auto& shape : shapes) {
      LayerSpec spec{shape, precision, std::nullopt, grad_type};
      spec.backward_sm_margin = backward_sm_margin;
      layers.push_back(ctx.create_layer(spec));
      for (Pass pass : kAllPasses) workspace = std::max(workspace, layers.back()->algorithm(pass).workspace_bytes);
    }
    ctx.shrink_workspace(workspace);
  }

  void allocate(const BufferAllocator& allocate_grads, int backward_sm_margin) {
    create_layers(backward_sm_margin);
    weights = backend.allocate(layout.total_elements * sizeof(float));
    const std::size_t grad_bytes = layout.total_elements * harness::size_of(grad_type);
    grads = allocate_grads ? allocate_grads(grad_bytes) : backend.allocate(grad_bytes);
    if (act != harness::DataType::float32) copy = backend.allocate(layout.total_elements * harness::size_of(act));
    input = backend.allocate(act_bytes(in_count(0)));
    loss = backend.allocate(sizeof(float));
    std::size_t max_out = 0, max_join = 0;
    joined.resize(shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      outputs.push_back(backend.allocate(act_bytes(out_count(i))));
      max_out = std::max(max_out, out_count(i));
      if (i > 0 && in_count(i) != out_count(i - 1)) {
        joined[i] = backend.allocate(act_bytes(in_count(i)));
        max_join = std::max(max_join, in_count(i));
      }
    }
    grad_a = backend.allocate(act_bytes(max_out));
    grad_b = backend.allocate(act_bytes(max_out));
    if (max_join) grad_join = backend.allocate(act_bytes(max_join));
  }
};

Network::Network(ComputeContext& ctx, TrainOps& ops, const Model& model, std::int64_t batch, Precision precision,
                 const BucketPlan& layout, harness::DataType grad_type, const BufferAllocator& allocate_grads,
                 int backward_sm_margin)
    : impl_(std::make_unique<Impl>(ctx, ops, model, batch, precision, layout, grad_type)) {
  impl_->allocate(allocate_grads, backward_sm_margin);
}

Network::~Network() = default;

void Network::init_parameters(std::uint64_t seed, harness::Stream& stream) {
  auto& m = *impl_;
  m.ops.fill(m.weights->data(), harness::DataType::float32, m.layout.total_elements, 0.0f, stream);
  m.ops.fill(m.grads->data(), m.grad_type, m.layout.total_elements, 0.0f, stream);
  for (std::size_t i = 0; i < m.shapes.size(); ++i) {
    const float scale = 1.0f / std::sqrt(static_cast<float>(fan_in(m.shapes[i])));
    m.ctx.fill_uniform(static_cast<float*>(m.weights->data()) + m.layout.layer_offset[i], harness::DataType::float32,
                       elements(weight_elements(m.shapes[i])), seed + 1000 + i, scale, stream);
  }
  cast_weights(stream);
}

void Network::fill_input(std::uint64_t seed, std::int64_t first_sample, harness::Stream& stream) {
  fill_samples(impl_->input->data(), seed, first_sample, stream);
}

void Network::fill_samples(void* dst, std::uint64_t seed, std::int64_t first_sample, harness::Stream& stream) {
  auto& m = *impl_;
  const std::size_t per_sample = m.in_count(0) / elements(m.batch);
  for (std::int64_t s = 0; s < m.batch; ++s)
    m.ctx.fill_uniform(static_cast<char*>(dst) + m.act_bytes(per_sample * elements(s)), m.act, per_sample,
                       sample_seed(seed, first_sample + s), 1.0f, stream);
}

void Network::cast_weights(harness::Stream& stream) {
  auto& m = *impl_;
  if (m.copy)
    m.ctx.convert(m.weights->data(), harness::DataType::float32, m.copy->data(), m.act, m.layout.total_elements,
                  Accumulate::overwrite, stream);
}

void Network::forward(harness::Stream& stream, const LayerHooks& hooks) {
  auto& m = *impl_;
  const std::size_t n = m.shapes.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (hooks.before) hooks.before(static_cast<int>(i), Pass::forward);
    if (m.joined[i]) m.ops.join_forward(m.outputs[i - 1]->data(), m.out_count(i - 1), m.joined[i]->data(), m.in_count(i),
                                        elements(m.batch), m.act, stream);
    m.layers[i]->forward(m.in(i), m.w(i), m.outputs[i]->data(), stream);
    if (i + 1 < n) m.ops.relu_forward(m.outputs[i]->data(), m.act, m.out_count(i), stream);
    if (hooks.after) hooks.after(static_cast<int>(i), Pass::forward);
  }
}

void Network::fill_grad_output(float value, harness::Stream& stream) {
  auto& m = *impl_;
  m.ops.fill(m.grad_a->data(), m.act, m.out_count(m.shapes.size() - 1), value, stream);
}

void Network::backward(Accumulate mode, harness::Stream& stream, const std::function<void(int)>& grad_ready,
                       const LayerHooks& hooks) {
  auto& m = *impl_;
  harness::Buffer* dy = m.grad_a.get();
  harness::Buffer* other = m.grad_b.get();
  for (std::size_t i = m.shapes.size(); i-- > 0;) {
    const int layer = static_cast<int>(i);
    if (hooks.before) hooks.before(layer, Pass::backward_weight);
    if (i + 1 < m.shapes.size()) m.ops.relu_backward(dy->data(), m.outputs[i]->data(), m.act, m.out_count(i), stream);
    m.layers[i]->backward_weight(dy->data(), m.in(i), m.g(i), mode, stream);
    if (hooks.after) hooks.after(layer, Pass::backward_weight);
    if (grad_ready) grad_ready(layer);
    if (i == 0) break;  // the input needs no gradient
    if (hooks.before) hooks.before(layer, Pass::backward_data);
    if (m.joined[i]) {
      m.layers[i]->backward_data(dy->data(), m.w(i), m.grad_join->data(), stream);
      m.ops.join_backward(m.grad_join->data(), m.in_count(i), other->data(), m.out_count(i - 1), elements(m.batch),
                          m.act, stream);
    } else {
      m.layers[i]->backward_data(dy->data(), m.w(i), other->data(), stream);
    }
    if (hooks.after) hooks.after(layer, Pass::backward_data);
    std::swap(dy, other);
  }
}

void Network::sgd(float lr, harness::Stream& stream) { sgd(lr, stream, 0, impl_->layout.total_elements); }

void Network::sgd(float lr, harness::Stream& stream, std::size_t first, std::size_t count, SgdGrid grid) {
  auto& m = *impl_;
  void* copy = m.copy ? static_cast<char*>(m.copy->data()) + first * harness::size_of(m.act) : nullptr;
  const void* g = static_cast<const char*>(grads()) + first * harness::size_of(m.grad_type);
  m.ops.sgd(weights() + first, g, m.grad_type, count, lr, copy, m.act, grid, stream);
}

void Network::loss(harness::Stream& stream) {
  auto& m = *impl_;
  m.ops.mean(output(), m.act, output_elements(), loss_value(), stream);
}

float* Network::weights() { return static_cast<float*>(impl_->weights->data()); }
void* Network::grads() { return impl_->grads->data(); }
harness::DataType Network::grad_type() const { return impl_->grad_type; }
std::size_t Network::parameter_elements() const { return impl_->layout.total_elements; }
void* Network::input() { return impl_->input->data(); }
std::size_t Network::input_bytes() const { return impl_->act_bytes(impl_->in_count(0)); }
void* Network::output() { return impl_->outputs.back()->data(); }
std::size_t Network::output_elements() const { return impl_->out_count(impl_->shapes.size() - 1); }
void* Network::grad_output() { return impl_->grad_a->data(); }
harness::DataType Network::activation_type() const { return impl_->act; }
float* Network::loss_value() { return static_cast<float*>(impl_->loss->data()); }
const BucketPlan& Network::layout() const { return impl_->layout; }
std::int64_t Network::batch() const { return impl_->batch; }

}  // namespace gpuscale::workloads
