#include "harness/SmokeAllreduce.hpp"

#include <chrono>
#include <vector>

#include "harness/Activity.hpp"
#include "harness/Error.hpp"
#include "harness/FaultInjection.hpp"
#include "harness/World.hpp"
#include "results/base/Utf8.hpp"

namespace gpuscale::harness {
namespace {

// Small integers, so the float sum over ranks is exact: rank r contributes r + 1 + i % 7.
float contribution(int rank, std::size_t i) { return static_cast<float>(rank + 1 + static_cast<int>(i % 7)); }

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

results::SmokeAllreduce run_smoke_allreduce(const World& world, Backend& backend, double timeout_s) {
  results::SmokeAllreduce result;
  result.elements = kSmokeElements;
  const std::size_t bytes = kSmokeElements * sizeof(float);
  std::vector<float> host(kSmokeElements);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = contribution(world.rank(), i);
  auto send = backend.allocate(bytes);
  auto recv = backend.allocate(bytes);
  backend.upload(*send, host.data(), bytes, Deadline::after(timeout_s));
  auto stream = backend.create_stream(StreamPriority::normal);
  try {
    const auto t0 = std::chrono::steady_clock::now();
    auto comm = backend.create_communicator(world, Deadline::after(timeout_s));
    result.init_s = seconds_since(t0);
    result.transport = std::string(comm->transport());
    result.ran = true;
    // One warm-up (connection setup), then the verified, timed operation.
    const OpScope op("smoke-allreduce", bytes);
    for (int pass = 0; pass < 2; ++pass) {
      set_iteration(pass);
      std::vector<float> poison(kSmokeElements, -1.0f);
      backend.upload(*recv, poison.data(), bytes, Deadline::after(timeout_s));
      const auto t1 = std::chrono::steady_clock::now();
      comm->all_reduce(send->data(), recv->data(), kSmokeElements, DataType::float32, RedOp::sum, *stream,
                       Deadline::after(timeout_s));
      comm->wait(*stream, Deadline::after(timeout_s), "smoke allreduce");
      result.op_s = seconds_since(t1);
    }
  } catch (const TimeoutError&) {
    throw;  // a peer is stalled or dead: the job cannot go on, so the error path ends it
  } catch (const RuntimeError& e) {
    result.error = results::valid_utf8(e.what());
    return result;
  }
  corrupt_if_requested(backend, *recv, "smoke-allreduce", Deadline::after(timeout_s));  // test seam: verification must catch it
  result.nccl = backend.communication_paths();
  backend.download(host.data(), *recv, bytes, Deadline::after(timeout_s));
  const int n = world.size();
  for (std::size_t i = 0; i < host.size(); ++i) {
    const float expected = static_cast<float>(n * (n + 1) / 2 + n * static_cast<int>(i % 7));
    if (host[i] != expected) ++result.wrong;
  }
  result.passed = result.wrong == 0;
  return result;
}

}  // namespace gpuscale::harness
