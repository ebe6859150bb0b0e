// docs/REPORT.md's field tables against the records' field lists (results/base/RecordFields.hpp): a key
// added to a list but not to its table, or documented but no longer written, fails here, and the
// failure names the command that regenerates the tables (tools/record_docs).
#include <string>

#include <gtest/gtest.h>

#include "DocText.hpp"
#include "tools/record_docs/RecordDocs.hpp"

namespace gpuscale::record_docs {
namespace {

std::string report_md() { return testing::source_text("docs/REPORT.md"); }

using testing::indented_lines;
using testing::replaced_once;

TEST(RecordDoc, EachTableIsItsRecordsList) {
  const auto doc = report_md();
  const auto regenerated = regenerate(doc);
  EXPECT_TRUE(regenerated.changes.empty())
      << "docs/REPORT.md's field tables differ from the records' field lists:\n"
      << indented_lines(regenerated.changes) << "regenerate them with\n  " << kRegenerateCommand
      << "\nthen describe each key it adds (" << kToDescribe << ")";
  EXPECT_TRUE(regenerated.text == doc) << "regenerate with: " << kRegenerateCommand;
  EXPECT_EQ(doc.find(kToDescribe), std::string::npos)
      << "docs/REPORT.md has a key still " << kToDescribe << ": write its type and meaning";
}

TEST(RecordDoc, EachRowNamesTheKeysOfItsNestedRecord) {
  const auto missing = unnamed_nested_keys(report_md());
  EXPECT_TRUE(missing.empty()) << "docs/REPORT.md: the prose of a nested record's row lacks keys its list writes:\n"
                               << indented_lines(missing);
}

// The generator itself: a key written but not documented gets a row, a key documented but no longer
// written leaves its row, and the rest of the document stays byte for byte.
TEST(RecordDoc, RegenerateAddsTheMissingKeyAndDropsTheStaleOne) {
  const auto doc = report_md();
  const std::string slow_row = "| `slow`, `wrong_result` | bool | set by `gpu-slow-sustained`, `gpu-wrong-result` |";
  const auto edited = replaced_once(replaced_once(doc, slow_row, "| `wrong_result`, `bogus_key` | bool | set by it |"),
                               "| `pid` | int | process id |\n", "");
  const auto regenerated = regenerate(edited);
  EXPECT_EQ(regenerated.changes.size(), 3u) << indented_lines(regenerated.changes);
  EXPECT_NE(regenerated.text.find("| `wrong_result` | bool | set by it |"), std::string::npos);
  EXPECT_EQ(regenerated.text.find("bogus_key"), std::string::npos);
  EXPECT_NE(regenerated.text.find(std::string("| `slow` |  | ") + kToDescribe + " |"), std::string::npos);
  EXPECT_NE(regenerated.text.find(std::string("| `pid` |  | ") + kToDescribe + " |"), std::string::npos);
  EXPECT_NE(regenerated.tables.find("### `burn[]`"), std::string::npos);
  EXPECT_EQ(regenerated.tables.find("## Exit codes"), std::string::npos);
}

// A stray blank line splits a table in two: its rows are still one table.
TEST(RecordDoc, ATableSplitByABlankLineIsStillOneTable) {
  const auto regenerated = regenerate(replaced_once(report_md(), "| `pid` | int | process id |", ""));
  ASSERT_EQ(regenerated.changes.size(), 1u) << indented_lines(regenerated.changes);
  EXPECT_NE(regenerated.changes[0].find("`pid`"), std::string::npos);
}

TEST(RecordDoc, ANestedKeyTheRowDoesNotNameIsReported) {
  const auto doc = replaced_once(report_md(), "`held_out_max_error` (ratio", "`held_out_maximum` (ratio");
  const auto missing = unnamed_nested_keys(doc);
  ASSERT_EQ(missing.size(), 1u) << indented_lines(missing);
  EXPECT_NE(missing[0].find("`held_out_max_error`"), std::string::npos) << missing[0];
}

}  // namespace
}  // namespace gpuscale::record_docs
