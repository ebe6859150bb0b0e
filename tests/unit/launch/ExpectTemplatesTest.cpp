// The expect templates (launch/ExpectTemplates.hpp): the checked-in files are what the floors make,
// each is a valid expect file, docs/REPORT.md's example is the H200 quick one, and --expect auto picks
// by the run's GPU model and profile.
#include "launch/ExpectTemplates.hpp"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "launch/ReportFiles.hpp"
#include "results/report/Expectations.hpp"

namespace gpuscale::launch {
namespace {

using nlohmann::json;

std::string source_file(const std::string& path) {
  std::ifstream in(std::string(GPUSCALE_SOURCE_DIR) + "/" + path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const TemplateModel& model_named(std::string_view stem) {
  for (const auto& m : template_models())
    if (m.stem == stem) return m;
  throw std::out_of_range(std::string(stem));
}

TEST(ExpectTemplates, CheckedInFilesAreWhatTheFloorsMake) {
  ASSERT_GE(template_models().size(), 3u);
  for (const auto& model : template_models())
    for (const bool quick : {true, false}) {
      const auto name = template_file_name(model, quick);
      EXPECT_EQ(source_file("launch/expect/" + name), template_text(expect_template(model, quick)))
          << "launch/expect/" << name << " differs from the floors: cmake --build build --target expect_templates "
          << "&& build/tools/expect_templates/expect_templates --write launch/expect";
    }
}

TEST(ExpectTemplates, EveryTemplateIsAValidExpectFileOfItsProfile) {
  for (const auto& model : template_models())
    for (const bool quick : {true, false}) {
      const auto e = results::parse_expectations(expect_template(model, quick), known_label_values());
      EXPECT_GE(e.thresholds.size(), 5u) << model.stem;
      std::size_t compute = 0;
      for (const auto& t : e.thresholds) compute += t.phase == "compute" ? 1 : 0;
      EXPECT_EQ(compute, quick ? 2u : 4u) << model.stem << ": a threshold per precision the profile runs";
    }
  // Rounded down to a tenth from the floors: 56% of the H200's 989.4 bf16 TFLOP/s is 554.064.
  const auto h200 = expect_template(model_named("h200-sxm"), true);
  bool burn = false;
  for (const auto& t : h200["thresholds"])
    if (t["metric"] == "sustained_tflops") burn = t["min"] == 554.0;
  EXPECT_TRUE(burn) << h200.dump(2);
}

// The example a reader copies is a template that holds on a healthy node.
TEST(ExpectTemplates, TheDocsExampleIsTheH200QuickTemplate) {
  const auto doc = source_file("docs/REPORT.md");
  const auto section = doc.find("### `--expect FILE`");
  ASSERT_NE(section, std::string::npos);
  const auto open = doc.find("```json\n", section);
  const auto close = doc.find("```\n", open + 8);
  ASSERT_NE(close, std::string::npos);
  EXPECT_EQ(json::parse(doc.substr(open + 8, close - open - 8)),
            json::parse(source_file("launch/expect/h200-sxm-quick.json")));
}

results::RunReport run_on(const char* gpu, const char* profile) {
  results::RunReport r;
  results::RankEnv e;
  e.backend = gpu ? "cuda" : "cpu";
  if (gpu) {
    e.gpu.emplace();
    e.gpu->name = gpu;
  }
  r.ranks = {e};
  r.plan = results::RunPlanRecord{};
  r.plan->profile = profile;
  return r;
}

TEST(ExpectTemplates, AutoPicksTheTemplateOfTheGpuModelAndProfile) {
  auto picked = pick_template(run_on("NVIDIA H200", "quick"));
  ASSERT_TRUE(picked.expect);
  EXPECT_EQ(*picked.expect, expect_template(model_named("h200-sxm"), true));
  EXPECT_EQ(picked.source.result, results::RuleResult::pass);
  EXPECT_EQ(picked.source.detail, "h200-sxm-quick.json for NVIDIA H200 (rank 0), the quick profile");
  picked = pick_template(run_on("NVIDIA H100 80GB HBM3", "default"));
  EXPECT_EQ(*picked.expect, expect_template(model_named("h100-sxm"), false));
  picked = pick_template(run_on("NVIDIA A100-SXM4-80GB", "quick"));
  EXPECT_EQ(*picked.expect, expect_template(model_named("a100-sxm-80gb"), true));
  picked = pick_template(run_on("NVIDIA L40S", "quick"));
  EXPECT_FALSE(picked.expect);
  EXPECT_EQ(picked.source.result, results::RuleResult::warn);
  picked = pick_template(run_on(nullptr, "quick-cpu"));
  EXPECT_FALSE(picked.expect);
  EXPECT_EQ(picked.source.result, results::RuleResult::skip);
}

}  // namespace
}  // namespace gpuscale::launch
