#pragma once
// The workspace that the layers of one context share: grown to the largest request, shrunk only
// on request (shrink_to, once every layer has chosen its algorithms).
// Growing frees the old buffer, so callers re-read data() after any ensure() and never keep the
// pointer across layer creation.
#include <cstddef>
#include <memory>

#include "harness/Backend.hpp"

namespace gpuscale::workloads {

class Workspace {
 public:
  explicit Workspace(harness::Backend& backend) : backend_(backend) {}
  // At least `bytes` of device memory (nullptr for 0). Throws harness::OutOfMemoryError.
  void* ensure(std::size_t bytes) {
    if (bytes == 0) return data();
    if (!buffer_ || buffer_->bytes() < bytes) {
      buffer_.reset();  // free first: the old and new together may not fit
      buffer_ = backend_.allocate(bytes);
    }
    return buffer_->data();
  }
  // Reallocates to exactly `bytes` when more is held (0: frees it). Callers re-read data() after.
  void shrink_to(std::size_t bytes) {
    if (!buffer_ || buffer_->bytes() <= bytes) return;
    buffer_.reset();
    if (bytes > 0) buffer_ = backend_.allocate(bytes);
  }
  void* data() noexcept { return buffer_ ? buffer_->data() : nullptr; }
  std::size_t bytes() const noexcept { return buffer_ ? buffer_->bytes() : 0; }

 private:
  harness::Backend& backend_;
  std::unique_ptr<harness::Buffer> buffer_;
};

}  // namespace gpuscale::workloads
