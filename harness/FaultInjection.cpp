#include "harness/FaultInjection.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "harness/ActivityState.hpp"
#include "harness/Backend.hpp"
#include "harness/Deadline.hpp"
#include "harness/Error.hpp"
#include "harness/Interrupts.hpp"

namespace gpuscale::harness {
namespace {

enum class FaultKind { stall, exit, kill, mark, hang };

struct Fault {
  FaultKind kind;
  std::string where;
};

// Set once at startup, read-only afterwards.
std::vector<Fault> faults;
std::vector<std::string> corrupted_buffers;
std::vector<InjectedProcess> foreign_processes;
int slow_node = -1;
bool hung_timers = false;  // a hang fault fired

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  for (;;) {
    const auto end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

int parse_rank(const std::string& text, const char* variable, const char* what = "rank") {
  char* end = nullptr;
  const long rank = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || rank < 0 || rank > 1 << 24)
    throw UsageError(std::string(variable) + ": " + what + " must be a number, got '" + text + "'");
  return static_cast<int>(rank);
}

std::string listed_places(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

// Refuses a name the seam would never meet: it would run the job without the fault, silently.
void require_known(const std::string& name, const std::vector<std::string>& known, const char* variable,
                   const char* what) {
  if (std::find(known.begin(), known.end(), name) == known.end())
    throw UsageError(std::string(variable) + ": unknown " + what + " '" + name + "' (" + listed_places(known) + ")");
}

FaultKind parse_kind(const std::string& text) {
  if (text == "stall") return FaultKind::stall;
  if (text == "exit") return FaultKind::exit;
  if (text == "kill") return FaultKind::kill;
  if (text == "mark") return FaultKind::mark;
  if (text == "hang") return FaultKind::hang;
  throw UsageError("GPUSCALE_TEST_FAULT: kind must be stall, exit, kill, mark or hang, got '" + text + "'");
}

}  // namespace

void configure_faults(int rank, const SeamPlaces& places) {
  faults.clear();
  corrupted_buffers.clear();
  foreign_processes.clear();
  if (const char* value = std::getenv("GPUSCALE_TEST_FAULT"); value && *value) {
    for (const auto& item : split(value, ',')) {
      const auto parts = split(item, ':');
      if (parts.size() != 3 || parts[2].empty())
        throw UsageError("GPUSCALE_TEST_FAULT: expected KIND:RANK:WHERE, got '" + item + "'");
      const FaultKind kind = parse_kind(parts[0]);
      require_known(parts[2], places.points, "GPUSCALE_TEST_FAULT", "place");
      if (kind == FaultKind::hang && parts[2] == "finish")
        throw UsageError("GPUSCALE_TEST_FAULT: hang at finish stops nothing: no device work follows it");
      if (parse_rank(parts[1], "GPUSCALE_TEST_FAULT") == rank) faults.push_back({kind, parts[2]});
    }
  }
  slow_node = -1;
  hung_timers = false;
  if (const char* value = std::getenv("GPUSCALE_TEST_SLOW_NODE"); value && *value)
    slow_node = parse_rank(value, "GPUSCALE_TEST_SLOW_NODE");
  if (const char* value = std::getenv("GPUSCALE_TEST_CORRUPT"); value && *value) {
    for (const auto& item : split(value, ',')) {
      const auto parts = split(item, ':');
      if (parts.size() != 2 || parts[1].empty())
        throw UsageError("GPUSCALE_TEST_CORRUPT: expected RANK:BUFFER, got '" + item + "'");
      require_known(parts[1], places.buffers, "GPUSCALE_TEST_CORRUPT", "buffer");
      if (parse_rank(parts[0], "GPUSCALE_TEST_CORRUPT") == rank) corrupted_buffers.push_back(parts[1]);
    }
  }
  if (const char* value = std::getenv("GPUSCALE_TEST_FOREIGN_PROCESS"); value && *value) {
    for (const auto& item : split(value, ',')) {
      const auto at = split(item, '@');
      const auto parts = split(at[0], ':');
      if (at.size() > 2 || (at.size() == 2 && at[1].empty()) || parts.size() != 3 ||
          (parts[1] != "compute" && parts[1] != "memory"))
        throw UsageError("GPUSCALE_TEST_FOREIGN_PROCESS: expected RANK:compute|memory:PID[@PHASE], got '" + item + "'");
      const int pid = parse_rank(parts[2], "GPUSCALE_TEST_FOREIGN_PROCESS", "PID");
      const std::string from = at.size() == 2 ? at[1] : "";
      if (!from.empty()) require_known(from, places.phases, "GPUSCALE_TEST_FOREIGN_PROCESS", "phase");
      if (parse_rank(parts[0], "GPUSCALE_TEST_FOREIGN_PROCESS") == rank)
        foreign_processes.push_back({parts[1] == "compute", pid, from, from.empty()});
    }
  }
}

std::vector<InjectedProcess> injected_foreign_processes() {
  std::vector<InjectedProcess> out;
  for (const auto& p : foreign_processes)
    if (p.appeared) out.push_back(p);
  return out;
}

namespace {

// Tests measure from this line to the last rank's exit: wall-clock seconds, written with write(2).
void announce(const Fault& fault) {
  static constexpr const char* kNames[] = {"stall", "exit", "kill", "mark", "hang"};
  const double now_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  char line[256];
  const int n = std::snprintf(line, sizeof line, "gpuscale test fault: %s at %s, t=%.3f\n",
                              kNames[static_cast<int>(fault.kind)], fault.where.c_str(), now_s);
  if (n <= 0) return;
  const auto length = std::min(static_cast<std::size_t>(n), sizeof line - 1);
  [[maybe_unused]] const auto written = ::write(2, line, length);
}

}  // namespace

void inject_fault_at(std::string_view point) {
  for (auto& p : foreign_processes)
    if (p.from_phase == point) p.appeared = true;
  for (const auto& fault : faults) {
    if (fault.where != point) continue;
    announce(fault);
    switch (fault.kind) {
      case FaultKind::stall:
        for (;;) ::pause();  // signals wake it, but it never returns: only SIGKILL ends it
      case FaultKind::exit:
        std::_Exit(0);
      case FaultKind::kill:
        std::raise(SIGKILL);
        break;
      case FaultKind::mark:
        break;
      case FaultKind::hang:
        hung_timers = true;
        break;
    }
  }
}

bool timers_hang() { return hung_timers; }

void wait_if_hung(const Deadline& deadline, std::string_view what) {
  if (!hung_timers) return;
  while (!deadline.expired()) {
    poll_interrupts();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  throw TimeoutError(error_location() + " timed out waiting for " + std::string(what) + " (" +
                     describe(current_activity()) + ")");
}

int slowed_node() { return slow_node; }

bool corruption_requested(std::string_view buffer) {
  for (const auto& name : corrupted_buffers)
    if (name == buffer) return true;
  return false;
}

void corrupt_if_requested(Backend& backend, Buffer& buffer, std::string_view name, const Deadline& deadline) {
  if (!corruption_requested(name) || buffer.bytes() < sizeof(std::uint32_t)) return;
  std::uint32_t word = 0;
  backend.download(&word, buffer, sizeof word, deadline);
  word ^= 0x80000000u;
  backend.upload(buffer, &word, sizeof word, deadline);
}

}  // namespace gpuscale::harness
