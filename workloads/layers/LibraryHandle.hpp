#pragma once
// Owner of one opaque library handle or descriptor (cublasLtMatmulDesc_t, cudnnTensorDescriptor_t,
// ...): destroyed exactly once, never copied. Create it by passing &handle.value to the library.
namespace gpuscale::workloads {

template <class T, auto Destroy>
struct LibraryHandle {
  T value = nullptr;
  LibraryHandle() = default;
  LibraryHandle(const LibraryHandle&) = delete;
  LibraryHandle& operator=(const LibraryHandle&) = delete;
  ~LibraryHandle() {
    if (value) Destroy(value);  // status ignored: destructors never throw
  }
};

}  // namespace gpuscale::workloads
