// gpuscale: one executable, one MPI rank per GPU. Parses the command line, then hands over to the
// command's phases.
#include <iostream>

#include "harness/Error.hpp"
#include "harness/World.hpp"
#include "launch/Cli.hpp"
#include "launch/Commands.hpp"
#include "launch/Phases.hpp"
#include "launch/ReportCommands.hpp"
#include "launch/ReportFiles.hpp"

#ifndef GPUSCALE_VERSION
#define GPUSCALE_VERSION "0.0.0"
#endif

int main(int argc, char** argv) {
  using namespace gpuscale;
  launch::Invocation invocation;
  try {
    invocation = launch::parse_command_line(argc, argv);
  } catch (const harness::UsageError& e) {
    // report, compare and baseline run without MPI; a command of the job is judged with the other
    // ranks, which may not share this rank's command line (launch/CommandAgreement.hpp).
    const auto* named = argc > 1 ? launch::find_command(argv[1]) : nullptr;
    if (harness::launcher_rank() >= 0 && !(named && !named->needs_world()))
      return launch::run_command(launch::Invocation{}, argc, argv, e.what());
    std::cerr << "gpuscale: error: " << e.what() << '\n';
    return static_cast<int>(harness::ExitCode::usage);
  }
  if (invocation.show_help || invocation.show_version) {
    if (launch::is_launcher_rank_zero())
      std::cout << (invocation.show_help ? invocation.help_text : "gpuscale " GPUSCALE_VERSION "\n");
    return launch::console_written() ? 0 : static_cast<int>(harness::ExitCode::runtime);
  }
  // report and compare read files only: no MPI, so they run on a laptop without mpirun.
  if (const auto* spec = launch::find_command(invocation.command); spec && !spec->needs_world())
    return launch::run_offline_command(invocation);
  return launch::run_command(invocation, argc, argv);
}
