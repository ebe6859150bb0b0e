#pragma once
// A GPU's link and error state around the links phase, from NVML: the PCIe generation and width
// sampled on a thread while host copies run (idle links train down, so only a reading under load
// says what the link can do), NVLink state and error counters before and after, and XID events the
// driver raises during the phase. Local: no communication. Nothing here fails for lack of NVML, a
// driver that does not support a query, or permission: what cannot be read is named in
// unreadable(), once per source.
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "harness/Nvml.hpp"
#include "phases/links/LinksRecord.hpp"

namespace gpuscale::harness {

class LinkMonitor {
 public:
  // pci_bus_id: the GPU as RankEnv names it; empty on the cpu backend (then nothing is read). Reads
  // the NVLinks' state and counters and registers for XID events now.
  explicit LinkMonitor(const std::string& pci_bus_id);
  ~LinkMonitor();  // stops the sampling thread, frees the event set
  LinkMonitor(const LinkMonitor&) = delete;
  LinkMonitor& operator=(const LinkMonitor&) = delete;

  // Samples the PCIe link every period_s until stop_pcie(), keeping the highest reading.
  void start_pcie(double period_s);
  results::PcieUnderLoad stop_pcie();
  // The NVLinks' state now against the reading at construction, counters as after - before.
  std::vector<results::NvLinkStatus> nvlinks() const;
  // XID numbers reported since construction (or the last call); never waits.
  std::vector<std::uint64_t> xids();
  // "XID events: not supported", ...: one line per source that could not be read.
  std::vector<std::string> unreadable() const;

 private:
  struct LinkReading {
    unsigned link = 0;
    bool active = false;
    results::NvLinkCounters counters;
  };
  std::vector<LinkReading> read_links() const;
  void sample_pcie();
  void note(const std::string& line) const;

  std::unique_ptr<Nvml> nvml_;
  Nvml::Device device_ = nullptr;
  Nvml::EventSet event_set_ = nullptr;
  std::vector<LinkReading> before_;
  mutable std::vector<std::string> unreadable_;
  results::PcieUnderLoad pcie_;  // written by the thread until it is joined
  bool pcie_sampled_ = false;    // start_pcie started the thread
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace gpuscale::harness
