#pragma once
// How long any single wait may take, per phase: `--timeout S` (every phase) or
// `--timeout PHASE=S,...` (those phases; items apply left to right, so "60,train=600" works).
// The phases and their defaults are the phase table's (PhaseSpec::timeout_s, each with its reason in
// the phase's folder). Pure parsing; bad input is a harness::UsageError with one line.
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

// "S" or "PHASE=S" items, comma-separated, over the defaults. Throws UsageError naming the item.
PhaseTimeouts parse_timeouts(const std::string& text);
// "env 120, links 120, compute 300, burn 120, collectives 180, train 300", in the table's order: for
// --help and messages.
std::string describe(const PhaseTimeouts& timeouts);

}  // namespace gpuscale::launch
