#include "harness/Activity.hpp"

#include <mutex>

#include "harness/FaultInjection.hpp"

namespace gpuscale::harness {
namespace {

// Read by the watchdog thread too, hence the lock.
std::mutex activity_mutex;
Activity activity;

}  // namespace

void enter_phase(std::string_view phase) {
  {
    std::lock_guard lock(activity_mutex);
    activity = Activity{std::string(phase), "", std::nullopt, std::nullopt};
  }
  inject_fault_at(phase);
}

void enter_op(std::string_view op, std::optional<std::uint64_t> size_bytes) {
  std::string point;
  {
    std::lock_guard lock(activity_mutex);
    activity.op = op;
    activity.size_bytes = size_bytes;
    activity.iteration.reset();
    point = activity.phase + "/" + activity.op;
  }
  inject_fault_at(point);
}

void set_iteration(std::int64_t iteration) {
  std::lock_guard lock(activity_mutex);
  activity.iteration = iteration;
}

Activity current_activity() {
  std::lock_guard lock(activity_mutex);
  return activity;
}

std::string describe(const Activity& a) {
  std::string out = "phase " + (a.phase.empty() ? std::string("startup") : a.phase);
  if (!a.op.empty()) out += ", op " + a.op;
  if (a.size_bytes) out += ", size " + std::to_string(*a.size_bytes) + " B";
  if (a.iteration) out += ", iteration " + std::to_string(*a.iteration);
  return out;
}

OpScope::OpScope(std::string_view op, std::optional<std::uint64_t> size_bytes) : previous_(current_activity()) {
  enter_op(op, size_bytes);
}

OpScope::~OpScope() {
  std::lock_guard lock(activity_mutex);
  activity.op = previous_.op;
  activity.size_bytes = previous_.size_bytes;
  activity.iteration = previous_.iteration;
}

}  // namespace gpuscale::harness
