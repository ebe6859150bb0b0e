// The ops against nccl-tests' definitions: busbw factors, layouts (size and count columns), and the
// exact expected values per op and data type, computed by hand.
#include "collectives/Op.hpp"

#include <gtest/gtest.h>

#include "collectives/DataVerifier.hpp"
#include "collectives/Measure.hpp"
#include "harness/Error.hpp"
#include "harness/HalfFloat.hpp"
#include "results/models/ProjectionModel.hpp"

namespace gpuscale::collectives {
namespace {

using harness::DataType;

TEST(Op, BusbwFactorsAreNcclTests) {
  for (const int n : {2, 3, 4, 8}) {
    const double d = n;
    EXPECT_DOUBLE_EQ(find_op("allreduce").busbw_factor(n), 2 * (d - 1) / d);
    EXPECT_DOUBLE_EQ(find_op("allgather").busbw_factor(n), (d - 1) / d);
    EXPECT_DOUBLE_EQ(find_op("reducescatter").busbw_factor(n), (d - 1) / d);
    EXPECT_DOUBLE_EQ(find_op("alltoall").busbw_factor(n), (d - 1) / d);
    EXPECT_DOUBLE_EQ(find_op("broadcast").busbw_factor(n), 1);
    EXPECT_DOUBLE_EQ(find_op("reduce").busbw_factor(n), 1);
    EXPECT_DOUBLE_EQ(find_op("sendrecv").busbw_factor(n), 1);
  }
  EXPECT_DOUBLE_EQ(find_op("allreduce").busbw_factor(2), 1.0);
}

// The projection's ring traffic factors are the sweep's busbw factors: one definition in two layers.
TEST(Op, ProjectionFactorsAreTheBusbwFactors) {
  for (const char* op : {"allreduce", "allgather", "reducescatter"})
    for (const int n : {2, 3, 8, 512, 4096})
      EXPECT_DOUBLE_EQ(results::ring_traffic_factor(op, n), find_op(op).busbw_factor(n)) << op << " " << n;
}

TEST(Op, LayoutsFollowNcclTestsSizeSemantics) {
  // 1 MiB of float on 4 ranks: 262144 elements.
  const std::size_t e = 262144;
  auto l = find_op("allreduce").layout(e, 4, 1);
  EXPECT_EQ(l.count, e);
  EXPECT_EQ(size_bytes(l, DataType::float32), 1u << 20);
  l = find_op("allgather").layout(e, 4, 1);
  EXPECT_EQ(l.count, e / 4);  // nccl-tests' count column: per-rank elements
  EXPECT_EQ(l.send_count, e / 4);
  EXPECT_EQ(l.recv_count, e);
  EXPECT_EQ(l.in_place_send_offset, e / 4);  // rank 1's slot
  EXPECT_EQ(size_bytes(l, DataType::float32), 1u << 20);
  l = find_op("reducescatter").layout(e, 4, 3);
  EXPECT_EQ(l.send_count, e);
  EXPECT_EQ(l.recv_count, e / 4);
  EXPECT_EQ(l.in_place_recv_offset, 3 * e / 4);
  l = find_op("alltoall").layout(e, 4, 0);
  EXPECT_EQ(l.count, e / 4);
  EXPECT_EQ(l.send_count, e);
  // Odd rank counts round down to whole blocks, as nccl-tests does: 10 elements over 3 ranks.
  l = find_op("allgather").layout(10, 3, 2);
  EXPECT_EQ(l.count, 3u);
  EXPECT_EQ(l.recv_count, 9u);
  EXPECT_EQ(size_bytes(l, DataType::int32), 36u);
}

TEST(Op, ParseOps) {
  EXPECT_EQ(parse_ops("all").size(), 7u);
  const auto two = parse_ops("alltoall,allreduce,alltoall");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0]->name, "alltoall");
  EXPECT_THROW(parse_ops("allreduce,bogus"), harness::UsageError);
  EXPECT_THROW(parse_ops(""), harness::UsageError);
  EXPECT_THROW(parse_ops("allreduce,"), harness::UsageError);
  EXPECT_THROW(parse_ops("allreduce,,allgather"), harness::UsageError);
}

// The message offers "all" beside the names, so "all" mixes with names: the union, each op once.
TEST(Op, AllMixesWithNamesAsTheUnion) {
  const auto mixed = parse_ops("all,allreduce");
  ASSERT_EQ(mixed.size(), 7u);
  EXPECT_EQ(mixed.front()->name, "allreduce");
  const auto sendrecv_first = parse_ops("sendrecv,all");
  ASSERT_EQ(sendrecv_first.size(), 7u);
  EXPECT_EQ(sendrecv_first.front()->name, "sendrecv");
  try {
    parse_ops("allreduce,bogus");
  } catch (const harness::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("or all"), std::string::npos) << e.what();
  }
}

