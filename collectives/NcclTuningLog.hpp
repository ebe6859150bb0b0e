#pragma once
// NCCL's algorithm and protocol per call, from its own tuning log. NCCL 2.28 prints, on rank 0 of a
// communicator, with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING, one line per collective:
//   host:pid:tid [dev] NCCL INFO AllReduce: 8 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0}
// (point-to-point calls, i.e. alltoall and sendrecv, have no such line); and, as a communicator of 2
// or more ranks starts, its cost model (phases/collectives/NcclModel.hpp), after the INIT line that gives its
// size, in blocks of a few algorithms:
//   comm 0x7f.. rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0
//     Algorithm   |                Tree               |                Ring               | ...
//     Protocol    |       LL |    LL128 |    Simple |       LL |    LL128 |    Simple | ...
//    Max NThreads |      512 |      640 |       512 | ...
//       AllReduce | 25.2/ 0.0 | 48.5/ 0.0 | ...               (latency us / bandwidth GB/s)
// (before NCCL 2.19, one header "Latency/AlgBw |    Tree/    LL |    Tree/ LL128 | ..."). `--nccl-algo`
// routes that log to a file per process (NCCL_DEBUG_FILE) before NCCL starts, and rank 0 reads its own
// file back: the calls and the models of the communicators it is rank 0 of.
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "phases/collectives/CollectiveRecords.hpp"

namespace gpuscale::collectives {

struct TuningChoice {
  std::string func;  // NCCL's name: "AllReduce", ...
  std::uint64_t bytes = 0;  // count x element size of the call
  std::string algorithm, protocol;
};

std::vector<TuningChoice> parse_nccl_tuning_log(std::istream& in);
// NCCL's cost model of each communicator shape (ranks, nodes) in the log, the first of each shape;
// its rows are named by gpuscale op, and rows of functions no op runs are left out.
std::vector<results::NcclModel> parse_nccl_models(std::istream& in);
// "AllReduce" for "allreduce"; empty for ops NCCL runs as point-to-point.
std::string nccl_func_name(std::string_view op);
// Sets each row's nccl_algorithm to the choice NCCL made most often for that op and call size.
void annotate(results::CollectiveSweep& sweep, const std::vector<TuningChoice>& choices, std::size_t type_bytes);

// The log file of this process (NCCL expands %h to the host name up to its first '.', %p to the pid).
std::string nccl_tuning_log_path(const std::string& host, int pid);
// Before NCCL's first call: NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,TUNING,
// NCCL_DEBUG_FILE=<dir>/...%h.%p.log.
void enable_nccl_tuning_log();

}  // namespace gpuscale::collectives
