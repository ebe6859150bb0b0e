#pragma once
// Owner of one opaque library handle or descriptor (cublasLtMatmulDesc_t, cudnnTensorDescriptor_t,
// ...): destroyed exactly once, never copied. Create it by passing &handle.value to the library.
#include "harness/Error.hpp"

namespace gpuscale::workloads {

template <class T, auto Destroy>
struct LibraryHandle {
  T value = nullptr;
  LibraryHandle() = default;
  LibraryHandle(const LibraryHandle&) = delete;
  LibraryHandle& operator=(const LibraryHandle&) = delete;
  ~LibraryHandle() {
    // Status ignored: destructors never throw. After a fatal error the process is ending, and a
    // destroy (cuBLAS's, cuDNN's synchronise the device) would wait on a device that may have stopped.
    if (value && !harness::fatal_error_raised()) Destroy(value);
  }
};

}  // namespace gpuscale::workloads
