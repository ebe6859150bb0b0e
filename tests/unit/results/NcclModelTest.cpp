#include "results/NcclModel.hpp"

#include <gtest/gtest.h>

namespace gpuscale::results {
namespace {

TEST(NcclModel, PredictsTheFastestPairNcclRuns) {
  const NcclModel m{2, 1,
                    {{"AllReduce", "Tree", "LL", 4, 2},         // 4 us + n / 2 GB/s
                     {"AllReduce", "Ring", "LL128", 8, 40},     // 8 us + n / 40 GB/s
                     {"AllReduce", "Ring", "Simple", 1, 0},     // not run
                     {"AllGather", "Ring", "Simple", 0.5, 1e3}}};
  const auto small = nccl_predict(m, "AllReduce", 1000);
  ASSERT_TRUE(small);
  EXPECT_NEAR(small->time_s, 4.5e-6, 1e-12);
  EXPECT_EQ(small->choice, "Tree/LL");
  const auto large = nccl_predict(m, "AllReduce", 40e6);
  ASSERT_TRUE(large);
  EXPECT_NEAR(large->time_s, 8e-6 + 1e-3, 1e-12);
  EXPECT_EQ(large->choice, "Ring/LL128");
  EXPECT_FALSE(nccl_predict(m, "ReduceScatter", 1000));
  EXPECT_FALSE(nccl_predict(NcclModel{}, "AllReduce", 1000));
}

TEST(NcclModel, NamesOnlyTheCollectivesNcclModels) {
  EXPECT_EQ(nccl_func_of("allreduce"), "AllReduce");
  EXPECT_EQ(nccl_func_of("reducescatter"), "ReduceScatter");
  EXPECT_EQ(nccl_func_of("alltoall"), "");
  EXPECT_EQ(nccl_func_of("sendrecv"), "");
}

}  // namespace
}  // namespace gpuscale::results
