#include "harness/OutOfMemory.hpp"

#include <limits>

#include "harness/Error.hpp"
#include "harness/World.hpp"

namespace gpuscale::harness {

std::optional<std::string> allocate_on_every_rank(const World& world, const Deadline& deadline,
                                                  std::uint64_t size_bytes, const std::function<void()>& allocate) {
  std::string reason;
  try {
    allocate();
  } catch (const OutOfMemoryError& e) {
    reason = e.what();
  }
  constexpr double kNone = std::numeric_limits<double>::infinity();
  const double first = world.min_over_ranks(reason.empty() ? kNone : world.rank(), deadline);
  if (first == kNone) return std::nullopt;
  const int root = static_cast<int>(first);
  unsigned long long length = reason.size();
  world.broadcast_bytes(&length, sizeof length, root, deadline);
  reason.resize(length);
  world.broadcast_bytes(reason.data(), reason.size(), root, deadline);
  return "out of memory at " + std::to_string(size_bytes) + " B on rank " + std::to_string(root) + ": " + reason;
}

}  // namespace gpuscale::harness
