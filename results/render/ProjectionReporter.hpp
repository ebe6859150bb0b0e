#pragma once
// The projection (results/schema/Projection.hpp) in the console report and as figures (phase "projection")
// for CSV, compare and --expect.
#include <optional>
#include <ostream>
#include <vector>

#include "results/base/Figure.hpp"
#include "results/schema/Projection.hpp"

namespace gpuscale::results {

void write_projection(const Projection& projection, std::ostream& out);

void append_figures(const std::optional<Projection>& projection, std::vector<Figure>& out);

}  // namespace gpuscale::results
