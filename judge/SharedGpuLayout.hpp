#pragma once
// The judge's one rule of a test layout whose ranks share GPUs (results/world/Emulation.hpp): there
// a rank's speed says nothing about its GPU, so the checks that judge speed are set aside.
#include <vector>

#include "results/base/Check.hpp"

namespace gpuscale::judge {

// Every check that judges speed (check_ids::judges_speed) becomes info, its message kept behind
// "not judged (...)", so that it neither fails nor warns. Idempotent.
void set_aside_speed_checks(std::vector<results::Check>& checks);

}  // namespace gpuscale::judge
