#pragma once
// What the tests that pin a document of the source tree to the code share: the file's text, a list as
// indented lines for a failure message, and one edit of the text. GPUSCALE_SOURCE_DIR is the tree's root,
// defined for those tests only (tests/unit/CMakeLists.txt).
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gpuscale::testing {

// The text of `relative` (e.g. "docs/CHECKS.md") under the source tree; a missing file fails the test.
inline std::string source_text(const std::string& relative) {
  std::ifstream in(std::string(GPUSCALE_SOURCE_DIR) + "/" + relative, std::ios::binary);
  EXPECT_TRUE(in) << relative << " not found under " << GPUSCALE_SOURCE_DIR;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string indented_lines(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += "  " + item + "\n";
  return text;
}

// `text` with its first `from` replaced by `to`; a `from` not there fails the test.
inline std::string replaced_once(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

}  // namespace gpuscale::testing
