#include "collectives/BenchResources.hpp"

#include "harness/Error.hpp"
#include "harness/OutOfMemory.hpp"

namespace gpuscale::collectives {

BenchResources::BenchResources(const harness::World& world, harness::Backend& backend, std::uint64_t buffer_bytes,
                               int iterations, double timeout_s, bool corrupt)
    : world_(world), backend_(backend), timeout_s_(timeout_s), corrupt_(corrupt) {
  stream_ = backend.create_stream(harness::StreamPriority::normal);
  verifier_ = make_data_verifier(backend);
  timer_ = std::make_unique<BoundaryTimer>(backend, iterations);
  const auto skipped = harness::allocate_on_every_rank(world, harness::Deadline::after(timeout_s), buffer_bytes, [&] {
    send_ = backend.allocate(buffer_bytes);
    recv_ = backend.allocate(buffer_bytes);
  });
  if (skipped) {
    skipped_reason_ = *skipped;
    send_.reset();
    recv_.reset();
  }
}

Bench BenchResources::bench(harness::Communicator* comm) {
  if (!send_) throw harness::RuntimeError("collectives: measurement without buffers (" + skipped_reason_ + ")");
  return Bench{world_, backend_, comm, *stream_, *verifier_, *send_, *recv_, *timer_, timeout_s_, corrupt_};
}

}  // namespace gpuscale::collectives
