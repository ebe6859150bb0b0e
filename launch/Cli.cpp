#include "launch/Cli.hpp"

#include <algorithm>
#include <sstream>

#include "harness/BackendSelect.hpp"
#include "harness/Error.hpp"
#include "harness/World.hpp"
#include "launch/Commands.hpp"
#include "launch/Outputs.hpp"
#include "launch/ReportFiles.hpp"
#include "launch/Timeouts.hpp"
#include "launch/base/OptionValue.hpp"
#include "launch/base/Profile.hpp"
#include "results/base/Format.hpp"
#include "results/base/Spelling.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::launch {
namespace {

using harness::UsageError;

// "60 s; 120 s on the CPU backend": the stated budget of the default run or of --quick.
std::string budget_text(bool quick) {
  const double gpu_s = make_profile(quick, false).budget_s, cpu_s = make_profile(quick, true).budget_s;
  std::string text = results::fixed(gpu_s, 0) + " s";
  if (cpu_s != gpu_s) text += "; " + results::fixed(cpu_s, 0) + " s on the CPU backend";
  return text;
}

// The group of the common options a command refuses: parsed, so that the refusal names the option,
// and left out of its --help, which lists only what the command takes.
constexpr const char* kRefusedGroup = "refused";

// Why the common option `name` does not apply to `spec`, "" where it does: a live run's options on a
// command that reads saved runs; the report files and --baseline on one that judges no single run.
std::string refusal(const CommandSpec& spec, std::string_view name) {
  const auto in = [name](const auto& list) {
    return std::any_of(std::begin(list), std::end(list), [name](const char* n) { return name == n; });
  };
  if (!spec.needs_world() && in(kLiveRunOptions)) return std::string(spec.offline_work);
  if (spec.judges_one_run) return "";
  if (in(report_file_options())) return std::string(spec.offline_work);
  if (name == "baseline" || name == "baseline-tolerance")
    return "it judges one run (gpuscale report RUN.json --baseline BASE.json)";
  if (name == "straggler-threshold") return "it judges one run (gpuscale report RUN.json --straggler-threshold F)";
  return "";
}

void add_common_options(const CommandSpec& spec, cxxopts::Options& o) {
  const auto add = [&](const char* name) {
    return o.add_options(refusal(spec, name).empty() ? "common" : kRefusedGroup);
  };
  o.add_options("common")("h,help", "show this help and exit")("version", "print the version and exit");
  add("device")(
      "device",
      "auto | cuda | cpu (auto: cuda where a GPU is visible, cpu with a warning on a node without NVIDIA GPUs)",
      cxxopts::value<std::string>()->default_value("auto"));
  for (const auto& out : outputs())
    add(out.option)(out.option, out.help, cxxopts::value<std::string>(), out.write_folder ? "DIR" : "FILE");
  add("expect")("expect", "thresholds for the verdict, from a JSON FILE", cxxopts::value<std::string>(), "FILE");
  add("baseline")("baseline", "judge every figure and check against a baseline FILE (made by gpuscale baseline)",
                  cxxopts::value<std::string>(), "FILE");
  add("baseline-tolerance")("baseline-tolerance",
                            "tolerance of a figure for --baseline, replacing the one from its recorded spread; "
                            "KEY is METRIC, PHASE/METRIC or PHASE/METRIC/LABELS (repeatable)",
                            cxxopts::value<std::vector<std::string>>(), "KEY=FRAC");
  add("timeout")(
      "timeout",
      "seconds any single wait may take before the job is aborted: S for every phase, or "
      "PHASE=S,... (default " +
          describe(PhaseTimeouts{}) + "; at most " + std::to_string(static_cast<long long>(kMaxTimeoutS)) + ", a week)",
      cxxopts::value<std::string>(), "S|PHASE=S,...");
  add("quick")("quick", "a short preflight (budget " + budget_text(true) + ") instead of the default run (" +
                            budget_text(false) + ")");
  add("quiet")("quiet", "no progress on stderr");
  add("require-complete")("require-complete",
                          "fail the verdict when work the job needed was not measured (collectives or DDP over more "
                          "than one GPU dropped for the budget, a phase not run) instead of warning");
  add("seed")("seed", "seed of the random inputs", cxxopts::value<unsigned long long>()->default_value("1"));
  add("straggler-threshold")(
      "straggler-threshold",
      "flag a GPU, rank or node slower than the job's median by more than this fraction (default " +
          results::shortest(results::kDefaultStragglerThreshold) +
          "): stragglers in compute and training, slow burn, links and memory, fleet outliers; report re-judges "
          "a saved run with it",
      cxxopts::value<double>(), "F");
}

// The long names of `options`; with `listed_only`, only those its --help lists.
std::vector<std::string> long_names(const cxxopts::Options& options, bool listed_only) {
  std::vector<std::string> names;
  for (const auto& group : options.groups()) {
    if (listed_only && group == kRefusedGroup) continue;
    for (const auto& option : options.group_help(group).options) names.insert(names.end(), option.l.begin(), option.l.end());
  }
  return names;
}

// A misspelt long option is named with the nearest one the command takes ("unknown option --quik (did
// you mean --quick?)"); cxxopts would say only that it does not exist. Arguments after "--" are not options.
void refuse_unknown_options(const std::string& command, const cxxopts::Options& options,
                            const std::vector<const char*>& args) {
  const auto known = long_names(options, false);
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--") return;
    if (arg.size() < 3 || arg.substr(0, 2) != "--") continue;
    const auto name = arg.substr(2, arg.find('=') - 2);
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    throw UsageError("gpuscale " + command + ": unknown option --" + std::string(name) +
                     results::did_you_mean(name, long_names(options, true), "--") + " (gpuscale " + command + " --help)");
  }
}

