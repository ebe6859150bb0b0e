#pragma once
// What this rank is doing right now (phase, operation, size, iteration), so that a timeout, an error
// or a signal can say where it struck. The state alone: the rank's main thread writes it (through
// harness/Activity.hpp, where test seams fire), the error paths and the watchdog thread read it.
// Local to the rank, cheap enough to update every iteration.
#include <cstdint>
#include <optional>
#include <string>

namespace gpuscale::harness {

struct Activity {
  std::string phase;                         // "env", "collectives", ...
  std::string op;                            // "smoke-allreduce", "allreduce", ... empty between ops
  std::optional<std::uint64_t> size_bytes;   // the message or tensor size the op works on
  std::optional<std::int64_t> iteration;     // 0-based; negative for warm-up where phases say so
};

Activity current_activity();
void set_activity(Activity activity);
void set_iteration(std::int64_t iteration);
// "phase env, op smoke-allreduce, size 4194304 B, iteration 1"; only the parts that are set.
std::string describe(const Activity& activity);

}  // namespace gpuscale::harness
