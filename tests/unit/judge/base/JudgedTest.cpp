// The judge's base alone: marks keyed by their phase, the beside_tenant marks of shared GPUs, and a
// family's findings gathered, with no phase's records and no RunReport.
#include "judge/base/Judged.hpp"

#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "judge/base/BesideTenant.hpp"

namespace gpuscale::judge {
namespace {

enum class AMark { slow, beside_tenant };
constexpr std::string_view phase_of(AMark) { return "a"; }
enum class BMark { slow };
constexpr std::string_view phase_of(BMark) { return "b"; }

struct PerGpu {
  int rank = 0;
};

TEST(JudgedBase, AMarkIsItsPhasesAndKindsOfTwoPhasesDiffer) {
  const auto m = record_mark(AMark::slow, 3, 1, 2.5);
  EXPECT_EQ(m.phase, "a");
  EXPECT_EQ(m.index, 3u);
  EXPECT_EQ(m.rank_index, 1u);
  EXPECT_EQ(m.value, 2.5);
  EXPECT_TRUE(m.is(AMark::slow));
  EXPECT_FALSE(m.is(BMark::slow)) << "the same number, another phase";
  EXPECT_FALSE(m.is(AMark::beside_tenant));
}

TEST(JudgedBase, RecordsOnAGpuSharedDuringTheirPhaseAreMarked) {
  SharedGpus shared;
  shared.always = {2};
  shared.by_phase["a"] = {0};
  shared.by_phase["b"] = {1};
  const std::vector<PerGpu> records = {{0}, {1}, {2}, {3}};
  std::vector<RecordMark> out;
  mark_per_gpu(records, shared, AMark::beside_tenant, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].index, 0u);  // shared during a
  EXPECT_EQ(out[1].index, 2u);  // shared from the start
  EXPECT_TRUE(out[0].is(AMark::beside_tenant));
  EXPECT_EQ(shared.ranks_in("b"), (std::set<int>{1, 2}));
  EXPECT_FALSE(shared.shared("c", 0));
}

TEST(JudgedBase, FindingsAreGatheredInOrderAndAMarkIsKeyedByItsRecord) {
  Judged first, second;
  first.checks.push_back({"x", Severity::warning, {0}, "one"});
  second.checks.push_back({"y", Severity::error, {1}, "two"});
  second.marks.push_back(record_mark(BMark::slow, 0));
  append(first, std::move(second));
  ASSERT_EQ(first.checks.size(), 2u);
  EXPECT_EQ(first.checks[1].id, "y");
  ASSERT_EQ(first.marks.size(), 1u);
  std::vector<PerGpu> records = {{5}, {9}};
  EXPECT_EQ(index_in(records, records[1]), 1u);
}

}  // namespace
}  // namespace gpuscale::judge
