#include "launch/CommandAgreement.hpp"

#include <iostream>
#include <map>
#include <vector>

#include "harness/Error.hpp"

namespace gpuscale::launch {
namespace {

// What each rank sends rank 0: "E" + its usage line, or "C" + fingerprint + '\n' + command line.
std::string statement(const Invocation& invocation, const std::string& usage_error) {
  if (!usage_error.empty()) return "E" + harness::error_location() + " " + usage_error;
  return "C" + invocation.fingerprint + '\n' + invocation.command_line;
}

// "1", "1-3", "1,4-5": ranks listed compactly.
std::string rank_list(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(ranks[i]) + (j > i ? "-" + std::to_string(ranks[j]) : "");
    i = j + 1;
  }
  return out;
}

// Rank 0: the one line that stops the job, or "" when every rank agrees.
std::string judge(const std::vector<std::string>& statements) {
  for (std::size_t r = 0; r < statements.size(); ++r) {
    const auto& s = statements[r];
    if (!s.empty() && s[0] == 'E') {
      // Rank 0's own line reads as it always has; another rank's names where it was found.
      const auto line = s.substr(1), location = harness::error_location() + " ";
      return r == 0 && line.rfind(location, 0) == 0 ? line.substr(location.size()) : line;
    }
  }
  const auto fingerprint = [](const std::string& s) { return s.substr(0, s.find('\n')); };
  const auto command = [](const std::string& s) { return s.substr(s.find('\n') + 1); };
  std::map<std::string, std::vector<int>> groups;  // fingerprint -> ranks
  for (std::size_t r = 0; r < statements.size(); ++r) groups[fingerprint(statements[r])].push_back(static_cast<int>(r));
  if (groups.size() == 1) return "";
  std::string line = "every rank must be started with the same command; rank 0 runs '" + command(statements[0]) + "'";
  for (const auto& [key, ranks] : groups) {
    if (key == fingerprint(statements[0])) continue;
    line += ", but rank" + std::string(ranks.size() > 1 ? "s " : " ") + rank_list(ranks) + " run" +
            (ranks.size() > 1 ? " '" : "s '") + command(statements[static_cast<std::size_t>(ranks.front())]) + "'";
  }
  return line;
}

}  // namespace

bool agree_on_command(const harness::World& world, const Invocation& invocation, const std::string& usage_error,
                      const harness::Deadline& deadline) {
  const auto statements = world.gather_to_root(statement(invocation, usage_error), deadline);
  std::string problem = world.rank() == 0 ? judge(statements) : std::string();
  problem = world.broadcast_from_root(problem, deadline);
  if (problem.empty()) return true;
  if (world.rank() == 0) std::cerr << "gpuscale: error: " + problem + "\n" << std::flush;
  return false;
}

}  // namespace gpuscale::launch
