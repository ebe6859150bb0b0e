#pragma once
// One collective as the sweep sees it: how a size maps to buffers (nccl-tests' semantics), what the
// output must hold, the busbw factor, and the one Communicator call. Each op is one small file that
// defines one OpSpec, and one line of OpRegistry.def registers it.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/Pattern.hpp"
#include "harness/Communicator.hpp"

namespace gpuscale::collectives {

// Element counts on one rank for one size. In-place runs use one buffer: the op reads at
// in_place_send_offset and writes at in_place_recv_offset (elements), as nccl-tests does.
struct Layout {
  std::size_t count = 0;       // the count argument of the call
  std::size_t send_count = 0;  // elements read from the send buffer
  std::size_t recv_count = 0;  // elements written to the receive buffer
  std::size_t in_place_send_offset = 0;
  std::size_t in_place_recv_offset = 0;
};

struct Call {
  const void* send;
  void* recv;
  std::size_t count;
  harness::DataType type;
  harness::RedOp redop;
  int root;
};

struct OpSpec {
  std::string_view name;          // nccl-tests' name without "_perf": allreduce, allgather, ...
  std::string_view nccl_log_name;  // the op in NCCL's TUNING log (AllReduce, ...); empty: NCCL logs none
  pattern::Expect expect;
  bool reduces;                   // takes -o
  bool rooted;                    // takes -r
  bool in_place_defined;          // false: in-place is timed but its data is undefined (alltoall, sendrecv)
  double (*busbw_factor)(int ranks);
  // `elements` = size / element size; the layout on rank `rank` of `ranks`.
  Layout (*layout)(std::size_t elements, int ranks, int rank);
  // Enqueues the op on `stream`; collective over the communicator. Its host call waits until `deadline`.
  void (*run)(harness::Communicator& comm, const Call& call, harness::Stream& stream,
              const harness::Deadline& deadline);
};

// Shared by the ops whose every buffer holds `elements` (allreduce, broadcast, reduce, sendrecv).
Layout whole_buffer_layout(std::size_t elements, int ranks, int rank);
// busbw = algbw: the data crosses each rank's link once (broadcast, reduce, sendrecv).
double unit_busbw_factor(int ranks);

// nccl-tests' size column: the larger of the bytes sent and received by one rank.
std::uint64_t size_bytes(const Layout& layout, harness::DataType type);

// Every registered op, in the registry's order (nccl-tests').
std::span<const OpSpec* const> all_ops();
// Their names, ", "-separated, for help and error text.
std::string op_names();
// What `--ops` and `--scaling-ops` mean when not given (parse_ops syntax).
inline constexpr std::string_view kDefaultOps = "all";
inline constexpr std::string_view kDefaultScalingOps = "allreduce";
// "allreduce,alltoall", "all", or both: "all" stands for every op, and the list is the union, each
// op once, in order of first mention. Throws UsageError naming an unknown or empty item.
std::vector<const OpSpec*> parse_ops(std::string_view list);
const OpSpec& find_op(std::string_view name);  // throws UsageError

}  // namespace gpuscale::collectives
