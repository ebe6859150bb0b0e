#include "harness/ActivityState.hpp"

#include <mutex>

namespace gpuscale::harness {
namespace {

// Read by the watchdog thread too, hence the lock.
std::mutex activity_mutex;
Activity ongoing;

}  // namespace

Activity current_activity() {
  std::lock_guard lock(activity_mutex);
  return ongoing;
}

void set_activity(Activity activity) {
  std::lock_guard lock(activity_mutex);
  ongoing = std::move(activity);
}

void set_iteration(std::int64_t iteration) {
  std::lock_guard lock(activity_mutex);
  ongoing.iteration = iteration;
}

std::string describe(const Activity& a) {
  std::string out = "phase " + (a.phase.empty() ? std::string("startup") : a.phase);
  if (!a.op.empty()) out += ", op " + a.op;
  if (a.size_bytes) out += ", size " + std::to_string(*a.size_bytes) + " B";
  if (a.iteration) out += ", iteration " + std::to_string(*a.iteration);
  return out;
}

}  // namespace gpuscale::harness
