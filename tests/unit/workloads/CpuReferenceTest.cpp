// The reference (dgemm, im2col, col2im) against loops written straight from the definitions, on
// small shapes with stride, padding and dilation, in both layouts.
#include "workloads/layers/CpuReference.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "workloads/layers/RandomValue.hpp"

namespace gpuscale::workloads::reference {
namespace {

using Index = std::int64_t;

std::vector<double> random(Index n, std::uint64_t seed) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = uniform_value(seed, static_cast<std::uint64_t>(i), 1.0f);
  return v;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-12) << "element " << i;
}

TEST(CpuReference, LinearAllPassesMatchLoops) {
  const LinearShape s{5, 7, 3};
  const auto x = random(s.m * s.k, 1), w = random(s.n * s.k, 2), dy = random(s.m * s.n, 3);
  std::vector<double> y(s.m * s.n), dx(s.m * s.k), dw(s.n * s.k);
  linear_forward(s, x.data(), w.data(), y.data());
  linear_backward_data(s, dy.data(), w.data(), dx.data());
  linear_backward_weight(s, dy.data(), x.data(), dw.data());
  std::vector<double> y0(y.size(), 0), dx0(dx.size(), 0), dw0(dw.size(), 0);
  for (Index i = 0; i < s.m; ++i)
    for (Index j = 0; j < s.n; ++j)
      for (Index l = 0; l < s.k; ++l) {
        y0[i * s.n + j] += x[i * s.k + l] * w[j * s.k + l];
        dx0[i * s.k + l] += dy[i * s.n + j] * w[j * s.k + l];
        dw0[j * s.k + l] += dy[i * s.n + j] * x[i * s.k + l];
      }
  expect_near(y, y0);
  expect_near(dx, dx0);
  expect_near(dw, dw0);
}

// Index of element (n, c, h, w) of a tensor with `cs` channels and hs x ws pixels, in `layout`.
Index at(Layout layout, Index n, Index c, Index h, Index w, Index cs, Index hs, Index ws) {
  return layout == Layout::nchw ? ((n * cs + c) * hs + h) * ws + w : ((n * hs + h) * ws + w) * cs + c;
}

void check_conv(const Conv2dShape& g) {
  const auto x = random(input_elements(g), 4), w = random(weight_elements(g), 5), dy = random(output_elements(g), 6);
  std::vector<double> y(static_cast<std::size_t>(output_elements(g))), dx(x.size()), dw(w.size());
  conv2d_forward(g, x.data(), w.data(), y.data());
  conv2d_backward_data(g, dy.data(), w.data(), dx.data());
  conv2d_backward_weight(g, dy.data(), x.data(), dw.data());
  std::vector<double> y0(y.size(), 0), dx0(dx.size(), 0), dw0(dw.size(), 0);
  const auto L = g.layout;
  for (Index n = 0; n < g.n; ++n)
    for (Index k = 0; k < g.k; ++k)
      for (Index p = 0; p < g.p(); ++p)
        for (Index q = 0; q < g.q(); ++q)
          for (Index c = 0; c < g.c; ++c)
            for (Index r = 0; r < g.r; ++r)
              for (Index s = 0; s < g.s; ++s) {
                const Index h = p * g.stride - g.pad + r * g.dilation, ww = q * g.stride - g.pad + s * g.dilation;
                if (h < 0 || h >= g.h || ww < 0 || ww >= g.w) continue;
                const Index xi = at(L, n, c, h, ww, g.c, g.h, g.w), wi = at(L, k, c, r, s, g.c, g.r, g.s);
                const Index yi = at(L, n, k, p, q, g.k, g.p(), g.q());
                y0[yi] += x[xi] * w[wi];
                dx0[xi] += dy[yi] * w[wi];
                dw0[wi] += dy[yi] * x[xi];
              }
  expect_near(y, y0);
  expect_near(dx, dx0);
  expect_near(dw, dw0);
}

TEST(CpuReference, ConvNchwPaddedMatchesLoops) { check_conv({2, 3, 6, 5, 4, 3, 3, 1, 1, 1, Layout::nchw}); }
TEST(CpuReference, ConvNchwStrideDilation) { check_conv({2, 2, 9, 8, 3, 3, 2, 2, 2, 2, Layout::nchw}); }
TEST(CpuReference, ConvNhwcPaddedMatchesLoops) { check_conv({2, 3, 6, 5, 4, 3, 3, 1, 1, 1, Layout::nhwc}); }
TEST(CpuReference, ConvNhwcStrideDilation) { check_conv({1, 5, 7, 9, 2, 2, 3, 2, 1, 2, Layout::nhwc}); }
TEST(CpuReference, ConvPointwiseStride2) { check_conv({3, 4, 5, 5, 6, 1, 1, 2, 0, 1, Layout::nchw}); }

}  // namespace
}  // namespace gpuscale::workloads::reference
