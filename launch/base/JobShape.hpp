#pragma once
// The job's shape as the plan's fit reads it (PlanFit.hpp), known once MPI runs.
namespace gpuscale::launch {

struct JobShape {
  int ranks = 1;
  int nodes = 1;
  int dp_devices = 0;  // the devices DP could drive from rank 0 (PlanFit.hpp: dp_device_limit)
};

}  // namespace gpuscale::launch
