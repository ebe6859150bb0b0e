#pragma once
// Out of memory at one size is an expected "cannot run here", not a crash: the phase records a
// skipped record with the reason and goes on with the next size. Ranks must agree, or the ranks that
// did allocate would wait for ever in the next collective; this helper makes the decision collective.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "harness/Deadline.hpp"

namespace gpuscale::harness {

class World;

// Collective. Runs `allocate` on this rank (it allocates every buffer the size needs). If it throws
// OutOfMemoryError on any rank, every rank returns the same reason, "out of memory at SIZE B on rank
// R: ...", naming the lowest such rank; the caller frees what it did allocate and records the skip.
// Returns nullopt when every rank succeeded. Other errors propagate (after the agreement they would
// otherwise block, so a rank's failure here never strands the others).
std::optional<std::string> allocate_on_every_rank(const World& world, const Deadline& deadline,
                                                  std::uint64_t size_bytes, const std::function<void()>& allocate);

}  // namespace gpuscale::harness
