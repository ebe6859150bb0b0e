// Template definitions of LayerFactory.hpp.
#include <algorithm>
#include <limits>
#include <vector>

#include "harness/Error.hpp"

namespace gpuscale::workloads {

template <class Work>
double time_per_call_s(harness::Backend& backend, harness::Stream& stream, int reps, Work&& work) {
  try {
    work();
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

template <class Run>
std::vector<double> best_round_s(harness::Backend& backend, harness::Stream& stream, std::size_t count, int rounds,
                                 int reps, Run&& run) {
  std::vector<double> seconds(count, std::numeric_limits<double>::infinity());
  for (int round = 0; round < rounds; ++round)
    for (std::size_t i = 0; i < count; ++i)
      seconds[i] = std::min(seconds[i], time_per_call_s(backend, stream, reps, [&] { run(i); }));
  return seconds;
}

template <class Run>
std::vector<double> sustained_s(harness::Backend& backend, harness::Stream& stream, std::size_t count, double burst_s,
                                Run&& run) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double max_calls = 20000;  // a burst of tiny kernels is bound by the host's launches anyway
  std::vector<double> sum(count, 0.0);
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t i = pass == 0 ? k : count - 1 - k;
      if (!(sum[i] < inf)) continue;
      const double probe = time_per_call_s(backend, stream, 3, [&] { run(i); });
      const double wanted = probe > 0 ? std::min(burst_s / probe, max_calls) : max_calls;
      const int calls = std::max(3, static_cast<int>(wanted)), timed = std::max(1, calls / 3);
      double tail = inf;
      if (probe < inf) {
        for (int c = 0; c + 1 < calls - timed; ++c) run(i);  // time_per_call_s makes one more untimed call
        tail = time_per_call_s(backend, stream, timed, [&] { run(i); });
      }
      sum[i] = tail < inf ? sum[i] + tail / 2 : inf;
    }
  }
  return sum;
}

}  // namespace gpuscale::workloads
