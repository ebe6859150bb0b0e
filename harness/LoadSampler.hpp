#pragma once
// A GPU's telemetry under load: a thread that reads its SM clock, power, temperature and clock-event
// reasons from NVML every period, and every kProcessEvery periods the processes on the GPU (so that
// one that comes and goes while the load runs is seen), and the counters read before and after (ECC totals, cumulative
// power-cap and thermal clock-event time). Local: no communication. NVML is loaded at run time;
// without it, or without a GPU (the cpu backend), nothing is sampled and unavailable() says why.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "harness/Nvml.hpp"
#include "phases/burn/BurnRecord.hpp"
#include "results/world/HealthRecords.hpp"

namespace gpuscale::harness {

// Process lists every this many samples: NVML lists them in about a millisecond.
inline constexpr int kProcessEvery = 5;

class LoadSampler {
 public:
  using Clock = std::chrono::steady_clock;
  // pci_bus_id: the GPU as RankEnv names it; empty on the cpu backend.
  LoadSampler(const std::string& pci_bus_id, double period_s);
  ~LoadSampler();  // stops the thread
  LoadSampler(const LoadSampler&) = delete;
  LoadSampler& operator=(const LoadSampler&) = delete;

  // Starts sampling; samples carry seconds since `t0`. At most once.
  void start(Clock::time_point t0);
  // Stops and returns the samples, in time order.
  std::vector<results::BurnSample> stop();
  // Every process listed on the GPU while sampling, each once, in the order first seen (names empty:
  // the caller reads them). After stop().
  const std::vector<results::GpuProcess>& processes_seen() const { return processes_; }
  // The counters now (each absent where NVML does not answer).
  results::BurnCounters counters() const;
  const std::string& unavailable() const { return unavailable_; }

 private:
  void run(Clock::time_point t0);
  results::BurnSample read(Clock::time_point t0) const;

  std::unique_ptr<Nvml> nvml_;
  Nvml::Device device_ = nullptr;
  std::string unavailable_;
  double period_s_;
  std::string pci_bus_id_;
  std::vector<results::BurnSample> samples_;  // written by the thread until it is joined
  std::vector<results::GpuProcess> processes_;  // likewise
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

// Counters after minus before, each present only where both were read (a counter that went back, a
// reset, counts as absent).
results::BurnCounters counter_delta(const results::BurnCounters& before, const results::BurnCounters& after);

}  // namespace gpuscale::harness
