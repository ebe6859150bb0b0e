#include "workloads/layers/ReferenceVerification.hpp"

#include <cmath>
#include <vector>

#include "workloads/layers/CpuReference.hpp"
#include "workloads/layers/HostConvert.hpp"
#include "workloads/layers/RandomValue.hpp"

namespace gpuscale::workloads {
namespace {

// One input tensor: its values as the device holds them (rounded to the storage type), in double.
struct HostInput {
  std::vector<double> values;
  std::unique_ptr<harness::Buffer> device;
};

HostInput upload_random(ComputeContext& ctx, harness::Stream& stream, std::int64_t elements, harness::DataType type,
                        std::uint64_t seed) {
  HostInput in;
  in.values.resize(static_cast<std::size_t>(elements));
  for (std::size_t i = 0; i < in.values.size(); ++i) in.values[i] = uniform_value(seed, i, 1.0f);
  round_to(in.values, type);
  std::vector<unsigned char> bytes(in.values.size() * harness::size_of(type));
  from_double(in.values.data(), in.values.size(), type, bytes.data(), false);
  in.device = ctx.backend().allocate(bytes.size());
  ctx.upload(in.device->data(), bytes.data(), bytes.size(), stream);
  return in;
}

std::unique_ptr<harness::Buffer> poisoned(ComputeContext& ctx, harness::Stream& stream, std::size_t bytes) {
  auto buffer = ctx.backend().allocate(bytes);
  ctx.poison(buffer->data(), bytes, stream);
  return buffer;
}

results::ComputeVerification compare(harness::Backend& backend, const harness::Buffer& out, harness::DataType type,
                              const std::vector<double>& ref, const LayerSpec& spec, bool corrupt,
                              const harness::Deadline& deadline) {
  std::vector<unsigned char> bytes(ref.size() * harness::size_of(type));
  backend.download(bytes.data(), out, bytes.size(), deadline);
  auto got = to_double(bytes.data(), type, ref.size());
  if (corrupt && !got.empty()) got[0] += 10;
  results::ComputeVerification c;
  c.ran = true;
  c.relative_error = relative_error(got, ref);
  c.limit = relative_error_limit(spec.precision);
  c.passed = within_limit(c.relative_error, c.limit);
  c.shape = describe(spec.shape);
  return c;
}

}  // namespace

double relative_error(std::span<const double> out, std::span<const double> ref) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < out.size() && i < ref.size(); ++i) {
    if (!std::isfinite(out[i])) return std::nan("");
    diff += (out[i] - ref[i]) * (out[i] - ref[i]);
    norm += ref[i] * ref[i];
  }
  if (out.size() != ref.size()) return std::nan("");
  if (norm == 0) return diff == 0 ? 0.0 : std::nan("");
  return std::sqrt(diff / norm);
}

bool within_limit(double error, double limit) { return !std::isnan(error) && error <= limit; }

std::array<results::ComputeVerification, 3> verify_against_reference(ComputeContext& ctx, harness::Stream& stream,
                                                             const LayerSpec& spec, std::uint64_t seed,
                                                             double timeout_s, bool corrupt_for_test) {
  auto& backend = ctx.backend();
  auto layer = ctx.create_layer(spec);
  const auto& g = spec.shape;
  const auto x = upload_random(ctx, stream, input_elements(g), input_type(spec), seed);
  const auto w = upload_random(ctx, stream, weight_elements(g), input_type(spec), seed + 1);
  const auto dy = upload_random(ctx, stream, output_elements(g), input_type(spec), seed + 2);
  auto y = poisoned(ctx, stream, y_bytes(spec)), dx = poisoned(ctx, stream, dx_bytes(spec));
  auto dw = poisoned(ctx, stream, dw_bytes(spec));
  layer->forward(*x.device, *w.device, *y, stream);
  layer->backward_data(*dy.device, *w.device, *dx, stream);
  layer->backward_weight(*dy.device, *x.device, *dw, Accumulate::overwrite, stream);
  stream.synchronize(harness::Deadline::after(timeout_s), "the reference check's layer passes");

  std::vector<double> ref_y(static_cast<std::size_t>(output_elements(g)));
  std::vector<double> ref_dx(x.values.size()), ref_dw(w.values.size());
  reference::run(Pass::forward, g, x.values.data(), w.values.data(), ref_y.data());
  reference::run(Pass::backward_data, g, dy.values.data(), w.values.data(), ref_dx.data());
  reference::run(Pass::backward_weight, g, dy.values.data(), x.values.data(), ref_dw.data());
  const bool c = corrupt_for_test;
  const auto deadline = [&] { return harness::Deadline::after(timeout_s); };
  return {compare(backend, *y, output_type(spec), ref_y, spec, c, deadline()),
          compare(backend, *dx, output_type(spec), ref_dx, spec, c, deadline()),
          compare(backend, *dw, weight_grad_type(spec), ref_dw, spec, c, deadline())};
}

}  // namespace gpuscale::workloads
