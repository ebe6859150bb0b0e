// The command table's phase lists and the phase table: what each command runs, in order, the GPU
// policy and plan of each phase, and that a phase's knowledge stays in its folder and registry line.
#include "launch/Commands.hpp"
#include "launch/PhaseTable.hpp"
#include "launch/Phases.hpp"
#include "launch/RunPlanning.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/Error.hpp"
#include "launch/Commands.hpp"
#include "launch/Timeouts.hpp"
#include "launch/base/RunPlan.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch {
namespace {

std::vector<std::string> names(std::string_view command) {
  std::vector<std::string> out;
  for (const auto& p : phases_for(command)) out.emplace_back(p.name);
  return out;
}

using Names = std::vector<std::string>;

TEST(Phases, EachCommandRunsItsPhasesInOrder) {
  EXPECT_EQ(names("run"), (Names{"env", "links", "compute", "burn", "collectives", "train"}));
  EXPECT_EQ(names("env"), (Names{"env"}));
  EXPECT_EQ(names("compute"), (Names{"env", "compute"}));
  EXPECT_EQ(names("collectives"), (Names{"env", "collectives"}));
  EXPECT_EQ(names("train"), (Names{"env", "train"}));
  EXPECT_EQ(names("burn"), (Names{"env", "burn"}));
  EXPECT_EQ(names("links"), (Names{"env", "links"}));
  for (const char* offline : {"report", "compare", "baseline"}) {
    EXPECT_TRUE(names(offline).empty()) << offline;
    EXPECT_FALSE(command_named(offline).needs_world()) << offline;
    EXPECT_NE(command_named(offline).run_offline, nullptr) << offline;
  }
}

TEST(Phases, AnUnknownCommandIsRefused) {
  EXPECT_THROW(phases_for("frobnicate"), harness::UsageError);
  EXPECT_THROW(phases_for(""), harness::UsageError);
  EXPECT_THROW(command_named("help"), harness::UsageError);
}

TEST(Phases, EveryListedPhaseIsInTheTableAndEveryPhaseRunsSomewhere) {
  for (const auto& c : commands()) {
    EXPECT_EQ(c.needs_world(), c.run_offline == nullptr) << c.name;
    for (const auto name : c.phases) EXPECT_NE(find_phase_spec(name), nullptr) << c.name << ": " << name;
  }
  // The whole-job run runs every phase, in the table's order.
  Names all;
  for (const auto& p : phase_table()) all.emplace_back(p.name);
  EXPECT_EQ(names(default_command().name), all);
  EXPECT_EQ(find_phase_spec("nope"), nullptr);
}

TEST(Phases, GpuPolicy) {
  for (const auto& p : phase_table()) {
    EXPECT_NE(p.run, nullptr) << p.name;
    EXPECT_GT(p.budget_weight, 0) << p.name;
    // Only env runs when an env check blocks GPU work; only burn runs beside another process.
    EXPECT_EQ(p.needs_gpu_work, p.name != "env") << p.name;
    EXPECT_EQ(p.runs_on_shared_gpu, p.name == "burn") << p.name;
  }
}

TEST(Phases, OnlyTheWholeJobRunKeepsABudget) {
  for (const auto& c : commands()) EXPECT_EQ(c.whole_job, c.name == "run") << c.name;
  EXPECT_EQ(&default_command(), &command_named("run"));
}

// A command's plan holds exactly the parts of the phases it runs.
TEST(Phases, ThePlanHoldsThePhasesOfItsCommand) {
  for (const auto& c : commands()) {
    if (!c.needs_world()) continue;
    Invocation invocation;
    invocation.command = std::string(c.name);
    const auto plan = resolve_run_plan(invocation, true);
    const auto runs = [&](const char* phase) {
      for (const auto n : c.phases)
        if (n == phase) return true;
      return false;
    };
    for (const auto& p : phase_table())
      EXPECT_EQ(plan.has(p.name), runs(std::string(p.name).c_str()) && p.plan != nullptr) << c.name << ": " << p.name;
  }
}

// --- A phase's knowledge stays in its folder and its registry line. ---

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::filesystem::path kLaunch = std::filesystem::path(GPUSCALE_SOURCE_DIR) / "launch";
const std::filesystem::path kRegistry = std::filesystem::path(GPUSCALE_SOURCE_DIR) / "results/base/PhaseRegistry.def";

// The names of results/base/PhaseRegistry.def's lines, in order.
Names registry_names() {
  Names out;
  std::istringstream lines(read_file(kRegistry));
  const std::regex line(R"(^GPUSCALE_PHASE\(([a-z0-9_]+)[,)].*$)");
  std::smatch m;
  for (std::string text; std::getline(lines, text);)
    if (std::regex_match(text, m, line)) out.push_back(m[1]);
  return out;
}

// The table is the registry: one spec per line, named as its folder, and a folder per line only.
TEST(Phases, TheTableIsTheRegistryAndEachPhaseItsFolder) {
  const auto registered = registry_names();
  ASSERT_FALSE(registered.empty()) << "no GPUSCALE_PHASE line in " << kRegistry;
  Names table;
  for (const auto& p : phase_table()) table.emplace_back(p.name);
  EXPECT_EQ(table, registered);
  const auto phases = kLaunch.parent_path() / "phases";
  Names folders;
  for (const auto& entry : std::filesystem::directory_iterator(phases))
    if (entry.is_directory()) folders.push_back(entry.path().filename().string());
  std::sort(folders.begin(), folders.end());
  auto sorted = registered;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(folders, sorted) << "phases/ holds a folder per registered phase, and no other";
  for (const auto& name : registered)
    EXPECT_TRUE(std::filesystem::is_directory(phases / name / "run")) << "phases/" << name << "/run/: its running half";
  for (const auto& p : phase_table()) {
    EXPECT_GT(p.timeout_s, 0) << p.name;
    EXPECT_EQ(p.plan != nullptr, p.describe != nullptr) << p.name << ": a plan is on the start-up line";
  }
}

// --timeout takes exactly the table's names, each with its phase's default, and names them when refused.
TEST(Phases, TimeoutsAreTheTablesPhases) {
  const PhaseTimeouts defaults;
  std::string listed;
  for (const auto& p : phase_table()) {
    const std::string name(p.name);
    listed += (listed.empty() ? "" : ", ") + name;
    EXPECT_DOUBLE_EQ(defaults.for_phase(name), p.timeout_s) << name;
    const auto set = parse_timeouts(name + "=4321");
    for (const auto& other : phase_table())
      EXPECT_DOUBLE_EQ(set.for_phase(other.name), other.name == p.name ? 4321 : other.timeout_s) << name;
  }
  EXPECT_DOUBLE_EQ(defaults.bootstrap_s(), phase_table().front().timeout_s);
  try {
    parse_timeouts("nope=1");
    ADD_FAILURE() << "accepted an unknown phase";
  } catch (const harness::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("(phases: " + listed + ")"), std::string::npos) << e.what();
  }
}

