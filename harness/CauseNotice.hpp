#pragma once
// Whether another rank's roll call found this rank silent (stopped or dead) and told the job so
// (World::announce_failure with this rank as the cause). See launch/FailurePath.cpp. Liveness, not
// a verdict: the judge (judge/) turns records into checks; this is one rank naming another.
#include <optional>
#include <string>

#include "harness/World.hpp"

namespace gpuscale::harness {

struct CauseNotice {
  int from_rank = -1;  // the rank whose roll call found this one silent
  int exit_code = 0;
  std::string message;  // that rank's one line
};

// Local, noexcept: takes waiting failure notices off the wire and returns the first one that another
// rank sent naming this rank as its cause. A rank that was stopped and resumes meets its own
// deadline, long past, before it reads that notice: the notice, not its timeout, is the failure.
std::optional<CauseNotice> notice_naming_this_rank(const World& world) noexcept;

}  // namespace gpuscale::harness
