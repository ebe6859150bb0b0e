// The adapter rules of HealthChecks.hpp: one record per node (its lowest rank's), compared port by
// port across nodes.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "phases/env/HealthChecks.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/CheckTable.hpp"
#include "results/base/Format.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::judge {

using namespace results;

namespace {

struct PortSeen {
  const RankEnv* node;  // the node's first rank
  const AdapterPort* port;
};

std::vector<const RankEnv*> one_rank_per_node(const std::vector<RankEnv>& ranks) {
  std::map<int, const RankEnv*> first;
  for (const auto& r : ranks)
    if (r.network.probed) first.emplace(r.node, &r);
  std::vector<const RankEnv*> out;
  for (const auto& [node, r] : first) out.push_back(r);
  return out;
}

std::vector<int> node_ranks(const std::vector<RankEnv>& ranks, int node) {
  std::vector<int> ids;
  for (const auto& r : ranks)
    if (r.node == node) ids.push_back(r.rank);
  return ids;
}

bool active(const AdapterPort& p) { return p.state == "ACTIVE"; }

}  // namespace

void adapter_checks(const std::vector<RankEnv>& ranks, std::vector<Check>& out) {
  const auto nodes = one_rank_per_node(ranks);
  std::vector<std::string> bare;
  std::vector<int> bare_ranks;
  std::map<std::string, std::vector<PortSeen>> ports;  // "mlx5_0/1" -> every node's view of it
  for (const auto* n : nodes) {
    if (n->network.adapters.empty()) {
      bare.push_back(n->host);
      const auto ids = node_ranks(ranks, n->node);
      bare_ranks.insert(bare_ranks.end(), ids.begin(), ids.end());
    }
    for (const auto& a : n->network.adapters)
      for (const auto& p : a.ports) ports[a.name + "/" + std::to_string(p.port)].push_back({n, &p});
  }
  if (!bare.empty())
    out.push_back(Check{check_ids::kNoRdmaAdapter, Severity::info, bare_ranks,
                        "no RDMA adapter (/sys/class/infiniband is empty) on " + join_words(bare) +
                            ": NCCL connects nodes over TCP sockets there"});

  for (const auto& [key, seen] : ports) {
    std::vector<double> rates;  // of the active ports whose rate is known
    std::size_t active_ports = 0;
    for (const auto& s : seen) {
      if (!active(*s.port)) continue;
      ++active_ports;
      if (s.port->rate_gbps > 0) rates.push_back(s.port->rate_gbps);
    }
    // nic-down: a port its peers have active. A port that no node has active is the fabric's
    // layout, not a fault; a node without the adapter at all is named too.
    if (active_ports > 0) {
      std::vector<std::string> down;
      std::vector<int> ids;
      for (const auto* n : nodes) {
        const auto it = std::find_if(seen.begin(), seen.end(), [&](const PortSeen& s) { return s.node == n; });
        if (it != seen.end() && active(*it->port)) continue;
        down.push_back(n->host + (it == seen.end() ? " (no such port)"
                                                   : " (" + it->port->state + ", " + it->port->phys_state + ")"));
        const auto r = node_ranks(ranks, n->node);
        ids.insert(ids.end(), r.begin(), r.end());
      }
      if (!down.empty())
        out.push_back(Check{check_ids::kNicDown, Severity::error, ids,
                            "RDMA port " + key + " is not active on " + join_words(down) + " while " +
                                std::to_string(active_ports) + " other node" + (active_ports == 1 ? "" : "s") +
                                " have it active: check the cable and switch port (ibstat, "
                                "/sys/class/infiniband/" + key.substr(0, key.find('/')) + "), or drain the node"});
    }
    if (rates.size() < 2) continue;
    const double typical = median(rates);
    for (const auto& s : seen) {
      if (!active(*s.port) || s.port->rate_gbps <= 0 || s.port->rate_gbps >= typical) continue;
      out.push_back(Check{check_ids::kNicRateMismatch, Severity::warning, node_ranks(ranks, s.node->node),
                          "RDMA port " + key + " on " + s.node->host + " runs at " + s.port->rate_text + " (" +
                              fixed(s.port->rate_gbps, 0) + " Gb/s) while the same port on the other nodes runs at " +
                              fixed(typical, 0) + " Gb/s (median): " + results::fix_text(check_ids::kNicRateMismatch)});
    }
  }

  // GPUDirect RDMA: nodes that talk over RDMA without it stage every transfer through host memory.
  if (nodes.size() < 2) return;
  std::vector<std::string> without;
  std::vector<int> ids;
  for (const auto* n : nodes) {
    const bool rdma = std::any_of(n->network.adapters.begin(), n->network.adapters.end(), [](const RdmaAdapter& a) {
      return std::any_of(a.ports.begin(), a.ports.end(), active);
    });
    if (!rdma || n->network.peermem_loaded || n->network.dmabuf_possible) continue;
    without.push_back(n->host);
    const auto r = node_ranks(ranks, n->node);
    ids.insert(ids.end(), r.begin(), r.end());
  }
  if (!without.empty())
    out.push_back(Check{check_ids::kGdrUnavailable, Severity::warning, ids,
                        "GPUDirect RDMA looks unavailable on " + join_words(without) +
                            " (nvidia_peermem is not loaded and the kernel shows no dma-buf): inter-node traffic "
                            "goes through host memory; " +
                            results::fix_text(check_ids::kGdrUnavailable)});
}

}  // namespace gpuscale::judge
