#pragma once
// The places the test seams (harness/FaultInjection.hpp) may name: every point an Activity scope is
// opened at, every result buffer a corruption seam spoils, every phase. A name outside them would run
// the job without its fault, silently; the seams refuse it, listing these.
#include "harness/FaultInjection.hpp"

namespace gpuscale::launch {

harness::SeamPlaces seam_places();

}  // namespace gpuscale::launch
