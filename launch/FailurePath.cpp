#include "launch/FailurePath.hpp"

#include <iostream>
#include <string>

#include "harness/Activity.hpp"
#include "harness/CauseNotice.hpp"
#include "harness/Watchdog.hpp"

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

// Rank 0 answers for the others; rank 1 answers for rank 0, which cannot answer for itself.
constexpr int kDeputy = 1;

std::string join(const std::vector<harness::SilentRank>& silent) {
  std::string out;
  for (const auto& s : silent) out += (out.empty() ? "" : "; ") + harness::describe(s, kRollCall_s);
  return out;
}

// A rank seen dead or stopped is the cause of the failure, whatever reached this rank since
// (mpirun's SIGTERM to the survivors, or its own timeout): a runtime failure.
const harness::SilentRank* cause(const std::vector<harness::SilentRank>& silent) {
  for (const auto& s : silent)
    if (s.seen != harness::SilentRank::Seen::no_answer) return &s;
  return nullptr;
}

// The deputy's roll call of rank 0: returns when rank 0 answered (it ends the job); otherwise names
// rank 0, writes the failure with rank 0 as its cause where it can (rank 0 on this host), and ends
// the job itself.
void roll_call_rank_zero(harness::World& world, Job* job, int exit_code) {
  const auto silent = world.roll_call({0}, kRollCall_s);
  if (silent.empty()) return;
  if (cause(silent)) exit_code = static_cast<int>(harness::ExitCode::runtime);
  const std::string line = harness::error_location() + " ending the job: " + join(silent);
  print_line(line);
  world.announce_failure(exit_code, line, 0);  // for rank 0's record, should it resume
  if (job) job->record_failure_for_root({exit_code, line, 0, {0}});
  world.progress_notices(0.1);
  world.abort(exit_code);
}

[[noreturn]] void end_job(harness::World& world, Job* job, harness::ExitCode code, const std::string& line,
                          int failed_rank, bool own_failure, bool failed_rank_silent = false) {
  const int exit_code = static_cast<int>(code);
  if (own_failure) {
    print_line(line);
    world.announce_failure(exit_code, line);
  }
  const std::string status = harness::error_location() + " " + harness::describe(harness::current_activity());
  if (world.rank() != 0) {
    world.report_status(0, status);
    if (world.rank() == kDeputy) roll_call_rank_zero(world, job, exit_code);
    // Rank 0 ends the job after its roll call; if that never comes, end it from here.
    world.progress_notices(kRollCall_s + 2.0);
    world.abort(exit_code);
  }
  world.report_status(kDeputy, status);  // rank 0 is alive: the deputy leaves the job to it
  // A failure another rank's roll call named (rank 0 resumed after its deputy found it stopped): the
  // named rank did not respond, and the rank that named it has already ended the job, so no roll call here.
  results::RunFailure failure{exit_code, line, failed_rank, {}};
  if (failed_rank_silent) failure.ranks_not_responding.push_back(failed_rank);
  if (job) job->record_failure(failure);  // first, in case the launcher's SIGKILL comes soon
  std::vector<int> others;
  for (int r = 1; r < world.size(); ++r) others.push_back(r);
  const auto silent = failed_rank_silent ? std::vector<harness::SilentRank>{} : world.roll_call(others, kRollCall_s);
  if (!silent.empty()) {
    const std::string ending = harness::error_location() + " ending the job: " + join(silent);
    print_line(ending);
    for (const auto& s : silent) failure.ranks_not_responding.push_back(s.rank);
    if (const auto* dead = cause(silent)) {
      failure.exit_code = static_cast<int>(harness::ExitCode::runtime);
      failure.rank = dead->rank;
      failure.message = ending + "; then " + line;
    }
    if (job) job->record_failure(failure);
  }
  world.abort(failure.exit_code);
}

}  // namespace

namespace {

// A peer found dead is the cause of whatever reached this rank since (the launcher's SIGTERM, a
// timeout waiting for it): the rank that names it does so first, before a roll call the launcher's
// SIGKILL would cut short.
void name_dead_peers(const harness::World& world) {
  if (const auto death = world.dead_peers_to_name()) harness::end_for_dead_peers(*death);
}

}  // namespace

void end_job_after_error(harness::World& world, Job* job, const harness::Error& error) {
  name_dead_peers(world);
  if (const auto* peer = dynamic_cast<const harness::PeerFailedError*>(&error))
    end_job(world, job, error.exit_code(), error.what(), peer->rank(), false, peer->found_silent());
  if (const auto notice = harness::notice_naming_this_rank(world))
    end_job(world, job, static_cast<harness::ExitCode>(notice->exit_code), notice->message, world.rank(), false, true);
  end_job(world, job, error.exit_code(), one_line(error.what()), world.rank(), true);
}

void end_job_after_unexpected(harness::World& world, Job* job, const std::exception& error) {
  name_dead_peers(world);
  end_job(world, job, harness::ExitCode::runtime, one_line(std::string("unexpected error: ") + error.what()),
          world.rank(), true);
}

}  // namespace gpuscale::launch
