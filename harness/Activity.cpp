#include "harness/Activity.hpp"

#include <mutex>

#include "harness/FaultInjection.hpp"

namespace gpuscale::harness {
namespace {

// Read by the watchdog thread too, hence the lock.
std::mutex activity_mutex;
Activity ongoing;

}  // namespace

void enter_phase(std::string_view phase) {
  {
    std::lock_guard lock(activity_mutex);
    ongoing = Activity{std::string(phase), "", std::nullopt, std::nullopt};
  }
  inject_fault_at(phase);
}

void enter_op(std::string_view op, std::optional<std::uint64_t> size_bytes) {
  std::string point;
  {
    std::lock_guard lock(activity_mutex);
    ongoing.op = op;
    ongoing.size_bytes = size_bytes;
    ongoing.iteration.reset();
    point = ongoing.phase + "/" + ongoing.op;
  }
  inject_fault_at(point);
}

void set_iteration(std::int64_t iteration) {
  std::lock_guard lock(activity_mutex);
  ongoing.iteration = iteration;
}

Activity current_activity() {
  std::lock_guard lock(activity_mutex);
  return ongoing;
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
  ongoing.op = previous_.op;
  ongoing.size_bytes = previous_.size_bytes;
  ongoing.iteration = previous_.iteration;
}

}  // namespace gpuscale::harness
