// Template definitions of LayerFactory.hpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "harness/Error.hpp"

namespace gpuscale::workloads {

template <class Work, class Hold>
double time_per_call_s(harness::Backend& backend, harness::Stream& stream, double wait_s, int reps, Work&& work,
                       Hold&& hold) {
  try {
    work();
    hold(kHoldPerCall_s * (reps + 2));
    auto timer = backend.create_timer();
    timer->start(stream);
    for (int i = 0; i < reps; ++i) work();
    timer->stop(stream);
    return timer->elapsed_s(harness::Deadline::after(wait_s)) / reps;
  } catch (const harness::OutOfMemoryError&) {
    throw;
  } catch (const harness::LibraryError&) {
    return std::numeric_limits<double>::infinity();
  }
}

template <class Run, class Hold>
std::vector<double> best_round_s(harness::Backend& backend, harness::Stream& stream, double wait_s, std::size_t count,
                                 int rounds, int reps, Run&& run, Hold&& hold) {
  std::vector<double> seconds(count, std::numeric_limits<double>::infinity());
  for (int round = 0; round < rounds; ++round)
    for (std::size_t i = 0; i < count; ++i)
      seconds[i] = std::min(seconds[i], time_per_call_s(backend, stream, wait_s, reps, [&] { run(i); }, hold));
  return seconds;
}

inline std::vector<std::size_t> settled_finalists(const std::vector<double>& short_s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < short_s.size(); ++i)
    if (short_s[i] < std::numeric_limits<double>::infinity()) out.push_back(i);
  std::stable_sort(out.begin(), out.end(), [&](std::size_t x, std::size_t y) { return short_s[x] < short_s[y]; });
  if (out.empty()) return out;
  const double cut = short_s[out.front()] * (1.0 + kSettledWithin);
  while (out.size() > kSettledFinalists || short_s[out.back()] > cut) out.pop_back();
  return out;
}

template <class Run>
std::size_t settled_fastest(harness::Backend& backend, harness::Stream& stream, double wait_s,
                            const std::vector<std::size_t>& finalists, const std::vector<double>& short_s,
                            double window_s, Run&& run) {
  auto calls_for = [&](std::size_t j) {
    return static_cast<int>(std::clamp(std::ceil(window_s / short_s[finalists[j]]), 1.0, kSettledMaxCalls));
  };
  for (int k = calls_for(0); k > 0; --k) run(finalists.front());
  std::vector<std::pair<std::size_t, std::unique_ptr<harness::Timer>>> windows;  // (finalist, its window)
  auto window = [&](std::size_t j) {
    windows.emplace_back(j, backend.create_timer());
    windows.back().second->start(stream);
    for (int k = calls_for(j); k > 0; --k) run(finalists[j]);
    windows.back().second->stop(stream);
  };
  for (std::size_t j = 0; j < finalists.size(); ++j) window(j);
  for (std::size_t j = finalists.size(); j-- > 0;) window(j);
  std::vector<double> total_s(finalists.size(), 0.0);
  for (const auto& [j, timer] : windows) total_s[j] += timer->elapsed_s(harness::Deadline::after(wait_s)) / calls_for(j);
  return finalists[static_cast<std::size_t>(std::min_element(total_s.begin(), total_s.end()) - total_s.begin())];
}

}  // namespace gpuscale::workloads
