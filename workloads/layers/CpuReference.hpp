#pragma once
// The numerical reference: Linear and Conv2d passes in double precision on the host, through BLAS
// dgemm (conv: im2col / col2im around it). Tensors are row-major in the shape's layout (Shapes.hpp).
// Outputs are overwritten. Used by the cpu layers and to check the GPU layers.
#include "workloads/layers/Layer.hpp"
#include "workloads/layers/Shapes.hpp"

namespace gpuscale::workloads::reference {

// Row-major C[m,n] = alpha op(A)[m,k] op(B)[k,n] + beta C, op = transpose where asked.
void gemm(bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          const double* a, const double* b, double beta, double* c);

void linear_forward(const LinearShape& shape, const double* x, const double* w, double* y);
void linear_backward_data(const LinearShape& shape, const double* dy, const double* w, double* dx);
void linear_backward_weight(const LinearShape& shape, const double* dy, const double* x, double* dw);

void conv2d_forward(const Conv2dShape& shape, const double* x, const double* w, double* y);
void conv2d_backward_data(const Conv2dShape& shape, const double* dy, const double* w, double* dx);
void conv2d_backward_weight(const Conv2dShape& shape, const double* dy, const double* x, double* dw);

// One pass of either layer: forward (a = X, b = W, out = Y), backward data (a = dY, b = W, out = dX)
// or backward weight (a = dY, b = X, out = dW).
void run(Pass pass, const LayerShape& shape, const double* a, const double* b, double* out);

}  // namespace gpuscale::workloads::reference
