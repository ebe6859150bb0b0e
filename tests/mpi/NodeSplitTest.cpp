// split_by_node under mpiexec on the cpu backend: with GPUSCALE_TEST_RANKS_PER_NODE=K the world of N
// ranks is N/K emulated nodes. Each rank checks its per-node and cross-node communicators' shapes, and
// an allreduce of world ranks over each proves the members: node n holds ranks nK..nK+K-1, the
// cross-node communicator of local rank l holds l, K+l, 2K+l, ...
#include <cstdio>
#include <cstdlib>
#include <string>

#include "harness/CpuBackend.hpp"
#include "harness/NodeSplit.hpp"
#include "harness/World.hpp"

namespace {

using namespace gpuscale::harness;

int failures = 0;

void expect(bool ok, int rank, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "rank %d: FAIL %s\n", rank, what.c_str());
  ++failures;
}

double sum_over(Communicator& comm, Backend& backend, double value) {
  auto stream = backend.create_stream(StreamPriority::normal);
  double out = 0;
  comm.all_reduce(&value, &out, 1, DataType::float64, RedOp::sum, *stream);
  comm.wait(*stream, Deadline::after(30), "test allreduce");
  return out;
}

void check(const World& world, Backend& backend, int per_node) {
  const int rank = world.rank(), size = world.size();
  const int nodes = size / per_node, node = rank / per_node, local = rank % per_node;
  expect(world.node() == node && world.local_rank() == local && world.node_count() == nodes, rank,
         "World's node layout is not ranks / " + std::to_string(per_node));
  auto comm = backend.create_communicator(world, Deadline::after(30));
  auto split = split_by_node(*comm, world, Deadline::after(30));
  expect(split.node && split.node->size() == per_node && split.node->rank() == local, rank, "per-node shape");
  expect(split.cross_node && split.cross_node->size() == nodes && split.cross_node->rank() == node, rank,
         "cross-node shape");
  if (failures) return;
  // Node n: sum of nK + l over l; cross-node of l: sum of nK + l over n.
  const double node_sum = per_node * node * per_node + per_node * (per_node - 1) / 2.0;
  const double cross_sum = per_node * nodes * (nodes - 1) / 2.0 + nodes * local;
  expect(sum_over(*split.node, backend, rank) == node_sum, rank, "per-node members");
  expect(sum_over(*split.cross_node, backend, rank) == cross_sum, rank, "cross-node members");
  // Local rank 0's cross-node communicator is the one-rank-per-node communicator: one member per node.
  expect(sum_over(*split.cross_node, backend, 1.0) == nodes, rank, "one rank per node");
}

}  // namespace

int main(int argc, char** argv) {
  World world(&argc, &argv);
  const char* k = std::getenv("GPUSCALE_TEST_RANKS_PER_NODE");
  const int per_node = k ? std::atoi(k) : world.size();
  auto backend = make_cpu_backend(30);
  try {
    check(world, *backend, per_node);
  } catch (const std::exception& e) {
    expect(false, world.rank(), e.what());
  }
  const double total = world.sum_over_ranks(failures, Deadline::after(30));
  if (world.rank() == 0) std::printf("node_split: %s (%d ranks, %d per node)\n", total ? "FAILED" : "ok", world.size(), per_node);
  return total ? 1 : 0;
}
