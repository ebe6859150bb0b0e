#pragma once
// Where this rank is, as the phases mark it: entering a phase or an operation updates the state
// (harness/ActivityState.hpp) and fires the test seams set for that point (FaultInjection).
#include <cstdint>
#include <optional>
#include <string_view>

#include "harness/ActivityState.hpp"

namespace gpuscale::harness {

// Starts a phase: clears op, size and iteration. Test seams (FaultInjection) fire here.
void enter_phase(std::string_view phase);
// Starts an operation within the current phase: clears the iteration. Test seams fire here too.
void enter_op(std::string_view op, std::optional<std::uint64_t> size_bytes = std::nullopt);

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
