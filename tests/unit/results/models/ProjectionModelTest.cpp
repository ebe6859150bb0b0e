#include "results/models/ProjectionModel.hpp"

#include <gtest/gtest.h>

namespace gpuscale::results {
namespace {

const LinkCost kIntra{1e-6, 1.0 / 300e9};
const LinkCost kInter{5e-6, 1.0 / 50e9};
constexpr double kGiB = 1073741824.0;

TEST(ProjectionModel, RingFactorsAndSteps) {
  EXPECT_DOUBLE_EQ(ring_traffic_factor("allreduce", 8), 1.75);
  EXPECT_DOUBLE_EQ(ring_traffic_factor("allgather", 8), 0.875);
  EXPECT_DOUBLE_EQ(ring_traffic_factor("reducescatter", 4), 0.75);
  EXPECT_EQ(ring_traffic_factor("broadcast", 8), 0);
  EXPECT_EQ(ring_steps("allreduce", 512), 1022);
  EXPECT_EQ(ring_steps("allgather", 512), 511);
  EXPECT_EQ(ring_steps("alltoall", 512), 0);
}

TEST(ProjectionModel, LinkFromAFit) {
  // allreduce over 2 ranks: 2 steps, factor 1; over 8 ranks: 14 steps, factor 1.75.
  const auto two = link_from_fit("allreduce", 2, 10e-6, 1e-11);
  EXPECT_DOUBLE_EQ(two.alpha_s, 5e-6);
  EXPECT_DOUBLE_EQ(two.beta_s_per_byte, 1e-11);
  const auto eight = link_from_fit("allreduce", 8, 14e-6, 1.75e-11);
  EXPECT_DOUBLE_EQ(eight.alpha_s, 1e-6);
  EXPECT_DOUBLE_EQ(eight.beta_s_per_byte, 1e-11);
  const auto one = link_from_fit("allreduce", 1, 10e-6, 1e-11);
  EXPECT_EQ(one.alpha_s, 0);
}

TEST(ProjectionModel, JobShapeRoundsNodesUp) {
  EXPECT_EQ((JobShape{512, 8}).nodes(), 64);
  EXPECT_EQ((JobShape{12, 8}).nodes(), 2);
  EXPECT_EQ((JobShape{4, 8}).nodes(), 1);
}

// Hand-computed: 512 ranks on 64 nodes of 8, 1 GiB.
// ring: 2*511 * 5 us + 2*511/512 * 2^30 B / 50e9 B/s = 5.11 ms + 42.86578688 ms.
TEST(ProjectionModel, RingAllreduceAcrossNodesIsBoundByTheInterNodeLink) {
  const JobShape job{512, 8};
  EXPECT_NEAR(projected_time_s("allreduce", Algorithm::ring, job, kGiB, kIntra, kInter), 0.04797578688, 1e-12);
  // tree: 2 (7 x 1 us + log2(64) x 5 us) = 74 us of latency, the same bandwidth term.
  EXPECT_NEAR(projected_time_s("allreduce", Algorithm::tree, job, kGiB, kIntra, kInter), 0.04293978688, 1e-12);
  // 8 B: the latency terms alone (plus 8 B of bandwidth).
  const double bw8 = 2.0 * 511 / 512 * 8 / 50e9;
  EXPECT_NEAR(projected_time_s("allreduce", Algorithm::ring, job, 8, kIntra, kInter), 5.11e-3 + bw8, 1e-15);
  EXPECT_NEAR(projected_time_s("allreduce", Algorithm::tree, job, 8, kIntra, kInter), 74e-6 + bw8, 1e-15);
}

TEST(ProjectionModel, AllgatherAndReduceScatterAcrossNodes) {
  const JobShape job{1024, 8};  // 128 nodes
  const double want = 1023 * 5e-6 + 1023.0 / 1024 * kGiB / 50e9;
  EXPECT_NEAR(projected_time_s("allgather", Algorithm::ring, job, kGiB, kIntra, kInter), want, 1e-12);
  EXPECT_NEAR(projected_time_s("reducescatter", Algorithm::ring, job, kGiB, kIntra, kInter), want, 1e-12);
  // tree is an allreduce algorithm: the others stay rings.
  EXPECT_NEAR(projected_time_s("allgather", Algorithm::tree, job, kGiB, kIntra, kInter), want, 1e-12);
}

TEST(ProjectionModel, OneNodeUsesTheIntraNodeLink) {
  const JobShape job{8, 8};
  const double want = 14 * 1e-6 + 1.75 * kGiB / 300e9;
  EXPECT_NEAR(projected_time_s("allreduce", Algorithm::ring, job, kGiB, kIntra, kInter), want, 1e-12);
  EXPECT_NEAR(projected_time_s("allreduce", Algorithm::tree, job, kGiB, kIntra, kInter), want, 1e-12);
}

TEST(ProjectionModel, BusBwApproachesTheBottleneckLink) {
  const JobShape job{4096, 8};
  const double huge = 1e15;
  const double t = projected_time_s("allreduce", Algorithm::ring, job, huge, kIntra, kInter);
  EXPECT_NEAR(projected_busbw_gbps("allreduce", 4096, huge, t), 50.0, 1e-3);
  EXPECT_EQ(projected_busbw_gbps("allreduce", 4096, huge, 0), 0);
}

}  // namespace
}  // namespace gpuscale::results
