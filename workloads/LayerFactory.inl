// Template definitions of LayerFactory.hpp.
#include <algorithm>
#include <chrono>
#include <limits>
#include <vector>

#include "harness/Deadline.hpp"
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

// One candidate settled: calls back to back (batches of about 20 ms, then a wait, so the host stays
// near the device) until settle_s has passed, then its seconds per call as time_per_call_s times them.
template <class Work, class Hold>
double settled_per_call_s(harness::Backend& backend, harness::Stream& stream, double settle_s, double call_s,
                          Work&& work, Hold&& hold) {
  const int batch = std::max(1, static_cast<int>(0.02 / call_s));
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(settle_s);
  try {
    while (std::chrono::steady_clock::now() < until) {
      for (int i = 0; i < batch; ++i) work();
      stream.synchronize(harness::Deadline::after(120), "settled tuning");
    }
  } catch (const harness::OutOfMemoryError&) {
    throw;
  } catch (const harness::LibraryError&) {
    return std::numeric_limits<double>::infinity();
  }
  return time_per_call_s(backend, stream, kSettledReps, work, hold);
}

template <class Run, class Hold>
std::size_t fastest_candidate(harness::Backend& backend, harness::Stream& stream, std::size_t count, int rounds,
                              int reps, double settle_s, Run&& run, Hold&& hold) {
  const auto quick = best_round_s(backend, stream, count, rounds, reps, run, hold);
  if (count == 0) return count;
  const auto best = static_cast<std::size_t>(std::min_element(quick.begin(), quick.end()) - quick.begin());
  if (!(quick[best] < std::numeric_limits<double>::infinity())) return count;
  if (settle_s <= 0 || quick[best] < kSettledFrom_s) return best;
  std::vector<std::size_t> close;  // fastest first
  for (std::size_t i = 0; i < count; ++i)
    if (quick[i] <= quick[best] * (1 + kSettledWithin)) close.push_back(i);
  std::sort(close.begin(), close.end(), [&](std::size_t a, std::size_t b) { return quick[a] < quick[b]; });
  if (close.size() > kSettledMost) close.resize(kSettledMost);
  if (close.size() < 2) return best;
  std::vector<double> settled(close.size(), 0.0);
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t k = 0; k < close.size(); ++k) {
      const std::size_t j = pass == 0 ? k : close.size() - 1 - k;
      settled[j] += settled_per_call_s(backend, stream, settle_s, quick[close[j]], [&] { run(close[j]); }, hold);
    }
  return close[static_cast<std::size_t>(std::min_element(settled.begin(), settled.end()) - settled.begin())];
}

}  // namespace gpuscale::workloads