SweepOptions with(DataType type, harness::RedOp redop) {
  SweepOptions o;
  o.type = type;
  o.redop = redop;
  o.root = 1;
  return o;
}

TEST(Pattern, ExpectedValuesByHand) {
  const auto o = with(DataType::float32, harness::RedOp::sum);
  // input(r, i) = 1 + (7r + 3i) mod 13 for float on 3 ranks.
  auto s = make_spec(find_op("allreduce"), o, 3, 0, 5);
  EXPECT_EQ(s.span, 13);
  EXPECT_EQ(pattern::input(s, 2, 4), 1 + (14 + 12) % 13);
  EXPECT_EQ(pattern::expected(s, 4), (1 + 12) + (1 + 19 % 13) + (1 + 26 % 13));
  s = make_spec(find_op("allgather"), o, 3, 0, 5);
  EXPECT_EQ(pattern::expected(s, 7), pattern::input(s, 1, 2));  // block 1, element 2
  s = make_spec(find_op("reducescatter"), o, 3, 2, 5);
  EXPECT_EQ(pattern::expected(s, 1), pattern::reduced(s, 11));
  s = make_spec(find_op("broadcast"), o, 3, 0, 5);
  EXPECT_EQ(pattern::expected(s, 3), pattern::input(s, 1, 3));  // root 1
  s = make_spec(find_op("alltoall"), o, 3, 2, 4);
  EXPECT_EQ(pattern::expected(s, 5), pattern::input(s, 1, 2 * 4 + 1));
  s = make_spec(find_op("sendrecv"), o, 3, 0, 4);
  EXPECT_EQ(pattern::expected(s, 2), pattern::input(s, 2, 2));  // from the ring predecessor
  s = make_spec(find_op("reduce"), o, 3, 0, 4);
  EXPECT_FALSE(pattern::checked(s));  // rank 0 is not the root
}

TEST(Pattern, ReductionsStayExactInEveryType) {
  for (const auto type : {DataType::int8, DataType::uint8, DataType::float16, DataType::bfloat16, DataType::float32,
                          DataType::int32, DataType::float64}) {
    for (const int n : {2, 3, 8, 16}) {
      const auto s = make_spec(find_op("allreduce"), with(type, harness::RedOp::sum), n, 0, 64);
      for (std::uint64_t i = 0; i < 64; ++i) {
        const auto v = pattern::expected(s, i);
        EXPECT_GE(v, 1);
        const std::int64_t limit = type == DataType::int8       ? 127
                                   : type == DataType::bfloat16 ? 256
                                   : type == DataType::float16  ? 2048
                                                                : 1 << 24;
        EXPECT_LE(v, limit) << "type " << harness::to_string(type) << " n=" << n;
      }
    }
  }
  const auto prod = make_spec(find_op("allreduce"), with(DataType::int8, harness::RedOp::prod), 8, 0, 16);
  for (std::uint64_t i = 0; i < 16; ++i) EXPECT_EQ(pattern::expected(prod, i), 2);
  const auto avg = make_spec(find_op("allreduce"), with(DataType::float32, harness::RedOp::avg), 3, 0, 16);
  for (std::uint64_t i = 0; i < 16; ++i) EXPECT_EQ(pattern::expected(avg, i), pattern::input(avg, 1, i));
  EXPECT_GT(avg.tolerance, 0);
  const auto mx = make_spec(find_op("allreduce"), with(DataType::int32, harness::RedOp::max), 4, 0, 16);
  EXPECT_EQ(pattern::expected(mx, 0), 1 + 21 % 13);  // rank 3 holds the largest at i = 0
}

// The host verifier against a hand-written half buffer: one wrong element is counted, zeros are wrong.
TEST(HostDataVerifier, CountsWrongHalfElements) {
  auto verifier = make_host_data_verifier();
  const auto o = with(DataType::float16, harness::RedOp::sum);
  auto s = make_spec(find_op("allreduce"), o, 2, 0, 8);
  std::vector<std::uint16_t> data(8);
  for (std::size_t i = 0; i < 8; ++i)
    data[i] = harness::float_to_half(static_cast<float>(pattern::expected(s, i)));
  struct NoStream : harness::Stream {
    void synchronize(const harness::Deadline&, std::string_view) override {}
    void* native() noexcept override { return nullptr; }
  } stream;
  EXPECT_EQ(verifier->count_wrong(data.data(), 8, o.type, s, stream, harness::Deadline::never()), 0u);
  data[3] = harness::float_to_half(1000.0f);
  verifier->clear(data.data() + 6, 2 * sizeof(std::uint16_t), stream);
  EXPECT_EQ(verifier->count_wrong(data.data(), 8, o.type, s, stream, harness::Deadline::never()), 3u);
  s.rank = 1;
  verifier->fill(data.data(), 8, o.type, s, stream);
  EXPECT_EQ(harness::half_to_float(data[5]), static_cast<float>(pattern::input(s, 1, 5)));
}

}  // namespace
}  // namespace gpuscale::collectives
