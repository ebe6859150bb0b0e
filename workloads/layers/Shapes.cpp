#include "workloads/layers/Shapes.hpp"

#include <array>
#include <charconv>
#include <limits>
#include <vector>

#include "harness/Error.hpp"

namespace gpuscale::workloads {
namespace {

using harness::UsageError;

std::vector<std::int64_t> parse_ints(std::string_view text, std::string_view what) {
  std::vector<std::int64_t> values;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? comma : comma - start);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size())
      throw UsageError(std::string(what) + ": '" + std::string(item) + "' in '" + std::string(text) +
                       "' is not an integer");
    values.push_back(v);
    if (comma == std::string_view::npos) return values;
    start = comma + 1;
  }
}

struct ElementCounts {
  std::int64_t x, w, y;
};

ElementCounts counts(const LayerShape& shape) {
  return std::visit(Overloaded{[](const LinearShape& l) { return ElementCounts{l.m * l.k, l.n * l.k, l.m * l.n}; },
                               [](const Conv2dShape& c) {
                                 return ElementCounts{c.n * c.c * c.h * c.w, c.k * c.c * c.r * c.s,
                                                      c.n * c.k * c.p() * c.q()};
                               }},
                    shape);
}

}  // namespace

std::string_view to_string(Layout layout) { return layout == Layout::nhwc ? "nhwc" : "nchw"; }

Layout parse_layout(std::string_view text) {
  if (text == "nchw") return Layout::nchw;
  if (text == "nhwc") return Layout::nhwc;
  throw UsageError("unknown layout '" + std::string(text) + "' (use nchw or nhwc)");
}

std::int64_t Conv2dShape::p() const {
  const std::int64_t span = h + 2 * pad - dilation * (r - 1) - 1;
  return span < 0 || stride <= 0 ? 0 : span / stride + 1;
}

std::int64_t Conv2dShape::q() const {
  const std::int64_t span = w + 2 * pad - dilation * (s - 1) - 1;
  return span < 0 || stride <= 0 ? 0 : span / stride + 1;
}

std::int64_t input_elements(const LayerShape& shape) { return counts(shape).x; }
std::int64_t weight_elements(const LayerShape& shape) { return counts(shape).w; }
std::int64_t output_elements(const LayerShape& shape) { return counts(shape).y; }

double flops_per_pass(const LayerShape& shape) {
  return std::visit(
      Overloaded{[](const LinearShape& l) {
                   return 2.0 * static_cast<double>(l.m) * static_cast<double>(l.n) * static_cast<double>(l.k);
                 },
                 [](const Conv2dShape& c) {
                   return 2.0 * static_cast<double>(c.n * c.k) * static_cast<double>(c.p() * c.q()) *
                          static_cast<double>(c.c * c.r * c.s);
                 }},
      shape);
}

void validate(const LayerShape& shape) {
  const std::string text = describe(shape);
  constexpr std::int64_t kMax = std::numeric_limits<std::int32_t>::max();
  // Every field within 31 bits before any product is computed, so that counts() cannot overflow: a
  // tensor with a larger dimension would pass 2^31 elements anyway.
  const auto too_large = [&] {
    return UsageError(std::string(layer_kind(shape)) + " " + text + ": a tensor has more than 2^31 elements");
  };
  std::visit(Overloaded{[&](const LinearShape& l) {
                          if (l.m <= 0 || l.n <= 0 || l.k <= 0)
                            throw UsageError("matmul " + text + ": M, N and K must be positive");
                          if (l.m > kMax || l.n > kMax || l.k > kMax) throw too_large();
                        },
                        [&](const Conv2dShape& c) {
                          if (c.n <= 0 || c.c <= 0 || c.h <= 0 || c.w <= 0 || c.k <= 0 || c.r <= 0 || c.s <= 0)
                            throw UsageError("conv " + text + ": N, C, H, W, K, R and S must be positive");
                          if (c.stride <= 0 || c.dilation <= 0 || c.pad < 0)
                            throw UsageError("conv " + text +
                                             ": stride and dilation must be positive and pad not negative");
                          for (const std::int64_t v : {c.n, c.c, c.h, c.w, c.k, c.r, c.s, c.stride, c.pad, c.dilation})
                            if (v > kMax) throw too_large();
                          if (c.p() <= 0 || c.q() <= 0)
                            throw UsageError("conv " + text + ": the filter is larger than the padded input");
                        }},
             shape);
  // Element counts in double: four 31-bit factors of a conv tensor can overflow 64-bit integers.
  const auto d = [](std::int64_t v) { return static_cast<double>(v); };
  const auto [x, w, y] = std::visit(
      Overloaded{[&](const LinearShape& l) { return std::array{d(l.m) * d(l.k), d(l.n) * d(l.k), d(l.m) * d(l.n)}; },
                 [&](const Conv2dShape& c) {
                   return std::array{d(c.n) * d(c.c) * d(c.h) * d(c.w), d(c.k) * d(c.c) * d(c.r) * d(c.s),
                                     d(c.n) * d(c.k) * d(c.p()) * d(c.q())};
                 }},
      shape);
  if (x > kMax || w > kMax || y > kMax) throw too_large();
}

LinearShape parse_mnk(std::string_view text) {
  const auto v = parse_ints(text, "--mnk");
  if (v.size() != 3) throw UsageError("--mnk wants M,N,K (three integers), not '" + std::string(text) + "'");
  LinearShape shape{v[0], v[1], v[2]};
  validate(shape);
  return shape;
}

Conv2dShape parse_conv(std::string_view text, Layout layout) {
  const auto v = parse_ints(text, "--conv");
  if (v.size() != 7 && v.size() != 10)
    throw UsageError("--conv wants N,C,H,W,K,R,S[,stride,pad,dilation], not '" + std::string(text) + "'");
  Conv2dShape shape{v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
  if (v.size() == 10) {
    shape.stride = v[7];
    shape.pad = v[8];
    shape.dilation = v[9];
  }
  shape.layout = layout;
  validate(shape);
  return shape;
}

std::string describe(const LayerShape& shape) {
  auto s = [](std::int64_t v) { return std::to_string(v); };
  return std::visit(Overloaded{[&s](const LinearShape& l) { return "M" + s(l.m) + " N" + s(l.n) + " K" + s(l.k); },
                               [&s](const Conv2dShape& c) {
                                 return "N" + s(c.n) + " C" + s(c.c) + " H" + s(c.h) + " W" + s(c.w) + " K" + s(c.k) +
                                        " R" + s(c.r) + " S" + s(c.s) + " s" + s(c.stride) + " p" + s(c.pad) + " d" +
                                        s(c.dilation) + " " + std::string(to_string(c.layout));
                               }},
                    shape);
}

std::string_view layer_kind(const LayerShape& shape) {
  return std::visit(Overloaded{[](const LinearShape&) { return std::string_view("linear"); },
                               [](const Conv2dShape&) { return std::string_view("conv2d"); }},
                    shape);
}

}  // namespace gpuscale::workloads
