#include "harness/detail/PeerLiveness.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace gpuscale::harness::detail {
namespace {

struct Stat {
  char state = '?';
  unsigned long long start_ticks = 0;
};

// /proc/PID/stat: "pid (comm) state ..."; the start time is field 22. comm may hold spaces and
// parentheses, so fields are counted from the last ')'.
bool read_stat(long pid, Stat& out) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!file || !std::getline(file, text)) return false;
  const auto close = text.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream fields(text.substr(close + 1));
  fields >> out.state;
  std::string skip;
  for (int field = 4; field < 22; ++field) fields >> skip;
  fields >> out.start_ticks;
  return static_cast<bool>(fields);
}

}  // namespace

ProcessId own_process() noexcept {
  ProcessId id;
  id.pid = static_cast<long>(::getpid());
  try {
    Stat stat;
    if (read_stat(id.pid, stat)) id.start_ticks = stat.start_ticks;
  } catch (...) {
  }
  return id;
}

ProcessState process_state(const ProcessId& process) noexcept {
  if (process.pid <= 0 || process.start_ticks == 0) return ProcessState::unknown;
  try {
    Stat stat;
    if (!read_stat(process.pid, stat) || stat.start_ticks != process.start_ticks) return ProcessState::gone;
    if (stat.state == 'Z' || stat.state == 'X' || stat.state == 'x') return ProcessState::gone;
    if (stat.state == 'T' || stat.state == 't') return ProcessState::stopped;
    return ProcessState::alive;
  } catch (...) {
    return ProcessState::unknown;
  }
}

}  // namespace gpuscale::harness::detail
