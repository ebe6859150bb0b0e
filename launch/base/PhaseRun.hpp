#pragma once
// The PhaseSpec's run for a phase whose run takes a PhaseContext and returns its records: the driver
// (the Job) builds the context, every rank runs the phase, `Keep` files what it returned with the
// driver (rank 0: the report; every rank: what the job keeps of it, env's GPU policy), and the phase
// is marked done (rank 0 updates what later phases feed, judges and rewrites the outputs).
#include <string>
#include <utility>

#include "launch/base/PhaseContext.hpp"
#include "launch/base/PhaseDriver.hpp"

namespace gpuscale::launch {

// Run: Records (PhaseContext&); Keep: void (PhaseDriver&, Records&&). Collective.
template <auto Run, auto Keep>
void run_phase(PhaseDriver& driver) {
  PhaseContext context = driver.phase_context();
  Keep(driver, Run(context));
  driver.phase_done(std::string(context.phase));
}

}  // namespace gpuscale::launch
