#pragma once
// The node's RDMA adapters from sysfs: every port of /sys/class/infiniband/<dev>/ports/<n> with its
// state, physical state, rate and link layer, the adapter's NUMA node, the network interfaces, and
// whether GPUDirect RDMA can work (nvidia_peermem loaded, or dma-buf). Local: no communication.
#include <string>

#include "results/schema/HealthRecords.hpp"

namespace gpuscale::probes {

// Reads ROOT/sys/class/infiniband, ROOT/sys/class/net, ROOT/sys/module and ROOT/sys/kernel.
results::NetworkAdapters probe_network(const std::string& root);

// "/" normally. Tests: GPUSCALE_TEST_SYSFS_ROOT, and where nodes are emulated
// (GPUSCALE_TEST_RANKS_PER_NODE) ${GPUSCALE_TEST_SYSFS_ROOT}/node<node>, so each emulated node has
// its own tree.
std::string sysfs_root(int node);

// "400 Gb/sec (4X NDR)" -> 400; 0 when the text holds no rate.
double parse_rate_gbps(const std::string& text);
// "4: ACTIVE" -> "ACTIVE"; "5: LinkUp" -> "LinkUp".
std::string strip_state_number(const std::string& text);

}  // namespace gpuscale::probes
