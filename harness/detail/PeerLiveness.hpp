#pragma once
// Internal to harness: what this host's /proc says about another rank's process, so that the roll
// call can tell a rank that died or was stopped from one that is merely slow. Only ranks on this
// host whose process this rank could see at start-up are watched; the others stay "unknown".
#include <string>

namespace gpuscale::harness::detail {

enum class ProcessState { unknown, alive, stopped, gone };

// The identity of a process: pid and start time (clock ticks since boot), so a recycled pid is not
// mistaken for the rank's process.
struct ProcessId {
  long pid = 0;
  unsigned long long start_ticks = 0;
};

ProcessId own_process() noexcept;
// gone: no such process, a zombie, or another process by now; stopped: SIGSTOP or a tracer.
ProcessState process_state(const ProcessId& process) noexcept;

}  // namespace gpuscale::harness::detail
