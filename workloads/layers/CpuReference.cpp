#include "workloads/layers/CpuReference.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

extern "C" {
// Fortran BLAS: every BLAS (reference, OpenBLAS, MKL) exports it, with or without cblas.h.
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc);
}

namespace gpuscale::workloads::reference {
namespace {

using Index = std::int64_t;

// NHWC <-> NCHW (and KRSC <-> KCRS, NPQK <-> NKPQ): the reference works in channel-first order.
std::vector<double> to_channel_first(const double* src, Index n, Index c, Index hw) {
  std::vector<double> out(static_cast<std::size_t>(n * c * hw));
  for (Index i = 0; i < n; ++i)
    for (Index p = 0; p < hw; ++p)
      for (Index ch = 0; ch < c; ++ch) out[(i * c + ch) * hw + p] = src[(i * hw + p) * c + ch];
  return out;
}

void to_channel_last(const std::vector<double>& src, Index n, Index c, Index hw, double* out) {
  for (Index i = 0; i < n; ++i)
    for (Index p = 0; p < hw; ++p)
      for (Index ch = 0; ch < c; ++ch) out[(i * hw + p) * c + ch] = src[(i * c + ch) * hw + p];
}

// A tensor in channel-first order: a view of the caller's data, or a permuted copy for nhwc.
struct ChannelFirst {
  std::vector<double> copy;
  const double* data;
  ChannelFirst(const double* src, Layout layout, Index n, Index c, Index hw) : data(src) {
    if (layout == Layout::nhwc) {
      copy = to_channel_first(src, n, c, hw);
      data = copy.data();
    }
  }
};

// col[(c R + r) S + s][p Q + q] = x[c][p stride - pad + r dilation][q stride - pad + s dilation].
void im2col(const Conv2dShape& g, const double* x, double* col) {
  const Index p_count = g.p(), q_count = g.q();
  for (Index c = 0; c < g.c; ++c)
    for (Index r = 0; r < g.r; ++r)
      for (Index s = 0; s < g.s; ++s) {
        double* row = col + ((c * g.r + r) * g.s + s) * p_count * q_count;
        for (Index p = 0; p < p_count; ++p) {
          const Index h = p * g.stride - g.pad + r * g.dilation;
          for (Index q = 0; q < q_count; ++q) {
            const Index w = q * g.stride - g.pad + s * g.dilation;
            const bool inside = h >= 0 && h < g.h && w >= 0 && w < g.w;
            row[p * q_count + q] = inside ? x[(c * g.h + h) * g.w + w] : 0.0;
          }
        }
      }
}

// The adjoint of im2col: x[c][h][w] += every col entry that was read from it.
void col2im(const Conv2dShape& g, const double* col, double* x) {
  const Index p_count = g.p(), q_count = g.q();
  for (Index c = 0; c < g.c; ++c)
    for (Index r = 0; r < g.r; ++r)
      for (Index s = 0; s < g.s; ++s) {
        const double* row = col + ((c * g.r + r) * g.s + s) * p_count * q_count;
        for (Index p = 0; p < p_count; ++p) {
          const Index h = p * g.stride - g.pad + r * g.dilation;
          if (h < 0 || h >= g.h) continue;
          for (Index q = 0; q < q_count; ++q) {
            const Index w = q * g.stride - g.pad + s * g.dilation;
            if (w >= 0 && w < g.w) x[(c * g.h + h) * g.w + w] += row[p * q_count + q];
          }
        }
      }
}

Index crs(const Conv2dShape& g) { return g.c * g.r * g.s; }
Index pq(const Conv2dShape& g) { return g.p() * g.q(); }

}  // namespace

void gemm(bool transpose_a, bool transpose_b, Index m, Index n, Index k, double alpha, const double* a, const double* b,
          double beta, double* c) {
  // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: swap the operands.
  const int mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
  const int lda = static_cast<int>(transpose_a ? m : k), ldb = static_cast<int>(transpose_b ? k : n);
  const char ta = transpose_a ? 'T' : 'N', tb = transpose_b ? 'T' : 'N';
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (Index i = 0; i < m * n; ++i) c[i] = beta == 0.0 ? 0.0 : beta * c[i];
    return;
  }
  dgemm_(&tb, &ta, &ni, &mi, &ki, &alpha, b, &ldb, a, &lda, &beta, c, &ni);
}

