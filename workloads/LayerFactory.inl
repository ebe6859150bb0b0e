// Template definitions of LayerFactory.hpp.
#include <limits>

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

}  // namespace gpuscale::workloads
