// docs/CHECKS.md's check tables against the check table (results/base/CheckTable.def): a check added,
// dropped or reworded in the table but not in the document fails here, and the failure names the command
// that regenerates the tables (tools/check_docs).
#include <string>

#include <gtest/gtest.h>

#include "DocText.hpp"
#include "tools/check_docs/CheckDocs.hpp"

namespace gpuscale::check_docs {
namespace {

using results::CheckSection;

std::string checks_md() { return testing::source_text("docs/CHECKS.md"); }

using testing::indented_lines;
using testing::replaced_once;

TEST(CheckDoc, EachTableIsTheCheckTables) {
  const auto doc = checks_md();
  const auto regenerated = regenerate(doc);
  EXPECT_TRUE(regenerated.changes.empty())
      << "docs/CHECKS.md's tables differ from results/base/CheckTable.def:\n"
      << indented_lines(regenerated.changes) << "regenerate them with\n  " << kRegenerateCommand;
  EXPECT_TRUE(regenerated.text == doc) << "regenerate with: " << kRegenerateCommand;
}

// The generator itself: a row edited by hand is put back, the prose outside the markers stays byte for
// byte, and a section whose markers are gone is reported rather than placed somewhere.
TEST(CheckDoc, RegenerateRestoresAnEditedRowAndKeepsTheProse) {
  const auto doc = checks_md();
  const std::string row_start = "| numa-binding | warning | config |";
  const auto edited = replaced_once(replaced_once(doc, row_start, "| numa-binding | error | health |"), "Rank 0 runs these over",
                               "Rank 0 runs these (edited) over");
  const auto regenerated = regenerate(edited);
  ASSERT_EQ(regenerated.changes.size(), 1u) << indented_lines(regenerated.changes);
  EXPECT_NE(regenerated.changes[0].find("'env'"), std::string::npos) << regenerated.changes[0];
  EXPECT_EQ(regenerated.text, replaced_once(doc, "Rank 0 runs these over", "Rank 0 runs these (edited) over"));

  const auto unmarked = regenerate(replaced_once(doc, begin_marker(CheckSection::baseline) + "\n", ""));
  EXPECT_FALSE(unmarked.changes.empty());
  EXPECT_NE(indented_lines(unmarked.changes).find(begin_marker(CheckSection::baseline)), std::string::npos)
      << indented_lines(unmarked.changes);
}

// A '|' inside a cell would split it: it is escaped.
TEST(CheckDoc, APipeInACellIsEscaped) {
  const auto table = section_table(CheckSection::links);
  EXPECT_NE(table.find("dmesg \\| grep -i xid"), std::string::npos) << table;
  EXPECT_EQ(table.find("dmesg | grep"), std::string::npos) << table;
}

// Only sections with a check that stops GPU work get that column.
TEST(CheckDoc, TheGpuBlockColumnIsWhereAnEntryStopsGpuWork) {
  EXPECT_NE(section_table(CheckSection::env).find("| stops GPU work |"), std::string::npos);
  EXPECT_NE(section_table(CheckSection::env).find("| gpu-in-use | error / warning | config | shared-gpu |"),
            std::string::npos);
  EXPECT_EQ(section_table(CheckSection::burn).find("stops GPU work"), std::string::npos);
}

}  // namespace
}  // namespace gpuscale::check_docs
