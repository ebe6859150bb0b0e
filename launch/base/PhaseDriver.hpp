#pragma once
// What a phase's folder may ask of the job that runs it, and nothing more: its context as it begins,
// a place for what it returned, and the mark that it is done. The Job (Job.hpp) is the one driver; a
// phase's spec and run (phases/NAME/run/) include this, never Job.hpp, so that a phase cannot reach
// the job's budget, outputs or other phases.
#include <string>

#include "harness/World.hpp"
#include "launch/base/PhaseContext.hpp"
#include "results/schema/RunReport.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::launch {

class PhaseDriver {
 public:
  // What the current phase's run may use, built as it begins; it refers to the driver, which
  // outlives it.
  virtual PhaseContext phase_context() = 0;
  virtual harness::World& world() = 0;
  // Rank 0 only: the report each phase's keep stores its records in.
  virtual results::RunReport& report() = 0;
  // Rank 0: the phase completed (the driver judges and rewrites the outputs). Collective.
  virtual void phase_done(const std::string& phase) = 0;
  // Env's, every rank: its own env record, whose listed processes later looks take as known, and the
  // reasons its checks stop GPU work ("" where nothing does).
  virtual void watch_tenancy(const results::RankEnv& own) = 0;
  virtual void block_gpu_work(std::string shared, std::string impossible) = 0;

 protected:
  PhaseDriver() = default;
  PhaseDriver(const PhaseDriver&) = default;
  PhaseDriver& operator=(const PhaseDriver&) = default;
  ~PhaseDriver() = default;
};

}  // namespace gpuscale::launch
