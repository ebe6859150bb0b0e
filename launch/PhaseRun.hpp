#pragma once
// The PhaseSpec's run for a phase whose run takes a PhaseContext and returns its records: the Job
// builds the context, every rank runs the phase, `Keep` files what it returned into the job (rank 0:
// the report; every rank: what the job keeps of it, env's GPU policy), and the phase is marked done
// (Job::phase_done: rank 0 updates what later phases feed, judges and rewrites the outputs).
#include <string>
#include <utility>

#include "launch/Job.hpp"
#include "launch/PhaseContext.hpp"

namespace gpuscale::launch {

// Run: Records (PhaseContext&); Keep: void (Job&, Records&&). Collective.
template <auto Run, auto Keep>
void run_phase(Job& job) {
  PhaseContext context = job.phase_context();
  Keep(job, Run(context));
  job.phase_done(std::string(context.phase));
}

}  // namespace gpuscale::launch
