#pragma once
// `--project-ranks`: the job sizes (ranks, at the measured GPUs per node) that the fitted collectives
// and the DDP steps are projected to (results/schema/Projection.hpp). On `collectives` and the default run.
#include <string_view>
#include <vector>

#include <cxxopts.hpp>

namespace gpuscale::launch {

inline constexpr int kDefaultProjectRanks[] = {512, 1024, 4096};
inline constexpr int kMaxProjectRanks = 1 << 24;  // far beyond any cluster: a typo, not a job

void add_projection_options(cxxopts::Options& options);

// "512,1024,4096" -> those ranks, ascending, each once; "none" -> none. Anything else (an empty item,
// a sign, a fraction, fewer than 2 or more than kMaxProjectRanks ranks) is a UsageError of one line.
std::vector<int> parse_project_ranks(std::string_view text);

// kDefaultProjectRanks as the targets: what a run projects to without the option.
std::vector<int> default_project_ranks();

// The option's targets, or the defaults when absent (also for commands without the option).
std::vector<int> project_ranks(const cxxopts::ParseResult& result);

}  // namespace gpuscale::launch