void linear_forward(const LinearShape& s, const double* x, const double* w, double* y) {
  gemm(false, true, s.m, s.n, s.k, 1.0, x, w, 0.0, y);
}

void linear_backward_data(const LinearShape& s, const double* dy, const double* w, double* dx) {
  gemm(false, false, s.m, s.k, s.n, 1.0, dy, w, 0.0, dx);
}

void linear_backward_weight(const LinearShape& s, const double* dy, const double* x, double* dw) {
  gemm(true, false, s.n, s.k, s.m, 1.0, dy, x, 0.0, dw);
}

void conv2d_forward(const Conv2dShape& g, const double* x, const double* w, double* y) {
  const ChannelFirst xc(x, g.layout, g.n, g.c, g.h * g.w), wc(w, g.layout, g.k, g.c, g.r * g.s);
  std::vector<double> col(static_cast<std::size_t>(crs(g) * pq(g)));
  std::vector<double> out(static_cast<std::size_t>(g.n * g.k * pq(g)));
  for (Index i = 0; i < g.n; ++i) {
    im2col(g, xc.data + i * g.c * g.h * g.w, col.data());
    gemm(false, false, g.k, pq(g), crs(g), 1.0, wc.data, col.data(), 0.0, out.data() + i * g.k * pq(g));
  }
  if (g.layout == Layout::nhwc) {
    to_channel_last(out, g.n, g.k, pq(g), y);
  } else {
    std::copy(out.begin(), out.end(), y);
  }
}

void conv2d_backward_data(const Conv2dShape& g, const double* dy, const double* w, double* dx) {
  const ChannelFirst dyc(dy, g.layout, g.n, g.k, pq(g)), wc(w, g.layout, g.k, g.c, g.r * g.s);
  std::vector<double> col(static_cast<std::size_t>(crs(g) * pq(g)));
  std::vector<double> out(static_cast<std::size_t>(g.n * g.c * g.h * g.w), 0.0);
  for (Index i = 0; i < g.n; ++i) {
    gemm(true, false, crs(g), pq(g), g.k, 1.0, wc.data, dyc.data + i * g.k * pq(g), 0.0, col.data());
    col2im(g, col.data(), out.data() + i * g.c * g.h * g.w);
  }
  if (g.layout == Layout::nhwc) {
    to_channel_last(out, g.n, g.c, g.h * g.w, dx);
  } else {
    std::copy(out.begin(), out.end(), dx);
  }
}

void conv2d_backward_weight(const Conv2dShape& g, const double* dy, const double* x, double* dw) {
  const ChannelFirst dyc(dy, g.layout, g.n, g.k, pq(g)), xc(x, g.layout, g.n, g.c, g.h * g.w);
  std::vector<double> col(static_cast<std::size_t>(crs(g) * pq(g)));
  std::vector<double> out(static_cast<std::size_t>(g.k * crs(g)), 0.0);
  for (Index i = 0; i < g.n; ++i) {
    im2col(g, xc.data + i * g.c * g.h * g.w, col.data());
    gemm(false, true, g.k, crs(g), pq(g), 1.0, dyc.data + i * g.k * pq(g), col.data(), 1.0, out.data());
  }
  if (g.layout == Layout::nhwc) {
    to_channel_last(out, g.k, g.c, g.r * g.s, dw);
  } else {
    std::copy(out.begin(), out.end(), dw);
  }
}

void run(Pass pass, const LayerShape& shape, const double* a, const double* b, double* out) {
  std::visit(Overloaded{[&](const LinearShape& l) {
                          if (pass == Pass::forward) linear_forward(l, a, b, out);
                          if (pass == Pass::backward_data) linear_backward_data(l, a, b, out);
                          if (pass == Pass::backward_weight) linear_backward_weight(l, a, b, out);
                        },
                        [&](const Conv2dShape& c) {
                          if (pass == Pass::forward) conv2d_forward(c, a, b, out);
                          if (pass == Pass::backward_data) conv2d_backward_data(c, a, b, out);
                          if (pass == Pass::backward_weight) conv2d_backward_weight(c, a, b, out);
                        }},
             shape);
}

}  // namespace gpuscale::workloads::reference
