#pragma once
// Records of the collectives phase: nccl-tests' figures per size (out-of-place and in-place), the
// headline, the scaling table over sub-communicators and the pairwise send/recv matrix. Plain data:
// times in seconds, sizes in bytes, bandwidths in GB/s (1e9 B/s) as nccl-tests defines them.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "phases/collectives/IsolationRecord.hpp"
#include "phases/collectives/NcclModel.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/base/RecordFields.hpp"
#include "results/base/RecordMarks.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::results {

// The phase's planned kinds (PlannedItem::kind, results/base/PlanRecord.hpp).
namespace planned {
inline constexpr char kSweep[] = "sweep";  // one op (labels.op) over the plan's sizes, on every rank
inline constexpr char kScaling[] = "scaling";  // the scaling table over sub-communicators
inline constexpr char kPairs[] = "pairs";  // the pairwise send/recv matrix
inline constexpr char kIsolation[] = "isolation";  // the slow-node localisation
}  // namespace planned

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
  std::string a_gpu{}, b_gpu{};    // the GPUs' UUIDs (else PCI bus ids); empty on the cpu backend
};

struct PairMatrix {
  std::uint64_t large_bytes = 0, small_bytes = 0;
  int rounds = 0;
  double threshold = 0;            // fraction of the class median below which the judge calls a pair slow
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

// The judge's marks on collectives' records (results/base/RecordMarks.hpp), and where the JSON writes
// each: in the list of the record it marks.
enum class CollectivesMark {
  pair_slow,              // pairs.pairs[i]: under threshold x its class's median (CollectivesChecks.hpp)
  sweep_beside_tenant,    // sweeps[i]: a rank of its group had another process computing on its GPU
  scaling_beside_tenant,  // scaling[i]: the same
  pair_beside_tenant,     // pairs.pairs[i]: a or b had another process computing on its GPU
};
constexpr std::string_view phase_of(CollectivesMark) { return phase::collectives; }
inline constexpr MarkKey kCollectivesMarkKeys[] = {
    flag_mark(CollectivesMark::pair_slow, "slow", Unmarked::written, "pairs/pairs"),
    flag_mark(CollectivesMark::sweep_beside_tenant, "beside_tenant", Unmarked::omitted, "sweeps"),
    flag_mark(CollectivesMark::scaling_beside_tenant, "beside_tenant", Unmarked::omitted, "scaling"),
    flag_mark(CollectivesMark::pair_beside_tenant, "beside_tenant", Unmarked::omitted, "pairs/pairs"),
};
constexpr std::span<const MarkKey> mark_keys(const std::optional<CollectivesRecord>*) { return kCollectivesMarkKeys; }

// Every key of the collectives records may be missing when read: it keeps its default.
constexpr auto json_fields(const CollectiveTiming*) {
  using T = CollectiveTiming;
  return optional_fields(field("measured", &T::measured), field("time_s", &T::time_s),
                         field("iterations", &T::iterations), field("samples_s", &T::samples_s),
                         field("batch_time_s", &T::batch_time_s), field("rank_min_s", &T::rank_min_s),
                         field("rank_avg_s", &T::rank_avg_s), field("rank_max_s", &T::rank_max_s),
                         field("slowest_rank", &T::slowest_rank), field("algbw_gbps", &T::algbw_gbps),
                         field("busbw_gbps", &T::busbw_gbps), field("wrong", &T::wrong),
                         field("wrong_ranks", &T::wrong_ranks));
}

constexpr auto json_fields(const CollectiveRow*) {
  using T = CollectiveRow;
  return optional_fields(field("size_bytes", &T::size_bytes), field("count", &T::count),
                         field("out_of_place", &T::out_of_place), field("in_place", &T::in_place),
                         field("nccl_algorithm", &T::nccl_algorithm));
}

constexpr auto json_fields(const CollectiveHeadline*) {
  using T = CollectiveHeadline;
  return optional_fields(field("peak_busbw_gbps", &T::peak_busbw_gbps), field("peak_size_bytes", &T::peak_size_bytes),
                         field("busbw_256m_gbps", &T::busbw_256m_gbps),
                         field("busbw_256m_size_bytes", &T::busbw_256m_size_bytes),
                         field("busbw_1g_gbps", &T::busbw_1g_gbps),
                         field("busbw_1g_size_bytes", &T::busbw_1g_size_bytes),
                         field("latency_stream_s", &T::latency_stream_s),
                         field("latency_graph_s", &T::latency_graph_s),
                         field("latency_size_bytes", &T::latency_size_bytes), field("link_gbps", &T::link_gbps),
                         field("link", &T::link), field("peak_percent_of_link", &T::peak_percent_of_link));
}

constexpr auto json_fields(const CollectiveSweep*) {
  using T = CollectiveSweep;
  return optional_fields(field("op", &T::op), field("type", &T::type), field("redop", &T::redop),
                         field("root", &T::root), field("ranks", &T::ranks), field("group", &T::group),
                         field("busbw_factor", &T::busbw_factor), field("graph", &T::graph), field("rows", &T::rows),
                         field("headline", &T::headline), field("skipped_reason", &T::skipped_reason));
}

constexpr auto json_fields(const ScalingPoint*) {
  using T = ScalingPoint;
  return optional_fields(
      field("group", &T::group), field("ranks", &T::ranks), field("communicators", &T::communicators),
      field("op", &T::op), field("size_bytes", &T::size_bytes), field("time_s", &T::time_s),
      field("busbw_gbps", &T::busbw_gbps), field("wrong", &T::wrong), field("wrong_ranks", &T::wrong_ranks));
}

constexpr auto json_fields(const PairResult*) {
  using T = PairResult;
  return optional_fields(field("a", &T::a), field("b", &T::b), field("a_label", &T::a_label),
                         field("b_label", &T::b_label), field("a_gpu", &T::a_gpu), field("b_gpu", &T::b_gpu),
                         field("same_node", &T::same_node), field("bandwidth_gbps", &T::bandwidth_gbps),
                         field("latency_s", &T::latency_s));
}

constexpr auto json_fields(const PairMatrix*) {
  using T = PairMatrix;
  return optional_fields(field("large_bytes", &T::large_bytes), field("small_bytes", &T::small_bytes),
                         field("rounds", &T::rounds), field("threshold", &T::threshold), field("pairs", &T::pairs));
}

constexpr auto json_fields(const NcclModelEntry*) {
  using T = NcclModelEntry;
  return optional_fields(field("op", &T::op), field("algorithm", &T::algorithm), field("protocol", &T::protocol),
                         field("latency_us", &T::latency_us), field("bandwidth_gbps", &T::bandwidth_gbps));
}

constexpr auto json_fields(const NcclModel*) {
  using T = NcclModel;
  return optional_fields(field("ranks", &T::ranks), field("nodes", &T::nodes), field("entries", &T::entries));
}

constexpr auto json_fields(const CollectivesRecord*) {
  using T = CollectivesRecord;
  return optional_fields(field("transport", &T::transport), field("iterations", &T::iterations),
                         field("warmup", &T::warmup), field("graph_launches", &T::graph_launches),
                         field("aggregated", &T::aggregated), field("check_passes", &T::check_passes),
                         field("link_threshold", &T::link_threshold), field("sweeps", &T::sweeps),
                         field("scaling", &T::scaling), field("pairs", &T::pairs), field("isolation", &T::isolation),
                         field("nccl_algorithm_note", &T::nccl_algorithm_note),
                         field("nccl_models", &T::nccl_models));
}

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
