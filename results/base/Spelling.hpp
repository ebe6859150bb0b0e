#pragma once
// "did you mean": the known name closest to a misspelt one, for usage errors (commands, options,
// metrics, collectives). Neither cxxopts nor nlohmann_json offers one, and the names are few: a plain
// edit distance does. Pure functions.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscale::results {

// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`, ignoring ASCII case:
// the optimal-string-alignment form of the Damerau-Levenshtein distance. "quik" -> "quick" is 1.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The one name of `known` that `given` most likely meant: the nearest within a third of its length
// (at least 1 edit, at most 3), else the only name it begins ("allred" -> "allreduce"); "" when none
// is near enough or two are equally near.
std::string closest_name(std::string_view given, const std::vector<std::string>& known);

// " (did you mean PREFIX+NAME?)" for closest_name, "" when there is none: the tail of a usage error.
std::string did_you_mean(std::string_view given, const std::vector<std::string>& known, std::string_view prefix = {});

}  // namespace gpuscale::results
