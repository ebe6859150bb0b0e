#pragma once
// Problem shapes of the two layers, their FLOP counts and tensor sizes, and the text forms users
// type (`--mnk M,N,K`, `--conv N,C,H,W,K,R,S[,stride,pad,dilation]`).
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace gpuscale::workloads {

// Linear without bias: Y[M,N] = X[M,K] * W[N,K]^T. M = batch (rows), K = in features, N = out
// features. Row-major, like torch.nn.Linear: X is M x K, W is N x K, Y is M x N.
struct LinearShape {
  std::int64_t m = 0, n = 0, k = 0;
  bool operator==(const LinearShape&) const = default;
};

enum class Layout { nchw, nhwc };
std::string_view to_string(Layout layout);
Layout parse_layout(std::string_view text);  // "nchw" | "nhwc"; UsageError otherwise

// Conv2d without bias, one group: X[N,C,H,W] (*) W[K,C,R,S] -> Y[N,K,P,Q]. `layout` orders the
// activations and the filter alike: nchw = X NCHW, W KCRS, Y NKPQ; nhwc = X NHWC, W KRSC, Y NPQK.
struct Conv2dShape {
  std::int64_t n = 0, c = 0, h = 0, w = 0;         // input
  std::int64_t k = 0, r = 0, s = 0;                // filters: count, height, width
  std::int64_t stride = 1, pad = 0, dilation = 1;  // the same along height and width
  Layout layout = Layout::nchw;
  std::int64_t p() const;  // output height: (h + 2 pad - dilation (r - 1) - 1) / stride + 1
  std::int64_t q() const;  // output width
  bool operator==(const Conv2dShape&) const = default;
};

using LayerShape = std::variant<LinearShape, Conv2dShape>;

// Every dispatch on a LayerShape is std::visit over one lambda per layer type, never std::get or
// get_if, so that a new layer type is a compile error at every place that must handle it:
//   std::visit(Overloaded{[](const LinearShape& l) { ... }, [](const Conv2dShape& c) { ... }}, shape);
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// Element counts of X (and dX), W (and dW), Y (and dY).
std::int64_t input_elements(const LayerShape& shape);
std::int64_t weight_elements(const LayerShape& shape);
std::int64_t output_elements(const LayerShape& shape);

// Multiply-adds counted as 2 FLOPs. Forward, backward data and backward weight each cost the same:
// linear 2 M N K; conv 2 N K P Q C R S.
double flops_per_pass(const LayerShape& shape);

// Throws UsageError (one line) for non-positive sizes, an empty output, or a tensor over 2^31 elements.
void validate(const LayerShape& shape);

// "4096,4096,4096" -> {m, n, k}. UsageError on anything else.
LinearShape parse_mnk(std::string_view text);
// "N,C,H,W,K,R,S" with optional ",stride,pad,dilation" (defaults 1,0,1). UsageError on anything else.
Conv2dShape parse_conv(std::string_view text, Layout layout = Layout::nchw);

// "M4096 N4096 K4096" and "N32 C256 H56 W56 K256 R3 S3 s1 p1 d1 nhwc": for records and tables.
std::string describe(const LayerShape& shape);
std::string_view layer_kind(const LayerShape& shape);  // "linear" | "conv2d"

}  // namespace gpuscale::workloads
