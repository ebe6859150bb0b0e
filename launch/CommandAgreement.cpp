#include "launch/CommandAgreement.hpp"

#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <vector>

#include "harness/Error.hpp"
#include "results/world/Emulation.hpp"

namespace gpuscale::launch {
namespace {

// The environment that lays out the job's nodes (results/world/Emulation.hpp): World splits the ranks
// into nodes by each rank's own value, so ranks that differ would each see another job.
std::string layout_environment() {
  std::string text;
  for (const char* name : {results::kRanksPerNodeVariable, results::kShareGpuVariable}) {
    const char* value = std::getenv(name);
    text += (text.empty() ? "" : " ") + std::string(name) + (value ? "=" + std::string(value) : " unset");
  }
  return text;
}

// What each rank sends rank 0: "E" + its usage line, or "C" + its layout environment + '\n' +
// fingerprint + '\n' + command line.
std::string statement(const Invocation& invocation, const std::string& usage_error) {
  if (!usage_error.empty()) return "E" + harness::error_location() + " " + usage_error;
  return "C" + layout_environment() + '\n' + invocation.fingerprint + '\n' + invocation.command_line;
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

// Rank 0: the ranks grouped by `key` of their statements; "" when they all agree, else the line that
// names what rank 0 has and what the others have (`said` says it: "runs 'X'", "has X").
std::string disagreement(const std::vector<std::string>& statements, const std::string& subject,
                         const std::function<std::string(const std::string&)>& key,
                         const std::function<std::string(const std::string&, bool plural)>& said) {
  std::map<std::string, std::vector<int>> groups;  // key -> ranks
  for (std::size_t r = 0; r < statements.size(); ++r) groups[key(statements[r])].push_back(static_cast<int>(r));
  if (groups.size() == 1) return "";
  std::string line = "every rank must be started with the same " + subject + "; rank 0 " + said(statements[0], false);
  for (const auto& [k, ranks] : groups) {
    if (k == key(statements[0])) continue;
    line += ", but rank" + std::string(ranks.size() > 1 ? "s " : " ") + rank_list(ranks) + " " +
            said(statements[static_cast<std::size_t>(ranks.front())], ranks.size() > 1);
  }
  return line;
}

// Rank 0: the one line that stops the job, or "" when every rank agrees.
std::string stopping_line(const std::vector<std::string>& statements) {
  for (std::size_t r = 0; r < statements.size(); ++r) {
    const auto& s = statements[r];
    if (!s.empty() && s[0] == 'E') {
      // Rank 0's own line reads as it always has; another rank's names where it was found.
      const auto line = s.substr(1), location = harness::error_location() + " ";
      return r == 0 && line.rfind(location, 0) == 0 ? line.substr(location.size()) : line;
    }
  }
  const auto layout = [](const std::string& s) { return s.substr(1, s.find('\n') - 1); };
  const auto rest = [](const std::string& s) { return s.substr(s.find('\n') + 1); };
  const auto fingerprint = [&](const std::string& s) { return rest(s).substr(0, rest(s).find('\n')); };
  const auto command = [&](const std::string& s) { return rest(s).substr(rest(s).find('\n') + 1); };
  if (auto line = disagreement(statements, "node layout (" + std::string(results::kRanksPerNodeVariable) + ", " +
                                               results::kShareGpuVariable + ")",
                               layout, [&](const std::string& s, bool plural) { return (plural ? "have " : "has ") + layout(s); });
      !line.empty())
    return line;
  return disagreement(statements, "command", fingerprint, [&](const std::string& s, bool plural) {
    return std::string(plural ? "run '" : "runs '") + command(s) + "'";
  });
}

}  // namespace

bool agree_on_command(const harness::World& world, const Invocation& invocation, const std::string& usage_error,
                      const harness::Deadline& deadline) {
  const auto statements = world.gather_to_root(statement(invocation, usage_error), deadline);
  std::string problem = world.rank() == 0 ? stopping_line(statements) : std::string();
  problem = world.broadcast_from_root(problem, deadline);
  if (problem.empty()) return true;
  if (world.rank() == 0) std::cerr << "gpuscale: error: " + problem + "\n" << std::flush;
  return false;
}

}  // namespace gpuscale::launch
