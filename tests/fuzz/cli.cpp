// libFuzzer target: the command line. The input is split at NUL bytes into arguments. Any argv may be
// rejected with harness::UsageError; nothing else may escape, and what is accepted must be sane.
#include "launch/Cli.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/Error.hpp"
#include "launch/Commands.hpp"
#include "launch/PhaseTable.hpp"
#include "launch/Phases.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args = {"gpuscale"};
  std::string current;
  for (std::size_t i = 0; i < size && args.size() < 64; ++i) {
    if (data[i] == '\0') {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (!current.empty()) args.push_back(current);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    const auto inv = gpuscale::launch::parse_command_line(static_cast<int>(argv.size()), argv.data());
    if (inv.show_help && inv.help_text.empty()) __builtin_trap();
    const auto& t = inv.common.timeouts;
    for (const auto& phase : gpuscale::launch::phase_table()) {
      const double s = t.for_phase(phase.name);
      if (!inv.show_help && !inv.show_version && !(s > 0 && std::isfinite(s))) __builtin_trap();
    }
  } catch (const gpuscale::harness::UsageError& e) {
    if (std::string(e.what()).empty()) __builtin_trap();
  }
  return 0;
}
