#include "harness/Activity.hpp"

#include "harness/FaultInjection.hpp"

namespace gpuscale::harness {

void enter_phase(std::string_view phase) {
  set_activity(Activity{std::string(phase), "", std::nullopt, std::nullopt});
  inject_fault_at(phase);
}

void enter_op(std::string_view op, std::optional<std::uint64_t> size_bytes) {
  Activity a = current_activity();  // one writer, this thread: no other update between the two calls
  a.op = op;
  a.size_bytes = size_bytes;
  a.iteration.reset();
  const std::string point = a.phase + "/" + a.op;
  set_activity(std::move(a));
  inject_fault_at(point);
}

OpScope::OpScope(std::string_view op, std::optional<std::uint64_t> size_bytes) : previous_(current_activity()) {
  enter_op(op, size_bytes);
}

OpScope::~OpScope() {
  Activity a = current_activity();
  a.op = previous_.op;
  a.size_bytes = previous_.size_bytes;
  a.iteration = previous_.iteration;
  set_activity(std::move(a));
}

}  // namespace gpuscale::harness
