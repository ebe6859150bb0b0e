#pragma once
// Whether another rank's roll call judged this rank silent (stopped or dead) and told the job so
// (World::announce_failure with this rank as the cause). See launch/FailurePath.cpp.
#include <optional>
#include <string>

#include "harness/World.hpp"

namespace gpuscale::harness {

struct PeerJudgement {
  int judge = -1;  // the rank that judged
  int exit_code = 0;
  std::string message;  // the judge's one line
};

// Local, noexcept: takes waiting failure notices off the wire and returns the first one that another
// rank sent naming this rank as its cause. A rank that was stopped and resumes meets its own
// deadline, long past, before it reads that judgement: the judgement, not its timeout, is the failure.
std::optional<PeerJudgement> judgement_of_this_rank(const World& world) noexcept;

}  // namespace gpuscale::harness
