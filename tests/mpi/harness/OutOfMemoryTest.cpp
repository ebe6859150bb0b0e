// Under mpiexec -n 2 on the cpu backend: an allocation that fails on one rank becomes the same skip
// reason on every rank, and the job goes on (the next collective works).
#include "harness/OutOfMemory.hpp"

#include <gtest/gtest.h>

#include "harness/CpuBackend.hpp"
#include "harness/Error.hpp"
#include "harness/World.hpp"

namespace gpuscale::harness {
namespace {

World* world = nullptr;

TEST(OutOfMemory, OneRankOutOfMemorySkipsEverywhere) {
  auto backend = make_cpu_backend();
  std::unique_ptr<Buffer> buffer;
  const std::uint64_t huge = 1ull << 62;  // no host can give this
  const auto reason = allocate_on_every_rank(*world, Deadline::after(30), huge, [&] {
    buffer = backend->allocate(world->rank() == 1 ? huge : 1024);
  });
  ASSERT_TRUE(reason.has_value());
  EXPECT_EQ(reason->rfind("out of memory at 4611686018427387904 B on rank 1: ", 0), 0u) << *reason;
  buffer.reset();
  // The run goes on: the next size allocates everywhere and the ranks still talk.
  const auto next = allocate_on_every_rank(*world, Deadline::after(30), 1024, [&] { buffer = backend->allocate(1024); });
  EXPECT_FALSE(next.has_value());
  EXPECT_EQ(world->sum_over_ranks(1, Deadline::after(30)), world->size());
}

TEST(OutOfMemory, OtherErrorsPropagate) {
  EXPECT_THROW(allocate_on_every_rank(*world, Deadline::after(30), 8, [] { throw RuntimeError("boom"); }),
               RuntimeError);
  world->barrier(Deadline::after(30));
}

}  // namespace
}  // namespace gpuscale::harness

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  gpuscale::harness::World world(&argc, &argv);
  gpuscale::harness::world = &world;
  return RUN_ALL_TESTS();
}
