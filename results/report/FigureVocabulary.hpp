#pragma once
// Every figure flatten() makes, by phase and metric: the label keys it carries and its unit. The names
// a user may write (--expect thresholds, --baseline-tolerance keys) and a baseline's entries are held
// to it, so that one that names nothing is refused rather than matching nothing for ever:
// an unknown phase, a metric of another phase, a label key the metric never carries, another unit.
// tests/unit/results/report/FigureVocabularyTest.cpp holds the table to what flatten() makes, and
// tests/mpi/hostile_inputs.sh to a real run's figures.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "results/base/FigureSpec.hpp"

namespace gpuscale::results {

// Each phase's figures (results/views/PhaseView.hpp: PhaseView::vocabulary), in the registry's order,
// then the projection's.
std::span<const FigureSpec> figure_vocabulary();

// The phases figures belong to, "checks" (a check's own figure: metric = check id) included.
std::vector<std::string> figure_phases();

// The one phase that emits `metric` ("busbw": collectives), for the shorthands that name a metric
// alone (--expect's min_busbw, the expect templates). Throws std::logic_error for a metric no phase
// or several phases emit.
std::string phase_of_metric(std::string_view metric);

// Whether a figure of `phase` ("" = any phase), `metric`, these label keys (any subset of the
// metric's) and `unit` ("" = unstated) could exist: "" when it could, else the one reason why not
// ("unknown phase 'x' (env, ...)", "busbw is a figure of collectives, not of compute",
// "label 'size' is not one of collectives busbw's (op, bytes, ...)", "unit 'MB/s' is not busbw's (GB/s)").
std::string names_nothing(std::string_view phase, std::string_view metric, const std::vector<std::string>& label_keys,
                          std::string_view unit = {});

}  // namespace gpuscale::results
