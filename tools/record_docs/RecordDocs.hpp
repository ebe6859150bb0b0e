#pragma once
// docs/REPORT.md's field tables, generated from the records' field lists (results/base/RecordFields.hpp).
// A pinned table's first column, its keys, is the list's; the other columns (type, meaning) and the
// prose around the tables are written by hand and kept as they are. A nested record is documented in
// its parent's row, whose meaning names each of its keys: that prose cannot be generated, so it is
// only checked. Plain functions on the document's text; the record_docs tool and RecordDocTest call them.
#include <string>
#include <vector>

namespace gpuscale::record_docs {

// The command that brings docs/REPORT.md's tables in line with the lists, from the source tree.
inline constexpr char kRegenerateCommand[] =
    "cmake --build build --target record_docs && build/tools/record_docs/record_docs --write docs/REPORT.md";

// The meaning cell of a row that regenerate() added: the test fails until a person describes the key.
inline constexpr char kToDescribe[] = "(to describe)";

struct Regenerated {
  std::string text;                  // the whole document, its pinned tables regenerated
  std::string tables;                // only the pinned tables, each under its heading
  std::vector<std::string> changes;  // one line per row added, changed or dropped
};

// Each pinned table's rows brought in line with its list: a key no longer written leaves its row (a row
// left with none goes); a key not yet documented gets a row of its own, at the table's end, whose
// meaning is kToDescribe. Rows whose keys are all still written stay byte for byte.
Regenerated regenerate(const std::string& report_md);

// "SECTION: row `KEY` does not name `NESTED`" for each key of a nested record that its parent's row
// does not name, and for each pinned table or row the document lacks.
std::vector<std::string> unnamed_nested_keys(const std::string& report_md);

}  // namespace gpuscale::record_docs
