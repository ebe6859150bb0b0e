// The check table (results/base/CheckTable.def) is the one list of check ids: each entry is well
// formed, the predicates read it, every id a rule raises is in it, and every id in it is raised by some
// rule (or marked retired, which docs/CHECKS.md then says). The last two read the source tree.
#include "results/base/CheckTable.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "results/base/CheckIds.hpp"

namespace gpuscale::results {
namespace {

namespace fs = std::filesystem;

// The product's sources: every folder but tests/ and build trees, where rules and probes live.
std::vector<std::pair<std::string, std::string>> product_sources() {
  std::vector<std::pair<std::string, std::string>> out;
  const fs::path root = GPUSCALE_SOURCE_DIR;
  for (const char* dir : {"judge", "phases", "launch", "results", "workloads", "collectives", "harness", "probes"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& f : fs::recursive_directory_iterator(root / dir)) {
      const auto ext = f.path().extension();
      if (!f.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".cu")) continue;
      std::ifstream in(f.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      out.emplace_back(fs::relative(f.path(), root).string(), text.str());
    }
  }
  EXPECT_GT(out.size(), 50u) << "no sources under " << root;
  return out;
}

bool is_table_file(const std::string& path) {
  return path.starts_with("results/schema/CheckIds.") || path.starts_with("results/schema/CheckTable.");
}

TEST(CheckTable, EachEntryIsAKebabCaseIdOnceWithItsTextsAndSeveritiesWorstFirst) {
  const std::regex kebab("[a-z0-9]+(-[a-z0-9]+)*");
  std::set<std::string_view> ids, constants;
  for (const auto& c : check_table()) {
    EXPECT_TRUE(std::regex_match(std::string(c.id), kebab)) << c.id;
    EXPECT_TRUE(ids.insert(c.id).second) << "twice: " << c.id;
    EXPECT_TRUE(constants.insert(c.constant).second) << "twice: " << c.constant;
    EXPECT_FALSE(c.fires_when.empty()) << c.id;
    EXPECT_FALSE(c.fix.empty()) << c.id;
    int previous = static_cast<int>(Severity::error) + 1;
    std::istringstream names{std::string(c.severities)};
    for (std::string name, slash; names >> name; names >> slash) {
      const int severity = static_cast<int>(severity_from_string(name));
      EXPECT_LT(severity, previous) << c.id << ": severities worst first, each once: " << c.severities;
      previous = severity;
    }
    // Only env stops GPU work, and only at error.
    if (c.gpu_block != GpuBlock::none) {
      EXPECT_EQ(c.section, CheckSection::env) << c.id;
      EXPECT_TRUE(c.severities.starts_with("error")) << c.id;
    }
  }
  EXPECT_EQ(check_ids::all().size(), check_table().size());
}

TEST(CheckTable, TrainingProofsAreRaisedWithThePrefix) {
  int proofs = 0;
  for (const auto& c : check_table()) {
    if (c.section != CheckSection::training_proofs) continue;
    ++proofs;
    EXPECT_TRUE(c.id.starts_with(check_ids::kTrainCheckPrefix)) << c.id;
    EXPECT_EQ(c.category, CheckCategory::correctness) << c.id;
  }
  EXPECT_EQ(proofs, 7);
  EXPECT_TRUE(check_ids::is_known(std::string(check_ids::kTrainCheckPrefix) + check_ids::kDdpMatchesSingle));
  EXPECT_FALSE(check_ids::is_known(check_ids::kDdpMatchesSingle));  // raised only with its prefix
}

// The predicates read the table: these are the sets the rules were written against.
TEST(CheckTable, ThePredicatesAreTheTablesFlags) {
  const std::set<std::string> speed = {
      "nccl-socket-transport", "collective-below-link", "slow-pair",       "slow-node",      "node-outlier",
      "compute-straggler",     "train-straggler",       "h2d-slow",        "hbm-slow",       "gpu-slow-sustained",
      "baseline-drop",         "no-rdma-adapter",       "gdr-unavailable", "budget-exceeded"};
  const std::set<std::string> baseline = {"baseline-drop", "baseline-missing", "baseline-new-failure"};
  for (const auto& id : check_ids::all()) {
    EXPECT_EQ(check_ids::judges_speed(id), speed.count(id) == 1) << id;
    EXPECT_EQ(check_ids::is_baseline(id), baseline.count(id) == 1) << id;
  }
  EXPECT_FALSE(check_ids::judges_speed("no-such-check"));
}

TEST(CheckTable, EnvBlocksGpuWorkAtErrorOnly) {
  EXPECT_EQ(env_gpu_block(check_ids::kGpuInUse, Severity::error), GpuBlock::shared_gpu);
  EXPECT_EQ(env_gpu_block(check_ids::kGpuInUse, Severity::warning), GpuBlock::none);
  EXPECT_EQ(env_gpu_block(check_ids::kDuplicateGpu, Severity::error), GpuBlock::all_gpu_work);
  EXPECT_EQ(env_gpu_block(check_ids::kNumaBinding, Severity::error), GpuBlock::none);
  EXPECT_EQ(fix_text(check_ids::kRowRemapFailed), "replace the GPU");
  EXPECT_THROW(fix_text("no-such-check"), std::out_of_range);
}

// A check built with its id spelled out, `{"some-id", Severity::...}`, rather than through a check_ids
// constant: the id must still be one of the table's.
TEST(CheckTable, EveryIdARuleSpellsOutIsInTheTable) {
  const std::regex literal_check(R"re(\{\s*"([^"]+)"\s*,\s*(results::)?Severity::)re");
  for (const auto& [path, text] : product_sources())
    for (std::sregex_iterator m(text.begin(), text.end(), literal_check), end; m != end; ++m)
      EXPECT_TRUE(check_ids::is_known((*m)[1].str()))
          << path << " raises check '" << (*m)[1] << "', which results/base/CheckTable.def does not hold";
}

// Each id is raised somewhere (its check_ids constant is named outside the table's own files), or is
// marked retired in the table: an id no rule raises must say so in docs/CHECKS.md.
TEST(CheckTable, EveryTableIdIsRaisedByARuleOrMarkedRetired) {
  const std::regex constant_name(R"(\bk[A-Z][A-Za-z0-9]*\b)");
  std::set<std::string> named;  // every kConstant the product names outside the table's own files
  for (const auto& [path, text] : product_sources())
    if (!is_table_file(path))
      for (std::sregex_iterator m(text.begin(), text.end(), constant_name), end; m != end; ++m) named.insert(m->str());
  for (const auto& c : check_table())
    EXPECT_EQ(named.count(std::string(c.constant)) == 1, !c.retired)
        << c.id << (c.retired ? ": marked retired but still raised (" : ": no source names ") << c.constant
        << (c.retired ? ")" : ": raise it from a rule, or mark it kRetired and say since when in its fires_when");
}

}  // namespace
}  // namespace gpuscale::results
