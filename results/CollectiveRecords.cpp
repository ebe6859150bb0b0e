#include "results/CollectiveRecords.hpp"

#include <nlohmann/json.hpp>

#include "results/JsonFields.hpp"

namespace gpuscale::results {
namespace {

// Each record lists its fields once (each_field); writing and reading walk the same list, so a new
// field cannot be written but forgotten on the way back. Missing keys keep their defaults.
template <class T>
void write_field(nlohmann::json& j, const char* key, const T& value) {
  j[key] = value;
}
template <class T>
void write_field(nlohmann::json& j, const char* key, const std::optional<T>& value) {
  put_optional(j, key, value);
}
template <class T>
void read_field(const nlohmann::json& j, const char* key, T& value) {
  get_if_present(j, key, value);
}
template <class T>
void read_field(const nlohmann::json& j, const char* key, std::optional<T>& value) {
  get_optional(j, key, value);
}

template <class Record>
void write_record(nlohmann::json& j, const Record& r) {
  j = nlohmann::json::object();
  each_field(r, [&j](const char* key, const auto& value) { write_field(j, key, value); });
}
template <class Record>
void read_record(const nlohmann::json& j, Record& r) {
  if (!j.is_object()) throw nlohmann::json::type_error::create(302, "a collectives record must be an object", &j);
  each_field(r, [&j](const char* key, auto& value) { read_field(j, key, value); });
}

}  // namespace

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, CollectiveTiming> {
  f("measured", v.measured);
  f("time_s", v.time_s);
  f("iterations", v.iterations);
  f("samples_s", v.samples_s);
  f("batch_time_s", v.batch_time_s);
  f("rank_min_s", v.rank_min_s);
  f("rank_avg_s", v.rank_avg_s);
  f("rank_max_s", v.rank_max_s);
  f("slowest_rank", v.slowest_rank);
  f("algbw_gbps", v.algbw_gbps);
  f("busbw_gbps", v.busbw_gbps);
  f("wrong", v.wrong);
  f("wrong_ranks", v.wrong_ranks);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, CollectiveRow> {
  f("size_bytes", v.size_bytes);
  f("count", v.count);
  f("out_of_place", v.out_of_place);
  f("in_place", v.in_place);
  f("nccl_algorithm", v.nccl_algorithm);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, CollectiveHeadline> {
  f("peak_busbw_gbps", v.peak_busbw_gbps);
  f("peak_size_bytes", v.peak_size_bytes);
  f("busbw_256m_gbps", v.busbw_256m_gbps);
  f("busbw_256m_size_bytes", v.busbw_256m_size_bytes);
  f("busbw_1g_gbps", v.busbw_1g_gbps);
  f("busbw_1g_size_bytes", v.busbw_1g_size_bytes);
  f("latency_stream_s", v.latency_stream_s);
  f("latency_graph_s", v.latency_graph_s);
  f("latency_size_bytes", v.latency_size_bytes);
  f("link_gbps", v.link_gbps);
  f("link", v.link);
  f("peak_percent_of_link", v.peak_percent_of_link);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, CollectiveSweep> {
  f("op", v.op);
  f("type", v.type);
  f("redop", v.redop);
  f("root", v.root);
  f("ranks", v.ranks);
  f("group", v.group);
  f("busbw_factor", v.busbw_factor);
  f("graph", v.graph);
  f("rows", v.rows);
  f("headline", v.headline);
  f("skipped_reason", v.skipped_reason);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, ScalingPoint> {
  f("group", v.group);
  f("ranks", v.ranks);
  f("communicators", v.communicators);
  f("op", v.op);
  f("size_bytes", v.size_bytes);
  f("time_s", v.time_s);
  f("busbw_gbps", v.busbw_gbps);
  f("wrong", v.wrong);
  f("wrong_ranks", v.wrong_ranks);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, PairResult> {
  f("a", v.a);
  f("b", v.b);
  f("a_label", v.a_label);
  f("b_label", v.b_label);
  f("a_gpu", v.a_gpu);
  f("b_gpu", v.b_gpu);
  f("same_node", v.same_node);
  f("bandwidth_gbps", v.bandwidth_gbps);
  f("latency_s", v.latency_s);
  f("slow", v.slow);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, PairMatrix> {
  f("large_bytes", v.large_bytes);
  f("small_bytes", v.small_bytes);
  f("rounds", v.rounds);
  f("threshold", v.threshold);
  f("pairs", v.pairs);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, NodeLocalResult> {
  f("node", v.node);
  f("busbw_gbps", v.busbw_gbps);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, NodeRound> {
  f("round", v.round);
  f("node", v.node);
  f("partner", v.partner);
  f("sendrecv_gbps", v.sendrecv_gbps);
  f("allreduce_busbw_gbps", v.allreduce_busbw_gbps);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, BisectionStep> {
  f("a", v.a);
  f("b", v.b);
  f("a_busbw_gbps", v.a_busbw_gbps);
  f("b_busbw_gbps", v.b_busbw_gbps);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, Suspect> {
  f("node", v.node);
  f("host", v.host);
  f("score", v.score);
  f("rounds_failed", v.rounds_failed);
  f("rounds_counted", v.rounds_counted);
  f("by_bisection", v.by_bisection);
  f("by_node_local", v.by_node_local);
  f("evidence", v.evidence);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, IsolationRecord> {
  f("bytes", v.bytes);
  f("rounds", v.rounds);
  f("seed", v.seed);
  f("threshold", v.threshold);
  f("rails", v.rails);
  f("node_hosts", v.node_hosts);
  f("node_local", v.node_local);
  f("matches", v.matches);
  f("bisection", v.bisection);
  f("bisection_node", v.bisection_node);
  f("bisection_note", v.bisection_note);
  f("skipped_reason", v.skipped_reason);
  f("suspects", v.suspects);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, NcclModelEntry> {
  f("op", v.op);
  f("algorithm", v.algorithm);
  f("protocol", v.protocol);
  f("latency_us", v.latency_us);
  f("bandwidth_gbps", v.bandwidth_gbps);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, NcclModel> {
  f("ranks", v.ranks);
  f("nodes", v.nodes);
  f("entries", v.entries);
}

template <class R, class F>
void each_field(R& v, F&& f) requires std::is_same_v<std::remove_const_t<R>, CollectivesRecord> {
  f("transport", v.transport);
  f("iterations", v.iterations);
  f("warmup", v.warmup);
  f("graph_launches", v.graph_launches);
  f("aggregated", v.aggregated);
  f("check_passes", v.check_passes);
  f("link_threshold", v.link_threshold);
  f("sweeps", v.sweeps);
  f("scaling", v.scaling);
  f("pairs", v.pairs);
  f("isolation", v.isolation);
  f("nccl_algorithm_note", v.nccl_algorithm_note);
  f("nccl_models", v.nccl_models);
}

// Every record converts through its field list.
#define GPUSCALE_RECORD_JSON(Record)                                                  \
  void to_json(nlohmann::json& j, const Record& v) { write_record(j, v); }          \
  void from_json(const nlohmann::json& j, Record& v) { read_record(j, v); }

GPUSCALE_RECORD_JSON(CollectiveTiming)
GPUSCALE_RECORD_JSON(CollectiveRow)
GPUSCALE_RECORD_JSON(CollectiveHeadline)
GPUSCALE_RECORD_JSON(CollectiveSweep)
GPUSCALE_RECORD_JSON(ScalingPoint)
GPUSCALE_RECORD_JSON(PairResult)
GPUSCALE_RECORD_JSON(PairMatrix)
GPUSCALE_RECORD_JSON(NodeLocalResult)
GPUSCALE_RECORD_JSON(NodeRound)
GPUSCALE_RECORD_JSON(BisectionStep)
GPUSCALE_RECORD_JSON(Suspect)
GPUSCALE_RECORD_JSON(IsolationRecord)
GPUSCALE_RECORD_JSON(NcclModelEntry)
GPUSCALE_RECORD_JSON(NcclModel)
GPUSCALE_RECORD_JSON(CollectivesRecord)

#undef GPUSCALE_RECORD_JSON

}  // namespace gpuscale::results
