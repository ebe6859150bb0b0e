#include "launch/BaselineCommand.hpp"

#include <iostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "harness/Error.hpp"
#include "launch/ReportFiles.hpp"
#include "results/report/Baseline.hpp"
#include "results/schema/AtomicFile.hpp"

#ifndef GPUSCALE_VERSION
#define GPUSCALE_VERSION "0.0.0"
#endif

namespace gpuscale::launch {
namespace {

using harness::UsageError;

void check_paths(const std::vector<std::string>& inputs, const std::string& output) {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (results::same_file(inputs[i], output))
      throw UsageError("gpuscale baseline: -o " + output + " is the input " + inputs[i] + "; it would be overwritten");
    for (std::size_t k = 0; k < i; ++k)
      if (results::same_file(inputs[k], inputs[i]))
        throw UsageError("gpuscale baseline: " + inputs[i] + " is given twice (as " + inputs[k] +
                         "); each run counts once");
  }
  try {
    results::check_writable(output);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

}  // namespace

int make_baseline(const Invocation& inv) {
  if (inv.positional.empty())
    throw UsageError("gpuscale baseline takes one or more run reports: RUN.json... -o BASE.json (gpuscale baseline --help)");
  if (!inv.options.count("output") || inv.options["output"].as<std::string>().empty())
    throw UsageError("gpuscale baseline: -o BASE.json is required (where the baseline goes)");
  const auto output = inv.options["output"].as<std::string>();
  check_paths(inv.positional, output);
  std::vector<results::RunReport> runs;
  for (const auto& path : inv.positional) {
    runs.push_back(read_judged_run(path));
    // A run that failed its own verdict is taken (a fleet's baseline may hold a node's known fault), but
    // never silently: its figures set what later runs are judged against.
    if (const auto& v = runs.back().verdict; !v.passed)
      std::cerr << "gpuscale: warning: " << path << " failed its own verdict ("
                << (v.reasons.empty() ? std::string(results::verdict_result(v)) : v.reasons.front())
                << "); its figures join the baseline\n";
  }
  results::Baseline baseline;
  try {
    baseline = results::make_baseline(runs, inv.positional);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("gpuscale baseline: ") + e.what());
  }
  baseline.tool_version = GPUSCALE_VERSION;
  results::write_file_atomically(output, nlohmann::json(baseline).dump(1) + "\n");
  std::cout << "Baseline of " << runs.size() << " run" << (runs.size() == 1 ? "" : "s") << " written to " << output
            << '\n';
  for (const auto& g : baseline.groups)
    std::cout << "  " << describe(g.shape) << ": " << g.runs << " run" << (g.runs == 1 ? "" : "s") << ", "
              << g.figures.size() << " figures, " << g.checks_passed.size() << " checks passing in every run\n";
  return 0;
}

}  // namespace gpuscale::launch
