#pragma once
// The time-based warm-up shared by the compute bench and the training timing: a GPU under its power
// limit clocks high for the first tenths of a second of a new load and settles lower, so figures meant
// for a long job are taken after the work itself has run for a while, with no idle gap in between.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

namespace gpuscale::workloads {

// Runs `work` once, timed on the host through wait(timeout_s), then as many more times as fill
// `seconds` in all (that count through `agree` where given: the ranks that must run as many take the
// largest), enqueued back to back, and waits once (wait(timeout_s + seconds)). Returns the runs.
template <class Work, class Wait>
int keep_busy_for(double seconds, double timeout_s, Work&& work, Wait&& wait,
                  const std::function<int(int)>& agree = {}) {
  const auto start = std::chrono::steady_clock::now();
  work();
  wait(timeout_s);
  const double once_s =
      std::max(1e-6, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  int more = static_cast<int>(std::clamp(std::ceil((seconds - once_s) / once_s), 0.0, 1e6));
  if (agree) more = agree(more);
  for (int i = 0; i < more; ++i) work();
  wait(timeout_s + seconds);
  return 1 + more;
}

}  // namespace gpuscale::workloads
