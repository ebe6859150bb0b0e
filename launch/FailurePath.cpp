#include "launch/FailurePath.hpp"

#include <iostream>
#include <string>

#include "harness/Activity.hpp"

namespace gpuscale::launch {
namespace {

// One line that names rank, host and what the rank was doing, however the message was built.
std::string one_line(const std::string& message) {
  std::string line = message.rfind("[rank ", 0) == 0 ? message : harness::error_location() + " " + message;
  if (line.find("(phase ") == std::string::npos) line += " (" + harness::describe(harness::current_activity()) + ")";
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  return line;
}

// One write per line: mpirun forwards each rank's stderr in the chunks it was written in, so a line
// written in pieces can be interleaved with another rank's.
void print_line(const std::string& line) { std::cerr << (line + '\n') << std::flush; }

std::string rank_list(const std::vector<int>& ranks) {
  std::string out;
  for (const int r : ranks) out += (out.empty() ? "" : ", ") + std::to_string(r);
  return out;
}

[[noreturn]] void end_job(harness::World& world, Job* job, harness::ExitCode code, const std::string& line,
                          int failed_rank, bool own_failure) {
  const int exit_code = static_cast<int>(code);
  if (own_failure) {
    print_line(line);
    world.announce_failure(exit_code, line);
  }
  if (world.rank() != 0) {
    world.report_status_to_root(harness::error_location() + " " + harness::describe(harness::current_activity()));
    // Rank 0 ends the job after its roll call; if it is stalled or dead, end it from here.
    world.progress_notices(kRollCall_s + 2.0);
    world.abort(exit_code);
  }
  results::RunFailure failure{exit_code, line, failed_rank, {}};
  if (job) job->record_failure(failure);  // first, in case the launcher's SIGKILL comes soon
  failure.ranks_not_responding = world.ranks_not_reporting(kRollCall_s);
  if (!failure.ranks_not_responding.empty()) {
    print_line(harness::error_location() + " ending the job: rank(s) " + rank_list(failure.ranks_not_responding) +
               " did not respond within " + std::to_string(static_cast<int>(kRollCall_s)) + " s (stalled or dead)");
    if (job) job->record_failure(failure);
  }
  world.abort(exit_code);
}

}  // namespace

void end_job_after_error(harness::World& world, Job* job, const harness::Error& error) {
  if (const auto* peer = dynamic_cast<const harness::PeerFailedError*>(&error))
    end_job(world, job, error.exit_code(), error.what(), peer->rank(), false);
  end_job(world, job, error.exit_code(), one_line(error.what()), world.rank(), true);
}

void end_job_after_unexpected(harness::World& world, Job* job, const std::exception& error) {
  end_job(world, job, harness::ExitCode::runtime, one_line(std::string("unexpected error: ") + error.what()),
          world.rank(), true);
}

}  // namespace gpuscale::launch
