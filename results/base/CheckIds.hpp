#pragma once
// The check ids as constants, made from the check table (results/base/CheckTable.def): the rules name
// their ids through them, and --expect's checks_must_pass accepts only ids of the table. What the table
// says of an id beyond its name (severity, category, fix) is in results/base/CheckTable.hpp.
#include <string>
#include <string_view>
#include <vector>

#include "results/base/CheckTable.hpp"

namespace gpuscale::results::check_ids {

// A training verification's name (TrainVerification::name) is raised as kTrainCheckPrefix + name.
inline constexpr char kTrainCheckPrefix[] = GPUSCALE_TRAIN_CHECK_PREFIX;

#define GPUSCALE_CHECK(constant, id, ...) inline constexpr char constant[] = id;
#define GPUSCALE_TRAIN_CHECK(constant, name, ...) inline constexpr char constant[] = name;
#include "results/base/CheckTable.def"
#undef GPUSCALE_CHECK
#undef GPUSCALE_TRAIN_CHECK

// True for an id of the check table (training checks with their prefix).
bool is_known(std::string_view id);
// Every known id, comma-separated, for a message.
std::string known_text();
// Every known id, in list order (training checks with their prefix).
std::vector<std::string> all();
// The ids of findings against a --baseline (judge/BaselineRules.hpp): raised by judging, never by a
// measurement, so a baseline neither records them nor counts them as a run's own checks.
bool is_baseline(std::string_view id);
// The ids that judge speed: a figure against a peak, a floor, a baseline, the link under it or the job's
// other GPUs and nodes, and the fabric between nodes. Where the job's ranks share GPUs on purpose
// (results/world/Emulation.hpp), these say nothing about the hardware and are not judged.
bool judges_speed(std::string_view id);

}  // namespace gpuscale::results::check_ids
