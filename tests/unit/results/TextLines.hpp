#pragma once
// The lines of a reporter's text, for tests that look for one line or count them.
#include <sstream>
#include <string>
#include <vector>

namespace gpuscale::results {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace gpuscale::results
