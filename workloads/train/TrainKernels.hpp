#pragma once
// Launchers of the training kernels (TrainKernels.cu); see TrainOps.hpp for what each computes.
// `stream` is a cudaStream_t; launches are asynchronous and checked with cudaGetLastError.
#include <cstddef>

#include "harness/DataType.hpp"

namespace gpuscale::workloads::kernels {

void relu_forward(void* data, harness::DataType type, std::size_t count, void* stream);
void relu_backward(void* dy, const void* y, harness::DataType type, std::size_t count, void* stream);
void fill(void* data, harness::DataType type, std::size_t count, float value, void* stream);
void mean(const void* data, harness::DataType type, std::size_t count, float* loss, void* stream);
void join_forward(const void* y, std::size_t y_count, void* x, std::size_t x_count, std::size_t samples,
                  harness::DataType type, void* stream);
void join_backward(const void* dx, std::size_t x_count, void* dy, std::size_t y_count, std::size_t samples,
                   harness::DataType type, void* stream);
// narrow: four blocks per SM instead of enough to cover `count` (TrainOps' SgdGrid).
void sgd(float* w, const void* g, harness::DataType grad_type, std::size_t count, float lr, void* copy,
         harness::DataType copy_type, bool narrow, void* stream);

}  // namespace gpuscale::workloads::kernels
