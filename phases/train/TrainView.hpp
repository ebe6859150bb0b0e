#pragma once
// Train's view of its records (results/base/PhaseViewOf.hpp), which the outputs read through their table
// (results/views/PhaseView.hpp): its figures, console table, headlines, charts and HTML section.
#include "phases/train/TrainRecord.hpp"
#include "results/base/PhaseViewOf.hpp"

namespace gpuscale::results::views::train {

using Records = TrainResults;
extern const PhaseViewOf<Records> kView;

}  // namespace gpuscale::results::views::train
