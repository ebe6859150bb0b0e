#pragma once
// Progress on stderr, from rank 0 only (the Job decides): phase i/n, the current step, elapsed time
// and an ETA. On a terminal one line is rewritten in place; in a log every update is its own line.
// Separate from results: nothing here is part of the report.
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

namespace gpuscale::launch {

class Progress {
 public:
  using Clock = std::function<double()>;  // seconds, monotonic

  // `enabled` false (--quiet, ranks other than 0): every call does nothing. `budget_s`: the profile's
  // stated budget, the ETA's fallback when a step does not say how far along it is.
  Progress(std::ostream& out, bool enabled, bool terminal, double budget_s, Clock clock);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void phase(const std::string& name, std::size_t index, std::size_t count);  // index from 1
  // `done` of `total` steps of this phase (both 0 when unknown).
  void step(const std::string& what, std::size_t done = 0, std::size_t total = 0);
  // Ends a rewritten line so that what follows starts on its own line.
  void finish();

 private:
  void show(const std::string& text);

  std::ostream& out_;
  bool enabled_, terminal_;
  double budget_s_;
  Clock clock_;
  double start_s_, phase_start_s_;
  std::string phase_;
  std::size_t index_ = 0, count_ = 0;
  bool line_open_ = false;
};

// Whether stderr is a terminal (isatty).
bool stderr_is_terminal();

}  // namespace gpuscale::launch
