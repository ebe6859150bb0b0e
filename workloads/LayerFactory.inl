// Template definitions of LayerFactory.hpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "harness/Error.hpp"

namespace gpuscale::workloads {

template <class Work, class Hold>
double time_per_call_s(harness::Backend& backend, harness::Stream& stream, int reps, Work&& work, Hold&& hold) {
  try {
    work();
    hold(kHoldPerCall_s * (reps + 2));
    auto timer = backend.create_timer();
    timer->start(stream);
    for (int i = 0; i < reps; ++i) work();
    timer->stop(stream);
    return timer->elapsed_s() / reps;
  } catch (const harness::OutOfMemoryError&) {
    throw;
  } catch (const harness::LibraryError&) {
    return std::numeric_limits<double>::infinity();
  }
}

template <class Run, class Hold>
std::vector<double> best_round_s(harness::Backend& backend, harness::Stream& stream, std::size_t count, int rounds,
                                 int reps, Run&& run, Hold&& hold) {
  std::vector<double> seconds(count, std::numeric_limits<double>::infinity());
  for (int round = 0; round < rounds; ++round)
    for (std::size_t i = 0; i < count; ++i)
      seconds[i] = std::min(seconds[i], time_per_call_s(backend, stream, reps, [&] { run(i); }, hold));
  return seconds;
}

template <class Run>
std::size_t settled_fastest(harness::Backend& backend, harness::Stream& stream, const std::vector<std::size_t>& finalists,
                            const std::vector<double>& short_s, double window_s, Run&& run) {
  auto calls_for = [&](std::size_t i) {
    return static_cast<int>(std::clamp(std::ceil(window_s / short_s[i]), 1.0, 20000.0));
  };
  for (int k = calls_for(finalists.front()); k > 0; --k) run(finalists.front());
  std::vector<double> total_s(finalists.size(), 0.0);
  std::vector<std::unique_ptr<harness::Timer>> timers;
  std::vector<std::size_t> order(finalists.size());
  for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
  for (int pass = 0; pass < 2; ++pass) {
    for (const std::size_t j : order) {
      timers.push_back(backend.create_timer());
      const int calls = calls_for(finalists[j]);
      timers.back()->start(stream);
      for (int k = 0; k < calls; ++k) run(finalists[j]);
      timers.back()->stop(stream);
    }
    std::reverse(order.begin(), order.end());
  }
  // Windows in the order enqueued: 0..n-1, then n-1..0.
  for (std::size_t w = 0; w < timers.size(); ++w) {
    const std::size_t j = w < finalists.size() ? w : timers.size() - 1 - w;
    total_s[j] += timers[w]->elapsed_s() / calls_for(finalists[j]);
  }
  return finalists[static_cast<std::size_t>(std::min_element(total_s.begin(), total_s.end()) - total_s.begin())];
}

}  // namespace gpuscale::workloads