// The first option given that the command refuses (refusal()): taking it silently and doing nothing
// with it would hide a command line that is not what its author thinks.
void refuse_inapplicable(const CommandSpec& spec, const cxxopts::ParseResult& r) {
  for (const auto& kv : r.arguments())
    if (const auto why = refusal(spec, kv.key()); !why.empty())
      throw UsageError("gpuscale " + std::string(spec.name) + ": --" + kv.key() + " does not apply here; " + why);
}

std::string commands_overview() {
  std::ostringstream out;
  out << "gpuscale: GPU cluster preflight and scaling benchmark (launch one rank per GPU with mpirun or srun)\n\n"
         "Usage: gpuscale [COMMAND] [options]\n\nCommands:\n";
  for (const auto& c : commands())
    out << "  " << c.name << std::string(14 - c.name.size(), ' ') << c.summary << '\n';
  out << "\nRun `gpuscale COMMAND --help` for a command's options.\n"
         "Exit codes: 0 ok, 1 verdict failed, 2 bad usage or input, 3 runtime error, 4 interrupted.\n";
  return out.str();
}

std::vector<std::string> listed_groups(const cxxopts::Options& options) {
  std::vector<std::string> groups;
  for (const auto& group : options.groups())
    if (group != kRefusedGroup) groups.push_back(group);
  return groups;
}

std::string help_for(const CommandSpec& spec, cxxopts::Options& options) {
  std::ostringstream out;
  out << "gpuscale " << spec.name << ": " << spec.summary << "\n\n"
      << options.help(listed_groups(options)) << "\nExamples:\n";
  std::istringstream lines{std::string(spec.examples)};
  for (std::string line; std::getline(lines, line);) out << "  " << line << '\n';
  if (&spec == &default_command()) out << '\n' << commands_overview();
  return out.str();
}

template <class T>
T value_or(const cxxopts::ParseResult& r, const char* name, T fallback) {
  return r.count(name) ? r[name].as<T>() : fallback;
}

// A file option given with an empty name is a mistake (an unset shell variable), not "no file".
std::string file_option(const cxxopts::ParseResult& r, const char* name) {
  const auto path = value_or<std::string>(r, name, "");
  if (r.count(name) && path.empty()) throw UsageError(std::string("--") + name + " needs a file name, not an empty one");
  return path;
}

// cxxopts keeps the last of an option given twice; for an option that holds one value (an output
// path, a size, a count) that silently drops what the user asked for first. Lists and flags may repeat.
void refuse_repeated_values(const std::string& command, const cxxopts::Options& options, const cxxopts::ParseResult& r) {
  for (const auto& group : options.groups()) {
    for (const auto& option : options.group_help(group).options) {
      if (option.is_container || option.is_boolean || option.l.empty()) continue;
      const std::string& name = option.l.front();
      if (r.count(name) < 2) continue;
      std::string values;
      for (const auto& kv : r.arguments())
        if (kv.key() == name) values += (values.empty() ? "" : ", ") + kv.value();
      throw UsageError("gpuscale " + command + ": --" + name + " given " + std::to_string(r.count(name)) +
                       " times (" + values + "); it takes one value, give it once");
    }
  }
}

