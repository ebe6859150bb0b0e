#pragma once
// The names that tell a job's GPUs apart in tables, findings and figures. A rank's CUDA index is not
// one: where each rank sees one GPU (srun --gpu-bind=single:1) every rank of a node has index 0.
#include <map>
#include <string>
#include <vector>

#include "results/world/RankEnv.hpp"

namespace gpuscale::results {

// One label per rank (index = rank), unique in the job: "host#LOCAL_RANK" ("gpu7#3"), and
// "host/nNODE#LOCAL_RANK" where several nodes report the same host name (emulated nodes, cloned
// images) so that the host alone cannot tell them apart.
std::vector<std::string> gpu_labels(const std::vector<RankEnv>& ranks);

// Node -> its name, the part of gpu_labels before '#': the host, or "host/nNODE" where several
// nodes report the same host name.
std::map<int, std::string> node_names(const std::vector<RankEnv>& ranks);
// NODE's name in `names` (node_names), "" for a node it does not hold.
std::string node_name(const std::map<int, std::string>& names, int node);

// Rank -> the name of its node (node_names), index = rank: "" for a rank the list skips.
std::vector<std::string> rank_node_names(const std::vector<RankEnv>& ranks);

// The GPU's own identity for the JSON: its UUID, else its PCI bus id; "" without a GPU (cpu backend).
std::string gpu_identity(const RankEnv& rank);

}  // namespace gpuscale::results
