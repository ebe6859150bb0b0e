// docs/REPORT.md's field tables against the records' field lists (results/schema/RecordFields.hpp): a key
// added to a list but not to its table, or documented but no longer written, fails here.
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "results/schema/RunReport.hpp"

namespace gpuscale::results {
namespace {

// One table row: the backticked keys of its first cell ("nvlinks[]" read as "nvlinks"), and its
// last cell (the meaning, where a nested record's keys are listed).
struct Row {
  std::vector<std::string> keys;
  std::string meaning;
};

std::vector<std::string> backticked(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t open = text.find('`'); open != std::string::npos; open = text.find('`', open + 1)) {
    const auto close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    auto key = text.substr(open + 1, close - open - 1);
    if (key.size() > 2 && key.ends_with("[]")) key.resize(key.size() - 2);
    out.push_back(key);
    open = close;
  }
  return out;
}

// Section heading ("### `burn[]`" -> "burn[]") -> its table's rows.
std::map<std::string, std::vector<Row>> report_tables() {
  std::ifstream in(std::string(GPUSCALE_SOURCE_DIR) + "/docs/REPORT.md");
  EXPECT_TRUE(in) << "docs/REPORT.md not found under " << GPUSCALE_SOURCE_DIR;
  std::map<std::string, std::vector<Row>> tables;
  std::string section, line;
  while (std::getline(in, line)) {
    if (line.starts_with("#")) {
      const auto keys = backticked(line);
      section = keys.empty() ? line : line.substr(line.find('`') + 1, line.rfind('`') - line.find('`') - 1);
    } else if (line.starts_with("| `")) {
      const auto first_end = line.find(" | ", 2);
      tables[section].push_back(Row{backticked(line.substr(0, first_end)), line.substr(line.rfind(" | ", line.size() - 3))});
    }
  }
  return tables;
}

template <class T>
std::set<std::string> list_keys(std::set<std::string> keys = {}) {
  for (const auto key : field_keys<T>()) keys.insert(std::string(key));
  return keys;
}

// A record with a table of its own: the first cells' keys and the list (plus `more`) are the same
// set; a dotted key (`world.size`) stands for its first part.
template <class T>
void expect_table_is_list(const std::map<std::string, std::vector<Row>>& tables, const std::string& section,
                          std::set<std::string> more = {}) {
  const auto it = tables.find(section);
  ASSERT_NE(it, tables.end()) << "docs/REPORT.md has no table under `" << section << "`";
  std::set<std::string> documented;
  for (const auto& row : it->second)
    for (const auto& key : row.keys) documented.insert(key.substr(0, key.find('.')));
  const auto listed = list_keys<T>(std::move(more));
  for (const auto& key : listed) EXPECT_TRUE(documented.count(key)) << "`" << key << "` is missing from " << section;
  for (const auto& key : documented) EXPECT_TRUE(listed.count(key)) << "`" << key << "` in " << section << " is not written";
}

// A nested record documented in its parent's row: every key of its list is named in that row.
template <class T>
void expect_row_names_list(const std::map<std::string, std::vector<Row>>& tables, const std::string& section,
                           const std::string& row_key) {
  const auto it = tables.find(section);
  ASSERT_NE(it, tables.end()) << "docs/REPORT.md has no table under `" << section << "`";
  for (const auto& row : it->second) {
    if (std::find(row.keys.begin(), row.keys.end(), row_key) == row.keys.end()) continue;
    const auto named = backticked(row.meaning);
    for (const auto& key : list_keys<T>())
      EXPECT_NE(std::find(named.begin(), named.end(), key), named.end())
          << "`" << key << "` is missing from the row `" << row_key << "` of " << section;
    return;
  }
  ADD_FAILURE() << section << " has no row `" << row_key << "`";
}

TEST(RecordDoc, EachTableListsTheKeysItsRecordWrites) {
  const auto tables = report_tables();
  expect_table_is_list<RankEnv>(tables, "ranks[]");
  expect_table_is_list<GpuInfo>(tables, "ranks[].gpu");
  expect_table_is_list<ComputeRecord>(tables, "compute[]");
  expect_table_is_list<BurnRecord>(tables, "burn[]");
  expect_table_is_list<LinksRecord>(tables, "links[]");
  std::set<std::string> per_rank;
  for_each_per_rank_array([&](const char* key, auto) { per_rank.insert(key); });
  expect_table_is_list<RunReport>(tables, "## JSON (schema_version 2)", per_rank);
}

TEST(RecordDoc, EachRowNamesTheKeysOfItsNestedRecord) {
  const auto tables = report_tables();
  expect_row_names_list<Versions>(tables, "ranks[]", "versions");
  expect_row_names_list<Tenancy>(tables, "ranks[]", "tenancy");
  expect_row_names_list<GpuProcess>(tables, "ranks[]", "tenancy");
  expect_row_names_list<LibraryFile>(tables, "ranks[]", "nccl_libraries");
  expect_row_names_list<NetworkAdapters>(tables, "ranks[]", "network");
  expect_row_names_list<RdmaAdapter>(tables, "ranks[]", "network");
  expect_row_names_list<AdapterPort>(tables, "ranks[]", "network");
  expect_row_names_list<SmokeTest>(tables, "ranks[]", "smoke_allreduce");
  expect_row_names_list<NcclPaths>(tables, "ranks[]", "smoke_allreduce");
  expect_row_names_list<SlurmInfo>(tables, "ranks[]", "slurm");
  expect_row_names_list<NvLinkGroup>(tables, "ranks[].gpu", "nvlinks");
  expect_row_names_list<PeerAccess>(tables, "ranks[].gpu", "peers");
  expect_row_names_list<ComputeVerification>(tables, "compute[]", "check");
  expect_row_names_list<BurnWindow>(tables, "burn[]", "windows");
  expect_row_names_list<BurnSample>(tables, "burn[]", "samples");
  expect_row_names_list<BurnCounters>(tables, "burn[]", "counters");
  expect_row_names_list<CopyFigure>(tables, "links[]", "copies");
  expect_row_names_list<HbmFigure>(tables, "links[]", "hbm");
  expect_row_names_list<PcieUnderLoad>(tables, "links[]", "pcie");
  expect_row_names_list<NvLinkStatus>(tables, "links[]", "nvlinks");
  expect_row_names_list<NvLinkCounters>(tables, "links[]", "nvlinks");
  const std::string top = "## JSON (schema_version 2)";
  expect_row_names_list<SkippedPhase>(tables, top, "phases_skipped");
  expect_row_names_list<Check>(tables, top, "checks");
  expect_row_names_list<Emulation>(tables, top, "world.emulated");
  expect_row_names_list<TraceSpan>(tables, top, "trace_spans");
  expect_row_names_list<MidRunTenant>(tables, top, "tenants");
  expect_row_names_list<BudgetRecord>(tables, top, "budget");
  expect_row_names_list<PhaseBudget>(tables, top, "budget");
  expect_row_names_list<RuleOutcome>(tables, top, "verdict.rules");
  expect_row_names_list<RunFailure>(tables, top, "failure");
  expect_row_names_list<TrainResults>(tables, top, "train");
  expect_row_names_list<TrainRecord>(tables, top, "train");
  expect_row_names_list<TrainRankFigures>(tables, top, "train");
  expect_row_names_list<TrainVerification>(tables, top, "train");
}

}  // namespace
}  // namespace gpuscale::results
