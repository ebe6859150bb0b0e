#pragma once
// The one exemption from the speed rules: the CPU backend. Its ranks share oversubscribed cores, so
// how fast one of them ran says nothing about hardware: no straggler, slow-GPU, floor or outlier rule
// judges a record of it, and no figure that sums up speed (the straggler spread) counts one. Its
// records name their device "cpu": a record's gpu, a rank's backend, an outlier's model. Every rule
// asks here.
#include <string_view>

namespace gpuscale::results {

inline constexpr char kCpuDevice[] = "cpu";

// Whether the speed rules judge what was measured on `device` (a record's gpu, a rank's backend).
constexpr bool speed_judged(std::string_view device) { return device != kCpuDevice; }

}  // namespace gpuscale::results
