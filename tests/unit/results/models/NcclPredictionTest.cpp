#include "results/models/NcclPrediction.hpp"

#include <gtest/gtest.h>

namespace gpuscale::results {
namespace {

TEST(NcclModel, PredictsTheFastestPairNcclRuns) {
  const NcclModel m{2, 1,
                    {{"allreduce", "Tree", "LL", 4, 2},         // 4 us + n / 2 GB/s
                     {"allreduce", "Ring", "LL128", 8, 40},     // 8 us + n / 40 GB/s
                     {"allreduce", "Ring", "Simple", 1, 0},     // not run
                     {"allgather", "Ring", "Simple", 0.5, 1e3}}};
  const auto small = nccl_predict(m, "allreduce", 1000);
  ASSERT_TRUE(small);
  EXPECT_NEAR(small->time_s, 4.5e-6, 1e-12);
  EXPECT_EQ(small->choice, "Tree/LL");
  const auto large = nccl_predict(m, "allreduce", 40e6);
  ASSERT_TRUE(large);
  EXPECT_NEAR(large->time_s, 8e-6 + 1e-3, 1e-12);
  EXPECT_EQ(large->choice, "Ring/LL128");
  EXPECT_FALSE(nccl_predict(m, "reducescatter", 1000));
  EXPECT_FALSE(nccl_predict(NcclModel{}, "allreduce", 1000));
}

}  // namespace
}  // namespace gpuscale::results
