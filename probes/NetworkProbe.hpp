#pragma once
// The node's RDMA adapters from sysfs: every port of /sys/class/infiniband/<dev>/ports/<n> with its
// state, physical state, rate and link layer, the adapter's NUMA node, the network interfaces, and
// whether GPUDirect RDMA can work (nvidia_peermem loaded, or dma-buf). Local: no communication.
#include <string>

#include "results/world/HealthRecords.hpp"

namespace gpuscale::probes {

// Reads ROOT/sys/class/infiniband, ROOT/sys/class/net, ROOT/sys/module and ROOT/sys/kernel.
results::NetworkAdapters probe_network(const std::string& root);

// "/" normally. Tests: GPUSCALE_TEST_SYSFS_ROOT, and where nodes are emulated
// (GPUSCALE_TEST_RANKS_PER_NODE) ${GPUSCALE_TEST_SYSFS_ROOT}/node<node>, so each emulated node has
// its own tree.
std::string sysfs_root(int node);

// The fastest port rate taken as real: 100 Tb/s, far past any adapter made. Sysfs is the kernel's
// word, but a driver bug, a test tree or a hostile mount can write anything there.
inline constexpr double kMaxPortRateGbps = 100000;

// "400 Gb/sec (4X NDR)" -> 400; 0 (unknown) when the text holds no rate, or one that is not a finite
// number in (0, kMaxPortRateGbps]: such a value is dropped, never written, and rate_problem says why.
double parse_rate_gbps(const std::string& text);
// Why parse_rate_gbps found no rate in TEXT ("'1e308 Gb/sec' is past 100000 Gb/s"), "" when it did.
std::string rate_problem(const std::string& text);
// "4: ACTIVE" -> "ACTIVE"; "5: LinkUp" -> "LinkUp".
std::string strip_state_number(const std::string& text);

}  // namespace gpuscale::probes
