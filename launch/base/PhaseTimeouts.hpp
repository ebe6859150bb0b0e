#pragma once
// Seconds per wait, per phase: what `--timeout` sets (Timeouts.hpp parses it) and the Job reads. The
// phases and their defaults are the phase table's (PhaseSpec::timeout_s, each with its reason in the
// phase's folder).
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace gpuscale::launch {

// The longest wait --timeout accepts: a week, past any real phase, and far inside what a deadline
// in clock ticks can hold (1e300 s would overflow it).
constexpr double kMaxTimeoutS = 7 * 24 * 3600;

// Seconds per wait, for every phase of the table.
class PhaseTimeouts {
 public:
  PhaseTimeouts();  // each phase's default

  // The phase's timeout; anything outside the phases (start-up, finish) is bootstrap.
  double for_phase(std::string_view phase) const;
  // Bootstrap (MPI and NCCL start-up, the finish): the first phase's timeout, env's.
  double bootstrap_s() const;
  // Sets a phase of the table; false for a name the table lacks.
  bool set(std::string_view phase, double seconds);
  void set_all(double seconds);

 private:
  std::map<std::string, double, std::less<>> seconds_;
};

}  // namespace gpuscale::launch
