#pragma once
// What every measurement of one run shares: a stream, the data verifier, the timer and two buffers of
// the largest size. Created collectively, so that a rank that cannot allocate makes every rank skip
// (instead of leaving the others waiting in the first collective).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/DataVerifier.hpp"
#include "collectives/Measure.hpp"
#include "harness/Backend.hpp"
#include "harness/World.hpp"

namespace gpuscale::collectives {

// Test seam: the buffer name for harness/FaultInjection (GPUSCALE_TEST_CORRUPT=RANK:collectives) that
// makes RANK spoil one output element in the last check pass of every measurement it takes part in.
inline constexpr std::string_view kCorruptBuffer = "collectives";

class BenchResources {
 public:
  // Collective over the world. buffer_bytes per buffer (send and receive); the timer holds up to
  // `iterations` timed iterations; corrupt: this rank spoils outputs (kCorruptBuffer requested for it).
  BenchResources(const harness::World& world, harness::Backend& backend, std::uint64_t buffer_bytes, int iterations,
                 double timeout_s, bool corrupt);

  // Non-empty when some rank could not allocate: every rank skips, with this reason.
  const std::string& skipped_reason() const { return skipped_reason_; }
  // The view one measurement works with; comm == nullptr: this rank only joins the reductions.
  Bench bench(harness::Communicator* comm);
  harness::Stream& stream() { return *stream_; }
  const harness::World& world() const { return world_; }
  double timeout_s() const { return timeout_s_; }

 private:
  const harness::World& world_;
  harness::Backend& backend_;
  double timeout_s_;
  bool corrupt_;
  std::unique_ptr<harness::Stream> stream_;
  std::unique_ptr<DataVerifier> verifier_;
  std::unique_ptr<BoundaryTimer> timer_;
  std::unique_ptr<harness::Buffer> send_, recv_;
  std::string skipped_reason_;
};

}  // namespace gpuscale::collectives
