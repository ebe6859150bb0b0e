#pragma once
// Counts the bytes a backend's buffers hold and their high-water mark (like PyTorch's
// max_memory_allocated). Thread-safe; owned by the backend, which outlives its buffers.
#include <atomic>
#include <cstddef>

#include "harness/Backend.hpp"

namespace gpuscale::harness {

class MemoryTracker {
 public:
  void allocated(std::size_t bytes) noexcept {
    const std::size_t now = current_.fetch_add(bytes) + bytes;
    std::size_t peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
  }
  void freed(std::size_t bytes) noexcept { current_.fetch_sub(bytes); }
  MemoryUsage usage() const noexcept { return {current_.load(), peak_.load()}; }
  void reset_peak() noexcept { peak_.store(current_.load()); }

 private:
  std::atomic<std::size_t> current_{0}, peak_{0};
};

}  // namespace gpuscale::harness
