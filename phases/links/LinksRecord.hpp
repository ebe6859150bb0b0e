#pragma once
// The links phase's figures: one record per rank. Host-device copies over the copy engines (pinned
// and pageable host memory, each direction, one GPU of the node at a time and then every GPU of the
// node at once), device memory bandwidth (a copy and a STREAM triad), the PCIe link as it trained
// under the copies, NVLink state and error counters before and after, and XID events during the
// phase. Plain data, made by workloads/ and harness/ on every rank, gathered to rank 0, judged by
// LinksChecks, printed by LinksTable. Times in seconds; a rate is bytes / median time in GB/s (1e9 B/s).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/PhaseNames.hpp"
#include "results/base/RecordFields.hpp"
#include "results/base/RecordMarks.hpp"

namespace gpuscale::results {

// The phase's planned kinds (PlannedItem::kind, results/base/PlanRecord.hpp).
namespace planned {
inline constexpr char kHostCopies[] = "host_copies";  // pinned and pageable copies between host and device
inline constexpr char kDeviceMemory[] = "device_memory";  // the device copy and triad
}  // namespace planned

// One copy configuration, timed `samples_s.size()` times after a warm-up.
struct CopyFigure {
  std::string direction;  // "h2d" or "d2h"
  std::string memory;     // "pinned" or "pageable"
  std::string mode;       // "solo" (this GPU alone on its node) or "concurrent" (every GPU of the node)
  std::uint64_t bytes = 0;
  std::vector<double> samples_s;
  double gbps = 0;  // bytes / median sample
};

// Device memory bandwidth of one kernel: bytes read plus bytes written per call over its median time.
struct HbmFigure {
  std::string kernel;  // "copy" (device-to-device copy) or "triad" (a = b + s * c)
  std::uint64_t bytes_moved = 0;  // read + written per call
  std::vector<double> samples_s;
  double gbps = 0;
};

// The PCIe link: the highest generation and width seen while the host copies ran (idle links train
// down), against the most this GPU and its slot allow.
struct PcieUnderLoad {
  std::optional<unsigned> gen, width;          // highest seen under load
  std::optional<unsigned> gen_max, width_max;  // nvmlDeviceGetMaxPcieLink*
  int samples = 0;
};

// NVML's NVLink error counters (nvmlNvLinkErrorCounter_t); absent where NVML does not answer.
struct NvLinkCounters {
  std::optional<std::uint64_t> replay, recovery, crc_flit, crc_data;
};

// One NVLink of this GPU: its state before and after the phase and the counters' growth during it.
struct NvLinkStatus {
  unsigned link = 0;
  bool active_before = false;
  bool active_after = false;
  NvLinkCounters errors;  // after - before
};

struct LinksRecord {
  int rank = 0;
  int node = 0;
  std::string host;
  std::string gpu;             // device name, "cpu" on the cpu backend
  std::string pci_bus_id;      // "" on the cpu backend
  int numa_node = -1;          // the GPU's NUMA node (sysfs); -1 unknown
  std::string cpu_affinity;    // the rank's CPU binding (Linux cpulist)
  std::vector<CopyFigure> copies;
  std::vector<HbmFigure> hbm;
  std::optional<double> hbm_peak_gbps;  // the GPU model's data-sheet HBM bandwidth, where known
  PcieUnderLoad pcie;
  std::vector<NvLinkStatus> nvlinks;   // links NVML knows on this GPU
  std::vector<std::uint64_t> xids;     // XID numbers the driver reported during the phase
  // What could not be read, one line each ("XID events: not supported"); said once in the report.
  std::vector<std::string> unreadable;
};

// The judge's marks on links' records (results/base/RecordMarks.hpp), and where the JSON writes each in
// its record's object. The floors are of the pinned copies (each direction) and of the device copy
// (results/base/GpuReference.hpp), in GB/s, absent where the model or link is unknown; the floor rule
// (judge/FloorChecks.hpp) finds under them the largest pinned copy alone on its node, each direction,
// and the device copy.
enum class LinksMark {
  h2d_slow,         // a pinned copy under the median of its kind
  hbm_slow,         // the device copy under the median of its kind
  h2d_floor,        // the pinned copies' floor
  hbm_floor,        // the device copy's floor
  h2d_under_floor,  // what the console's UNDER FLOOR reads
  d2h_under_floor,
  hbm_under_floor,
  beside_tenant,  // measured while another process computed on its GPU (judge/TenancyChecks.hpp)
};
constexpr std::string_view phase_of(LinksMark) { return phase::links; }
inline constexpr MarkKey kLinksMarkKeys[] = {
    flag_mark(LinksMark::h2d_slow, "h2d_slow", Unmarked::written),
    flag_mark(LinksMark::hbm_slow, "hbm_slow", Unmarked::written),
    value_mark(LinksMark::h2d_floor, "h2d_floor_gbps"),
    value_mark(LinksMark::hbm_floor, "hbm_floor_gbps"),
    flag_mark(LinksMark::h2d_under_floor, "h2d_under_floor", Unmarked::omitted),
    flag_mark(LinksMark::d2h_under_floor, "d2h_under_floor", Unmarked::omitted),
    flag_mark(LinksMark::hbm_under_floor, "hbm_under_floor", Unmarked::omitted),
    flag_mark(LinksMark::beside_tenant, "beside_tenant", Unmarked::omitted),
};
constexpr std::span<const MarkKey> mark_keys(const std::vector<LinksRecord>*) { return kLinksMarkKeys; }

// The copy figure with these keys at the largest size measured, or nullptr.
const CopyFigure* largest_copy(const LinksRecord& r, const std::string& direction, const std::string& memory,
                               const std::string& mode);
const HbmFigure* find_hbm(const LinksRecord& r, const std::string& kernel);

constexpr auto json_fields(const CopyFigure*) {
  using T = CopyFigure;
  return fields(field("direction", &T::direction), field("memory", &T::memory), field("mode", &T::mode),
                field("bytes", &T::bytes), field("samples_s", &T::samples_s), field("gbps", &T::gbps));
}

constexpr auto json_fields(const HbmFigure*) {
  using T = HbmFigure;
  return fields(field("kernel", &T::kernel), field("bytes_moved", &T::bytes_moved),
                field("samples_s", &T::samples_s), field("gbps", &T::gbps));
}

constexpr auto json_fields(const PcieUnderLoad*) {
  using T = PcieUnderLoad;
  return fields(field("samples", &T::samples), field("gen", &T::gen), field("width", &T::width),
                field("gen_max", &T::gen_max), field("width_max", &T::width_max));
}

constexpr auto json_fields(const NvLinkCounters*) {
  using T = NvLinkCounters;
  return fields(field("replay", &T::replay), field("recovery", &T::recovery), field("crc_flit", &T::crc_flit),
                field("crc_data", &T::crc_data));
}

constexpr auto json_fields(const NvLinkStatus*) {
  using T = NvLinkStatus;
  return fields(field("link", &T::link), field("active_before", &T::active_before),
                field("active_after", &T::active_after), field("errors", &T::errors));
}

constexpr auto json_fields(const LinksRecord*) {
  using T = LinksRecord;
  return fields(field("rank", &T::rank), field("node", &T::node), field("host", &T::host), field("gpu", &T::gpu),
                field("pci_bus_id", &T::pci_bus_id), field("numa_node", &T::numa_node),
                field("cpu_affinity", &T::cpu_affinity), field("copies", &T::copies), field("hbm", &T::hbm),
                field("pcie", &T::pcie), field("nvlinks", &T::nvlinks), field("xids", &T::xids),
                field("unreadable", &T::unreadable), field("hbm_peak_gbps", &T::hbm_peak_gbps));
}

void to_json(nlohmann::json& j, const CopyFigure& f);
void from_json(const nlohmann::json& j, CopyFigure& f);
void to_json(nlohmann::json& j, const HbmFigure& f);
void from_json(const nlohmann::json& j, HbmFigure& f);
void to_json(nlohmann::json& j, const PcieUnderLoad& p);
void from_json(const nlohmann::json& j, PcieUnderLoad& p);
void to_json(nlohmann::json& j, const NvLinkCounters& c);
void from_json(const nlohmann::json& j, NvLinkCounters& c);
void to_json(nlohmann::json& j, const NvLinkStatus& s);
void from_json(const nlohmann::json& j, NvLinkStatus& s);
void to_json(nlohmann::json& j, const LinksRecord& r);
void from_json(const nlohmann::json& j, LinksRecord& r);

}  // namespace gpuscale::results
