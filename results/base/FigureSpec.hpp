#pragma once
// One kind of figure a phase emits (FigureVocabulary.hpp): its phase, metric, label keys and unit.
#include <string_view>

namespace gpuscale::results {

struct FigureSpec {
  std::string_view phase, metric;
  std::string_view labels;  // its label keys, comma-separated; a key ending in '?' is optional
  std::string_view unit;
};

}  // namespace gpuscale::results
