#pragma once
// Env's view of its records (results/base/PhaseViewOf.hpp), which the outputs read through their table
// (results/views/PhaseView.hpp): its figures and HTML section. Its records are the ranks' description
// (results/world/RankEnv.hpp), which every layer above reads.
#include <vector>

#include "results/base/PhaseViewOf.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::results::views::env {

using Records = std::vector<RankEnv>;
extern const PhaseViewOf<Records> kView;

}  // namespace gpuscale::results::views::env
