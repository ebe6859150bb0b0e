#pragma once
// How far each figure that says how fast one GPU or node is lies from the job's robust centre for the
// same figure and GPU model (median, and MAD x 1.4826 as sigma): the arithmetic the fleet-outlier rule
// (judge/FleetOutliers.hpp) judges and the CSV and node tables show.
#include <string>
#include <vector>

#include "results/base/Figure.hpp"
#include "results/base/Outlier.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::results {

// Outlier::figure's name of `f`: "phase metric labels", the labels without rank or node.
std::string outlier_figure_name(const Figure& f);

// Every figure of a GPU (label rank) or node (label node) that says how fast it is, not measured beside
// another process, whose figure and model have at least kOutlierMinGroup members, with its distance
// from their centre; grouped by figure and model.
std::vector<Outlier> figure_deviations(const std::vector<Figure>& figures, const std::vector<RankEnv>& ranks);

}  // namespace gpuscale::results