// The start-up line has a part for every planned phase, in the table's order, led by its name.
TEST(Phases, TheStartupLineCoversEveryPlannedPhase) {
  Invocation invocation;
  invocation.command = std::string(default_command().name);
  const auto plan = resolve_run_plan(invocation, true);
  std::string parts;
  for (const auto& p : phase_table())
    if (p.plan) parts += (parts.empty() ? "" : "; ") + p.describe(plan);
  EXPECT_EQ(describe(plan), plan.profile.name + " (budget " + results::fixed(plan.profile.budget_s, 0) + " s): " + parts);
  for (const auto& p : phase_table()) {
    if (!p.plan) continue;
    EXPECT_EQ(p.describe(plan).rfind(std::string(p.name) + " ", 0), 0u) << p.describe(plan);
  }
}

// The code of a file, its comments left out.
std::string code_of(const std::string& text) {
  std::string code;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) code += line.substr(0, line.find("//")) + '\n';
  return code;
}

// No file of launch/ outside the phase folders names a phase as a string in its code, the command table
// included (each phase's command comes from its spec): a second list of phases is a leak.
TEST(Phases, NoFileOutsideItsFolderNamesAPhase) {
  std::size_t read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kLaunch)) {
    const auto file = entry.path().filename().string();
    if (!entry.is_regular_file()) continue;
    if (entry.path().extension() != ".cpp" && entry.path().extension() != ".hpp") continue;
    const auto text = code_of(read_file(entry.path()));
    ++read;
    for (const auto& p : phase_table())
      EXPECT_EQ(text.find("\"" + std::string(p.name) + "\""), std::string::npos)
          << "launch/" << file << " names the phase \"" << p.name << "\"; it belongs in phases/" << p.name << "/";
  }
  EXPECT_GT(read, 10u);
}

}  // namespace
}  // namespace gpuscale::launch
