// gpuscale: one executable, one MPI rank per GPU. Parses the command line, then hands over to the
// command's phases.
#include <iostream>

#include "harness/Error.hpp"
#include "launch/Cli.hpp"
#include "launch/Commands.hpp"
#include "launch/Phases.hpp"
#include "launch/ReportCommands.hpp"

#ifndef GPUSCALE_VERSION
#define GPUSCALE_VERSION "0.0.0"
#endif

int main(int argc, char** argv) {
  using namespace gpuscale;
  launch::Invocation invocation;
  try {
    invocation = launch::parse_command_line(argc, argv);
  } catch (const harness::UsageError& e) {
    if (launch::is_launcher_rank_zero()) std::cerr << "gpuscale: error: " << e.what() << '\n';
    return static_cast<int>(harness::ExitCode::usage);
  }
  if (invocation.show_help || invocation.show_version) {
    if (launch::is_launcher_rank_zero())
      std::cout << (invocation.show_help ? invocation.help_text : "gpuscale " GPUSCALE_VERSION "\n");
    return 0;
  }
  // report and compare read files only: no MPI, so they run on a laptop without mpirun.
  if (const auto* spec = launch::find_command(invocation.command); spec && !spec->needs_world)
    return launch::run_offline_command(invocation);
  return launch::run_command(invocation, argc, argv);
}
