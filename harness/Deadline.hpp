#pragma once
// A point in time by which a wait must end. Every wait in gpuscale takes one.
#include <chrono>
#include <limits>

namespace gpuscale::harness {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  static Deadline after(double seconds) {
    if (!(seconds < 1e9)) return never();
    return Deadline(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(seconds)));
  }
  static Deadline never() { return Deadline(Clock::time_point::max()); }

  bool expired() const { return Clock::now() >= at_; }
  double remaining_s() const {
    if (at_ == Clock::time_point::max()) return std::numeric_limits<double>::infinity();
    return std::chrono::duration<double>(at_ - Clock::now()).count();
  }

 private:
  explicit Deadline(Clock::time_point at) : at_(at) {}
  Clock::time_point at_;
};

}  // namespace gpuscale::harness
