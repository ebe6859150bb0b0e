#include "launch/Commands.hpp"

#include <array>
#include <deque>
#include <iostream>
#include <string>
#include <vector>

#include "harness/Error.hpp"
#include "launch/BaselineCommand.hpp"
#include "launch/PhaseTable.hpp"
#include "launch/ReportCommands.hpp"
#include "launch/ReportFiles.hpp"
#include "launch/base/Invocation.hpp"
#include "launch/base/ProjectionOptions.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/base/Spelling.hpp"

namespace gpuscale::launch {
namespace {

void file_inputs(cxxopts::Options& o) {
  o.add_options("input")("inputs", "run report(s) to read", cxxopts::value<std::vector<std::string>>());
  o.parse_positional({"inputs"});
  o.positional_help("RUN.json");
}

void report_options(cxxopts::Options& o) {
  file_inputs(o);
  o.add_options("report")("full", "print every table (one line per rank, every size) instead of the screen the run "
                                  "printed (the whole-job run's one-screen summary)");
}

void compare_options(cxxopts::Options& o) {
  file_inputs(o);
  o.add_options("compare")("tolerance", "relative change that counts as a regression", cxxopts::value<double>()->default_value("0.05"))
      ("allow-incomplete", "compare a run that did not finish (failed, interrupted or killed) on the figures it has")
      ("allow-missing", "list figures of BASE that NEW lacks without failing on them");
  o.positional_help("BASE.json NEW.json");
}

void baseline_options(cxxopts::Options& o) {
  file_inputs(o);
  o.add_options("baseline")("o,output", "write the baseline to FILE (atomically)", cxxopts::value<std::string>(), "FILE");
  o.positional_help("RUN.json... -o BASE.json");
}

// The whole-job run: every registered phase, in the registry's order (PhaseRegistry.def says why).
constexpr std::string_view kRunPhases[] = {
#define GPUSCALE_PHASE(name, ...) #name,
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
};

const CommandSpec kRunCommand{"run", "the default job: environment and checks, then every phase, then the report",
     "[run] [options]",
     "mpirun -np 8 gpuscale\n"
     "srun -N 4 --ntasks-per-node=8 --mpi=pmix gpuscale --json run.json\n"
     "gpuscale --device cpu --quick",
     kRunPhases, add_projection_options, nullptr, /*whole_job=*/true};

// The commands that read saved runs, listed after the phases' own.
const CommandSpec kSavedRunCommands[] = {
    {"report", "rebuild the table / CSV / HTML from a saved run (no GPU needed)", "report [options]",
     "gpuscale report run.json --html run.html\n"
     "gpuscale report run.json --full\n"
     "gpuscale report new.json --baseline base.json", {}, report_options, report_command, false, true,
     "it rebuilds the outputs of a saved run"},
    {"compare", "regressions between two runs; exit 1 past --tolerance and the runs' noise", "compare [options]",
     "gpuscale compare base.json new.json --tolerance 0.05", {}, compare_options, compare_command, false,
     /*judges_one_run=*/false, "it compares two saved runs, prints the comparison and exits 1 on a regression"},
    {"baseline", "median and spread per figure and machine shape over saved runs, for --baseline",
     "baseline RUN.json... -o BASE.json",
     "gpuscale baseline run1.json run2.json run3.json -o base.json\n"
     "gpuscale baseline fleet.json -o base.json",
     {}, baseline_options, make_baseline, false, /*judges_one_run=*/false,
     "the baseline is made from saved runs and goes to -o FILE"},
};

// Each phase's own command, from its PhaseSpec: env, then the phase (env alone for env), since every
// phase reads what env found. Built once; the spans point into storage that lives as long.
struct PhaseCommands {
  std::deque<std::string> usages;
  std::deque<std::array<std::string_view, 2>> phase_lists;
  std::vector<CommandSpec> table;
};

const PhaseCommands& command_table() {
  static const PhaseCommands built = [] {
    PhaseCommands c;
    c.table.push_back(kRunCommand);
    for (const auto& phase : phase_table()) {
      const auto& usage = c.usages.emplace_back(std::string(phase.name) + " [options]");
      const auto& list = c.phase_lists.emplace_back(std::array{std::string_view(results::phase::env), phase.name});
      const bool env_itself = phase.name == results::phase::env;
      c.table.push_back({phase.name, phase.summary, usage, phase.examples,
                         std::span(list.data(), env_itself ? 1 : 2), nullptr});
    }
    c.table.insert(c.table.end(), std::begin(kSavedRunCommands), std::end(kSavedRunCommands));
    return c;
  }();
  return built;
}

}  // namespace

std::span<const CommandSpec> commands() { return command_table().table; }

const CommandSpec* find_command(std::string_view name) {
  for (const auto& c : commands())
    if (c.name == name) return &c;
  return nullptr;
}

const CommandSpec& command_named(std::string_view name) {
  if (const auto* spec = find_command(name)) return *spec;
  std::vector<std::string> names;
  for (const auto& c : commands()) names.emplace_back(c.name);
  const auto guess = results::did_you_mean(name, names);
  if (!guess.empty()) throw harness::UsageError("unknown command '" + std::string(name) + "'" + guess);
  std::string listed;
  for (const auto& n : names) listed += (listed.empty() ? "" : ", ") + n;
  throw harness::UsageError("unknown command '" + std::string(name) + "'; commands: " + listed + " (gpuscale --help)");
}

const CommandSpec& default_command() { return commands().front(); }

std::vector<PhaseSpec> phases_for(std::string_view command) {
  std::vector<PhaseSpec> out;
  for (const auto name : command_named(command).phases) {
    const auto* phase = find_phase_spec(name);
    if (!phase)
      throw std::logic_error("command '" + std::string(command) + "' lists no phase '" + std::string(name) + "'");
    out.push_back(*phase);
  }
  return out;
}

void add_command_options(const CommandSpec& command, cxxopts::Options& options) {
  if (command.add_options) return command.add_options(options);
  for (const auto name : command.phases)
    if (const auto* phase = find_phase_spec(name); phase && phase->add_options) phase->add_options(options);
}

int run_offline_command(const Invocation& invocation) {
  try {
    const int code = find_command(invocation.command)->run_offline(invocation);
    return console_written() ? code : static_cast<int>(harness::ExitCode::runtime);
  } catch (const UsageError& e) {
    std::cerr << "gpuscale: error: " << e.what() << '\n';
    return static_cast<int>(harness::ExitCode::usage);
  } catch (const std::exception& e) {
    std::cerr << "gpuscale: error: " << e.what() << '\n';
    return static_cast<int>(harness::ExitCode::runtime);
  }
}

}  // namespace gpuscale::launch
