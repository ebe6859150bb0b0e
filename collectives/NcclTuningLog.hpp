#pragma once
// NCCL's algorithm and protocol per call, from its own tuning log. NCCL 2.28 prints, on rank 0 of a
// communicator, with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING, one line per collective:
//   host:pid:tid [dev] NCCL INFO AllReduce: 8 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0}
// (point-to-point calls, i.e. alltoall and sendrecv, have no such line). `--nccl-algo` routes that log
// to a file per process (NCCL_DEBUG_FILE) before NCCL starts, and rank 0 reads its own file back.
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "results/CollectiveRecords.hpp"

namespace gpuscale::collectives {

struct TuningChoice {
  std::string func;  // NCCL's name: "AllReduce", ...
  std::uint64_t bytes = 0;  // count x element size of the call
  std::string algorithm, protocol;
};

std::vector<TuningChoice> parse_nccl_tuning_log(std::istream& in);
// "AllReduce" for "allreduce"; empty for ops NCCL runs as point-to-point.
std::string nccl_func_name(std::string_view op);
// Sets each row's nccl_algorithm to the choice NCCL made most often for that op and call size.
void annotate(results::CollectiveSweep& sweep, const std::vector<TuningChoice>& choices, std::size_t type_bytes);

// The log file of this process (NCCL expands %h to the host name up to its first '.', %p to the pid).
std::string nccl_tuning_log_path(const std::string& host, int pid);
// Before NCCL's first call: NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=TUNING, NCCL_DEBUG_FILE=<dir>/...%h.%p.log.
void enable_nccl_tuning_log();

}  // namespace gpuscale::collectives
