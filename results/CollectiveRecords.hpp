#pragma once
// Records of the collectives phase: nccl-tests' figures per size (out-of-place and in-place), the
// headline, the scaling table over sub-communicators and the pairwise send/recv matrix. Plain data:
// times in seconds, sizes in bytes, bandwidths in GB/s (1e9 B/s) as nccl-tests defines them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/IsolationRecord.hpp"
#include "results/NcclModel.hpp"
#include "results/Statistics.hpp"

namespace gpuscale::results {

// One op at one size in one placement; times per operation (an iteration of -m aggregated ops counts
// as m operations). time_s, and algbw/busbw from it, is nccl-tests' figure: the timed iterations back
// to back between two events / operations, the slowest rank's. The per-iteration samples come from a
// second pass with an event between iterations (which costs each op a few microseconds), for the
// median and percentiles.
struct CollectiveTiming {
  bool measured = false;
  double time_s = 0;                // = batch_time_s
  Summary iterations;               // over samples_s: median, p10, p90, ...
  std::vector<double> samples_s;    // per sample, slowest rank's time per operation
  double batch_time_s = 0;          // the slowest rank's back-to-back figure
  double rank_min_s = 0, rank_avg_s = 0, rank_max_s = 0;  // each rank's own back-to-back figure, over ranks
  int slowest_rank = -1;            // world rank whose back-to-back figure is rank_max_s (-1: unknown)
  double algbw_gbps = 0, busbw_gbps = 0;
  std::optional<std::uint64_t> wrong;  // elements wrong over ranks and check passes; nullopt: not checked
  std::vector<int> wrong_ranks{};      // world ranks that received wrong elements
};

struct CollectiveRow {
  std::uint64_t size_bytes = 0;  // nccl-tests' size: the larger of send and receive bytes per rank
  std::uint64_t count = 0;       // the count argument of the call (elements)
  CollectiveTiming out_of_place, in_place;
  std::string nccl_algorithm;    // "RING/LL" from NCCL's tuning log; empty when unknown
};

struct CollectiveHeadline {
  double peak_busbw_gbps = 0;
  std::uint64_t peak_size_bytes = 0;
  // busbw at the largest measured size <= 256 MiB and <= 1 GiB (the size is stated beside it).
  std::optional<double> busbw_256m_gbps, busbw_1g_gbps;
  std::uint64_t busbw_256m_size_bytes = 0, busbw_1g_size_bytes = 0;
  // Median time at the smallest non-empty size (8 B in a default sweep), launched on the stream and,
  // with -G, as CUDA graph launches.
  std::optional<double> latency_stream_s, latency_graph_s;
  std::uint64_t latency_size_bytes = 0;
  std::optional<double> link_gbps;        // the link this communicator runs over, when known
  std::string link;                       // "NVLink4 x18", "PCIe gen5 x16", "network (--net-gbps)"
  std::optional<double> peak_percent_of_link;
};

struct CollectiveSweep {
  std::string op;       // nccl-tests' name: "allreduce", "allgather", ...
  std::string type;     // "float", ...
  std::string redop;    // "sum"; empty for ops without a reduction
  int root = -1;        // -1 for ops without a root
  int ranks = 0;
  std::string group;    // "world", "first 4", "intra-node", "inter-node"
  double busbw_factor = 1;
  bool graph = false;   // timed as CUDA graph launches (-G)
  std::vector<CollectiveRow> rows;
  CollectiveHeadline headline;
  std::string skipped_reason;
};

// One row of the scaling table: busbw of one op at one size over communicators of `ranks` ranks.
struct ScalingPoint {
  std::string group;    // "first K" (world prefix), "intra-node" (one per node), "inter-node" (one rank per node)
  int ranks = 0;
  int communicators = 1;  // run concurrently; the time is the slowest rank's over all of them
  std::string op;
  std::uint64_t size_bytes = 0;
  double time_s = 0;
  double busbw_gbps = 0;
  std::optional<std::uint64_t> wrong;
  std::vector<int> wrong_ranks{};  // world ranks that received wrong elements
};

struct PairResult {
  int a = 0, b = 0;                // world ranks
  std::string a_label, b_label;    // unique in the job: "host#LOCAL_RANK" (GpuLabels.hpp)
  bool same_node = true;
  double bandwidth_gbps = 0;       // per direction, both directions at once, large message
  double latency_s = 0;            // median exchange time of the small message
  bool slow = false;               // under the threshold fraction of its class's median
  std::string a_gpu{}, b_gpu{};    // the GPUs' UUIDs (else PCI bus ids); empty on the cpu backend
};

struct PairMatrix {
  std::uint64_t large_bytes = 0, small_bytes = 0;
  int rounds = 0;
  double threshold = 0;            // fraction of the class median below which a pair is slow
  std::vector<PairResult> pairs;   // a < b, every pair once
};

struct CollectivesRecord {
  std::string transport;           // "nccl" or "mpi"
  int iterations = 0, warmup = 0, graph_launches = 0, aggregated = 1, check_passes = 0;
  double link_threshold = 0;       // fraction of the link below which peak busbw warns
  std::vector<CollectiveSweep> sweeps;
  std::vector<ScalingPoint> scaling;
  std::optional<PairMatrix> pairs;
  std::optional<IsolationRecord> isolation;  // localisation of a slow node (collectives --isolate)
  std::string nccl_algorithm_note; // how (or why not) NCCL's algorithm choice was obtained
  std::vector<NcclModel> nccl_models;  // NCCL's cost model of each communicator rank 0 led (--nccl-algo)
};

void to_json(nlohmann::json& j, const CollectiveTiming& v);
void from_json(const nlohmann::json& j, CollectiveTiming& v);
void to_json(nlohmann::json& j, const CollectiveRow& v);
void from_json(const nlohmann::json& j, CollectiveRow& v);
void to_json(nlohmann::json& j, const CollectiveHeadline& v);
void from_json(const nlohmann::json& j, CollectiveHeadline& v);
void to_json(nlohmann::json& j, const CollectiveSweep& v);
void from_json(const nlohmann::json& j, CollectiveSweep& v);
void to_json(nlohmann::json& j, const ScalingPoint& v);
void from_json(const nlohmann::json& j, ScalingPoint& v);
void to_json(nlohmann::json& j, const PairResult& v);
void from_json(const nlohmann::json& j, PairResult& v);
void to_json(nlohmann::json& j, const PairMatrix& v);
void from_json(const nlohmann::json& j, PairMatrix& v);
void to_json(nlohmann::json& j, const NcclModelEntry& v);
void from_json(const nlohmann::json& j, NcclModelEntry& v);
void to_json(nlohmann::json& j, const NcclModel& v);
void from_json(const nlohmann::json& j, NcclModel& v);
void to_json(nlohmann::json& j, const CollectivesRecord& v);
void from_json(const nlohmann::json& j, CollectivesRecord& v);

}  // namespace gpuscale::results
