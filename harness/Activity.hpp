#pragma once
// What this rank is doing right now (phase, operation, size, iteration), so that a timeout, an error
// or a signal can say where it struck. Phases set it; the error path reads it. Local to the rank,
// cheap enough to update every iteration (no allocation when only the iteration changes).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuscale::harness {

struct Activity {
  std::string phase;                         // "env", "collectives", ...
  std::string op;                            // "smoke-allreduce", "allreduce", ... empty between ops
  std::optional<std::uint64_t> size_bytes;   // the message or tensor size the op works on
  std::optional<std::int64_t> iteration;     // 0-based; negative for warm-up where phases say so
};

// Starts a phase: clears op, size and iteration. Test seams (FaultInjection) fire here.
void enter_phase(std::string_view phase);
// Starts an operation within the current phase: clears the iteration. Test seams fire here too.
void enter_op(std::string_view op, std::optional<std::uint64_t> size_bytes = std::nullopt);
void set_iteration(std::int64_t iteration);

Activity current_activity();
// "phase env, op smoke-allreduce, size 4194304 B, iteration 1"; only the parts that are set.
std::string describe(const Activity& activity);

// Sets op and size for its lifetime and restores the previous op afterwards.
class OpScope {
 public:
  OpScope(std::string_view op, std::optional<std::uint64_t> size_bytes = std::nullopt);
  ~OpScope();
  OpScope(const OpScope&) = delete;
  OpScope& operator=(const OpScope&) = delete;

 private:
  Activity previous_;
};

}  // namespace gpuscale::harness
