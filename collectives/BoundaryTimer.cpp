#include "collectives/BoundaryTimer.hpp"

#include <string>

#include "harness/Error.hpp"

namespace gpuscale::collectives {

BoundaryTimer::BoundaryTimer(harness::Backend& backend, int max_iterations) {
  for (int i = 0; i <= max_iterations; ++i) marks_.push_back(backend.create_event());
}

void BoundaryTimer::start(harness::Stream& stream) {
  recorded_ = 0;
  mark(stream);
}

void BoundaryTimer::mark(harness::Stream& stream) {
  if (recorded_ >= static_cast<int>(marks_.size()))
    throw harness::RuntimeError("boundary timer: more than " + std::to_string(max_iterations()) + " iterations");
  marks_[static_cast<std::size_t>(recorded_++)]->record(stream);
}

BoundaryTimes BoundaryTimer::read(const harness::Deadline& deadline) {
  BoundaryTimes t;
  if (recorded_ < 2) return t;
  const auto last = static_cast<std::size_t>(recorded_ - 1);
  // Waiting on the last boundary first: the earlier ones on the same stream are then complete.
  t.total_s = marks_[last]->seconds_since(*marks_[0], deadline);
  for (std::size_t i = 1; i <= last; ++i) t.samples_s.push_back(marks_[i]->seconds_since(*marks_[i - 1], deadline));
  return t;
}

}  // namespace gpuscale::collectives
