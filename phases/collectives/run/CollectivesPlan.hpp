#pragma once
// What the collectives phase runs, resolved once (CollectivesSpec.cpp) from the command line and the
// profile.
#include <vector>

#include "collectives/SweepOptions.hpp"

namespace gpuscale::launch {

// The sweeps' options and what the phase reads around them: nothing reads the options after planning.
struct CollectivesPlan {
  collectives::SweepOptions sweep;
  bool nccl_algorithm = false;  // --nccl-algo: NCCL's algorithm and protocol per size, from its log
};

}  // namespace gpuscale::launch
