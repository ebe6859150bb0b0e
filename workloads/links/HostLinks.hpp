#pragma once
// Host links and device memory of one rank: host-to-device and device-to-host copies over the copy
// engines from pinned and from pageable host memory, and device memory bandwidth (a device-to-device
// copy and STREAM's triad). Each configuration runs `warmup` untimed copies, then `repeats` copies
// each timed by its own pair of events (device time on the cuda backend, the host clock on the cpu
// backend, where every copy is a memcpy and this measures host memory bandwidth). Produces plain
// data; prints nothing; no communication (LinksRun.hpp decides who runs when).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/Backend.hpp"
#include "harness/Deadline.hpp"
#include "phases/links/LinksRecord.hpp"

namespace gpuscale::workloads {

struct LinkOptions {
  std::vector<std::uint64_t> pinned_bytes;  // sizes of the pinned copies
  std::uint64_t pageable_bytes = 0;         // the pageable copies' size; 0: none
  std::uint64_t hbm_bytes = 0;              // each device memory buffer; 0: no device memory figures
  int warmup = 1;
  int repeats = 5;
};

class HostLinkBench {
 public:
  // Every call's wait_s bounds each of its waits: the caller's (launch: its phase's --timeout).
  // Allocates and fills a device buffer and pinned and pageable host buffers as large as the largest
  // copy. Throws OutOfMemoryError where they do not fit.
  HostLinkBench(harness::Backend& backend, const LinkOptions& options, double wait_s);
  ~HostLinkBench();
  HostLinkBench(const HostLinkBench&) = delete;
  HostLinkBench& operator=(const HostLinkBench&) = delete;

  // Every direction x memory x size, labelled with `mode` ("solo" or "concurrent").
  std::vector<results::CopyFigure> copies(const std::string& mode, double wait_s);
  // The device copy and the triad over two buffers of hbm_bytes (allocated for the call only).
  std::vector<results::HbmFigure> device_memory(double wait_s);

 private:
  // Times `repeats` calls of `enqueue` after `warmup` untimed ones; seconds per call.
  template <class Enqueue>
  std::vector<double> time_calls(Enqueue&& enqueue, const std::string& what, double wait_s);

  harness::Backend& backend_;
  LinkOptions options_;
  std::unique_ptr<harness::Stream> stream_;
  std::unique_ptr<harness::Buffer> device_, pinned_;
  std::vector<unsigned char> pageable_;
};

// bytes / the median of samples_s, in GB/s (1e9 B/s); 0 without samples.
double rate_gbps(std::uint64_t bytes, const std::vector<double>& samples_s);

}  // namespace gpuscale::workloads
