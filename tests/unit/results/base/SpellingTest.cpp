#include "results/base/Spelling.hpp"

#include <gtest/gtest.h>

namespace gpuscale::results {
namespace {

TEST(Spelling, EditDistanceCountsInsertsDeletesSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("quick", "quick"), 0u);
  EXPECT_EQ(edit_distance("quik", "quick"), 1u);     // an insert
  EXPECT_EQ(edit_distance("quicker", "quick"), 2u);  // two deletes
  EXPECT_EQ(edit_distance("qiuck", "quick"), 1u);    // neighbours swapped
  EXPECT_EQ(edit_distance("busbw", "algbw"), 3u);
  EXPECT_EQ(edit_distance("", "env"), 3u);
  EXPECT_EQ(edit_distance("ENV", "env"), 0u);  // case aside
}

TEST(Spelling, ClosestNameIsNearAndUnique) {
  const std::vector<std::string> commands = {"run", "env", "compute", "collectives", "train", "burn", "links",
                                             "report", "compare", "baseline"};
  EXPECT_EQ(closest_name("colectives", commands), "collectives");
  EXPECT_EQ(closest_name("reprot", commands), "report");
  EXPECT_EQ(closest_name("compte", commands), "compute");
  EXPECT_EQ(closest_name("frobnicate", commands), "");  // nothing near
  EXPECT_EQ(closest_name("rn", commands), "run");
  EXPECT_EQ(closest_name("", commands), "");
  // Equally near to two: no guess.
  EXPECT_EQ(closest_name("bun", {"burn", "run"}), "");
  // Too far for an edit, but the start of one name only.
  EXPECT_EQ(closest_name("allred", {"allreduce", "allgather", "broadcast"}), "allreduce");
  EXPECT_EQ(closest_name("all", {"allreduce", "allgather"}), "");
}

TEST(Spelling, DidYouMeanIsTheTailOfAUsageError) {
  EXPECT_EQ(did_you_mean("quik", {"quick", "quiet", "seed"}, "--"), " (did you mean --quick?)");
  EXPECT_EQ(did_you_mean("xyzzy", {"quick", "quiet", "seed"}, "--"), "");
}

}  // namespace
}  // namespace gpuscale::results
