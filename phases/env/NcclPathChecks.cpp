#include "phases/env/NcclPathChecks.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "results/base/CheckIds.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::judge {

namespace ids = results::check_ids;
namespace {

using results::Check;
using results::RankEnv;
using results::Severity;

std::string join(const std::vector<std::string>& items) { return items.empty() ? "-" : results::join_words(items); }

bool uses_socket(const results::NcclPaths& p) {
  return std::find(p.transports.begin(), p.transports.end(), "NET/Socket") != p.transports.end() ||
         (p.network == "Socket" && p.nodes > 1);
}

std::string hostid(const RankEnv& r) {
  const auto it = r.variables.find("NCCL_HOSTID");
  return it == r.variables.end() ? "" : it->second;
}

// Why NCCL sees more hosts than there are: ranks of one host with different NCCL_HOSTID values.
std::string hostid_hint(const std::vector<RankEnv>& ranks) {
  std::map<std::string, std::set<std::string>> ids;  // host -> NCCL_HOSTID values
  for (const auto& r : ranks) ids[r.host].insert(hostid(r));
  for (const auto& [host, values] : ids)
    if (values.size() > 1)
      return " Ranks on " + host + " have different NCCL_HOSTID values, so NCCL treats them as separate hosts.";
  return "";
}

// Busbw of the smoke allreduce in GB/s (nccl-tests' allreduce factor 2(n-1)/n); 0 when it did not pass.
// One cold call: a lower bound, quoted as evidence beside the socket warning only.
double smoke_busbw_gbps(const results::SmokeAllreduce& smoke, int world_size) {
  if (!smoke.passed || smoke.op_s <= 0 || world_size < 1) return 0;
  const double bytes = static_cast<double>(smoke.elements) * 4.0;  // float32
  return bytes * 2.0 * (world_size - 1) / world_size / smoke.op_s / 1e9;
}

}  // namespace

void nccl_path_checks(const std::vector<RankEnv>& ranks, std::vector<Check>& out) {
  std::vector<int> socket;
  for (const auto& r : ranks)
    if (r.smoke.nccl.captured && uses_socket(r.smoke.nccl)) socket.push_back(r.rank);
  if (!socket.empty()) {
    const auto& r = ranks[static_cast<std::size_t>(socket.front())];
    const double gbps = smoke_busbw_gbps(r.smoke, static_cast<int>(ranks.size()));
    out.push_back({ids::kNcclSocketTransport, Severity::warning, socket,
                   "NCCL connects its " + std::to_string(r.smoke.nccl.nodes) + " nodes via NET/Socket (TCP sockets; "
                       "NCCL chose " + join(r.smoke.nccl.transports) + "), not InfiniBand/RoCE: "
                       "inter-node bandwidth is a fraction of a fabric's (smoke allreduce busbw " +
                       results::fixed(gbps, 2) + " GB/s). Install the IB/RoCE drivers and rdma-core, unset "
                       "NCCL_IB_DISABLE and check NCCL_NET / the NCCL net plugin." + hostid_hint(ranks)});
  }
  std::vector<int> mismatch;
  for (const auto& r : ranks)
    if (r.smoke.nccl.captured && r.smoke.nccl.nodes > 0 && r.smoke.nccl.nodes != r.node_count)
      mismatch.push_back(r.rank);
  if (!mismatch.empty()) {
    const auto& r = ranks[static_cast<std::size_t>(mismatch.front())];
    out.push_back({ids::kNcclNodeMismatch, Severity::warning, mismatch,
                   "NCCL sees " + std::to_string(r.smoke.nccl.nodes) + " nodes where MPI sees " +
                       std::to_string(r.node_count) + ": NCCL takes the node from the host's identity (NCCL_HOSTID "
                       "overrides it), MPI from shared memory." + hostid_hint(ranks)});
  }
}

}  // namespace gpuscale::judge