// The command and every option as given, by long name, sorted by name (a name's values keep their
// order): `-b 8 --json a` and `--json a --minbytes 8` ask for the same thing.
std::string fingerprint(const std::string& command, const cxxopts::ParseResult& r) {
  auto given = r.arguments();
  std::stable_sort(given.begin(), given.end(), [](const auto& a, const auto& b) { return a.key() < b.key(); });
  std::string out = command;
  for (const auto& kv : given) out += '\x1f' + kv.key() + '=' + kv.value();
  return out;
}

void validate(const CommandSpec& spec, const CommonOptions& c) {
  const std::string command(spec.name);
  if (!c.baseline_tolerances.empty() && c.baseline_path.empty())
    throw UsageError("gpuscale " + command + ": --baseline-tolerance needs --baseline FILE");
  if (!c.baseline_path.empty() && !spec.judges_one_run)
    throw UsageError("gpuscale " + command + ": --baseline does not apply here; it judges one run (gpuscale report RUN.json "
                     "--baseline BASE.json)");
  try {
    harness::parse_device_choice(c.device);
  } catch (const UsageError& e) {
    throw UsageError("gpuscale " + command + ": " + e.what());
  }
}

}  // namespace

Invocation parse_command_line(int argc, const char* const* argv) {
  Invocation inv;
  for (int i = 0; i < argc; ++i) inv.command_line += (i ? " " : "") + std::string(argv[i]);

  int first = 1;
  inv.command = default_command().name;
  if (argc > 1 && argv[1][0] != '-') {
    inv.command = argv[1];
    first = 2;
  }
  if (inv.command == "help") {  // not a command: the overview, as `gpuscale --help` ends
    inv.show_help = true;
    inv.help_text = commands_overview();
    return inv;
  }
  const CommandSpec* spec = &command_named(inv.command);

  cxxopts::Options options("gpuscale", "");
  options.custom_help(std::string(spec->usage));
  add_common_options(*spec, options);
  add_command_options(*spec, options);

  std::vector<const char*> args = {argv[0]};
  for (int i = first; i < argc; ++i) args.push_back(argv[i]);
  refuse_unknown_options(inv.command, options, args);
  try {
    inv.options = options.parse(static_cast<int>(args.size()), args.data());
  } catch (const cxxopts::exceptions::no_such_option& e) {  // a short one: "option 'q' does not exist"
    const auto text = usage_text(e);
    const auto open = text.find('\''), close = text.rfind('\'');
    const auto name = open < close ? text.substr(open + 1, close - open - 1) : text;
    throw UsageError("gpuscale " + inv.command + ": unknown option " + (name.size() == 1 ? "-" : "--") + name +
                     " (gpuscale " + inv.command + " --help)");
  } catch (const cxxopts::exceptions::exception& e) {
    throw UsageError("gpuscale " + inv.command + ": " + usage_text(e) + " (gpuscale " + inv.command + " --help)");
  }
  const auto& r = inv.options;
  if (!r.unmatched().empty())
    throw UsageError("gpuscale " + inv.command + ": unexpected argument '" + r.unmatched().front() + "'");
  inv.show_help = r.count("help") > 0;
  inv.show_version = r.count("version") > 0;
  if (inv.show_help) inv.help_text = help_for(*spec, options);
  if (inv.show_help || inv.show_version) return inv;
  refuse_inapplicable(*spec, r);
  refuse_repeated_values(inv.command, options, r);
  inv.fingerprint = fingerprint(inv.command, r);

  auto& c = inv.common;
  try {
    c.device = r["device"].as<std::string>();
    for (const auto& out : outputs()) c.*out.path = file_option(r, out.option);
    c.expect_path = file_option(r, "expect");
    c.baseline_path = file_option(r, "baseline");
    if (r.count("baseline-tolerance")) c.baseline_tolerances = r["baseline-tolerance"].as<std::vector<std::string>>();
    if (r.count("timeout")) c.timeouts = parse_timeouts(r["timeout"].as<std::string>());
    c.quick = r.count("quick") > 0;
    c.quiet = r.count("quiet") > 0;
    c.require_complete = r.count("require-complete") > 0;
    c.seed = r["seed"].as<unsigned long long>();
    c.straggler_threshold = straggler_threshold_option(r);
    if (r.count("inputs")) inv.positional = r["inputs"].as<std::vector<std::string>>();
  } catch (const cxxopts::exceptions::exception& e) {
    throw UsageError("gpuscale " + inv.command + ": " + usage_text(e));
  } catch (const UsageError& e) {
    throw UsageError("gpuscale " + inv.command + ": " + e.what());
  }
  validate(*spec, c);
  return inv;
}

bool is_launcher_rank_zero() { return harness::launcher_rank() <= 0; }

}  // namespace gpuscale::launch
