#pragma once
// The training phase: for each model and precision, the correctness checks (before timing), then
// single (every rank alone), DDP over 1, 2, 4, ... ranks (sub-communicators), and DP over 1..G
// devices of rank 0; weak and/or strong scaling. Rank 0 gathers the records, derives efficiency and
// stragglers, and turns failed checks into errors. Collective.
#include <cxxopts.hpp>

#include "launch/Job.hpp"

namespace gpuscale::launch {

void run_train_phase(Job& job);

}  // namespace gpuscale::launch
