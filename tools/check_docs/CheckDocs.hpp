#pragma once
// docs/CHECKS.md's tables of checks, generated from the check table (results/base/CheckTable.def).
// Each table stands between a begin marker naming its section (results::CheckSection) and an end
// marker; the prose outside the markers is written by hand and kept byte for byte. Plain functions on
// the document's text; the check_docs tool and CheckDocTest call them.
#include <string>
#include <vector>

#include "results/base/CheckTable.hpp"

namespace gpuscale::check_docs {

// The command that brings docs/CHECKS.md's tables in line with the table, from the source tree.
inline constexpr char kRegenerateCommand[] =
    "cmake --build build --target check_docs && build/tools/check_docs/check_docs --write docs/CHECKS.md";

// "<!-- check-table: env -->" and the line that ends every table.
std::string begin_marker(results::CheckSection section);
inline constexpr char kEndMarker[] = "<!-- end check-table -->";

// The markdown table of a section's checks, in the table's order, each line ending in '\n'.
std::string section_table(results::CheckSection section);

struct Regenerated {
  std::string text;                  // the whole document, every table between markers regenerated
  std::vector<std::string> changes;  // one line per table that changed, or marker missing or unknown
};

// Every marked table replaced by section_table(); a section without its markers is a change (it cannot
// be placed: a person puts the markers where the prose wants the table).
Regenerated regenerate(const std::string& checks_md);

}  // namespace gpuscale::check_docs
