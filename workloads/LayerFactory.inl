// Template definitions of LayerFactory.hpp.
#include <algorithm>
#include <limits>
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

}  // namespace gpuscale::workloads
