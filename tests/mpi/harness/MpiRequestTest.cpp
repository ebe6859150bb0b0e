// Under mpiexec -n 2: the owner of nonblocking MPI operations (harness/detail/MpiRequest.hpp). A wait
// that throws leaves its request active; the owner must cancel it or keep its memory while MPI may
// still write there, and every wait must look at the interrupt flag, even when the operation is done.
// The tests run in order: the last raises SIGTERM, which stays recorded for the process.
#include "harness/detail/MpiRequest.hpp"

#include <chrono>
#include <csignal>
#include <memory>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "harness/Error.hpp"
#include "harness/Interrupts.hpp"
#include "harness/World.hpp"
#include "harness/detail/AbandonedMpi.hpp"
#include "harness/detail/MpiWorld.hpp"

namespace gpuscale::harness::detail {
namespace {

World* world = nullptr;

TEST(MpiRequest, CancelledReceiveLetsGoOfItsMemory) {
  auto memory = std::make_shared<std::vector<int>>(4, 0);
  const std::weak_ptr<std::vector<int>> watch = memory;
  {
    MpiRequest request(MpiRequest::Kind::point_to_point, memory);
    const int peer = 1 - world->rank();
    ASSERT_EQ(MPI_Irecv(memory->data(), 4, MPI_INT, peer, 999, world->mpi().world, request.handle()), MPI_SUCCESS);
    memory.reset();
    EXPECT_THROW(request.wait(Deadline::after(0.02), "a receive nobody sends"), TimeoutError);
    EXPECT_TRUE(request.active());
  }
  EXPECT_TRUE(watch.expired()) << "a cancelled receive must release its memory";
  // A wait that threw put this rank on its error path, where other operations of its own may still
  // be in flight while their buffers unwind: host buffers are kept from then on.
  EXPECT_TRUE(mpi_operation_abandoned());
  world->barrier(Deadline::after(30));
}

TEST(MpiRequest, AbandonedCollectiveKeepsItsMemoryUntilMpiWritesIt) {
  auto memory = std::make_shared<std::vector<int>>(std::vector<int>{world->rank() + 1, 0});
  const std::weak_ptr<std::vector<int>> watch = memory;
  {
    MpiRequest request(MpiRequest::Kind::collective, memory);
    if (world->rank() == 1) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ASSERT_EQ(MPI_Iallreduce(memory->data(), memory->data() + 1, 1, MPI_INT, MPI_SUM, world->mpi().world,
                             request.handle()),
              MPI_SUCCESS);
    memory.reset();
    if (world->rank() == 0) {
      EXPECT_THROW(request.wait(Deadline::after(0.05), "an allreduce rank 1 joins late"), TimeoutError);
    } else {
      request.wait(Deadline::after(30), "the allreduce");
    }
  }
  if (world->rank() == 1) {
    EXPECT_TRUE(watch.expired());
  } else {
    // Abandoned: MPI still owns the operation, so the memory stays, and host buffers are kept too.
    const auto kept = watch.lock();
    ASSERT_TRUE(kept) << "an abandoned collective's memory was freed while MPI may still write it";
    EXPECT_TRUE(mpi_operation_abandoned());
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while ((*kept)[1] != 3 && std::chrono::steady_clock::now() < until) {
      int flag = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, world->mpi().world, &flag, MPI_STATUS_IGNORE);  // progress
    }
    EXPECT_EQ((*kept)[1], 3) << "MPI finished the abandoned allreduce into the kept memory";
  }
  world->barrier(Deadline::after(30));
}

TEST(MpiRequest, WaitLooksAtTheInterruptFlagEvenWhenDone) {
  install_signal_handlers();
  std::raise(SIGTERM);
  MpiRequest request(MpiRequest::Kind::collective);
  ASSERT_EQ(MPI_Ibarrier(MPI_COMM_SELF, request.handle()), MPI_SUCCESS);
  EXPECT_THROW(request.wait(Deadline::after(30), "a barrier of one"), InterruptedError);
  EXPECT_FALSE(request.active());
}

}  // namespace
}  // namespace gpuscale::harness::detail

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  gpuscale::harness::World world(&argc, &argv);
  gpuscale::harness::detail::world = &world;
  return RUN_ALL_TESTS();
}
