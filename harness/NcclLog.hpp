#pragma once
// NCCL's transport choice, read from its INFO log (NCCL has no API for it). Two parts: a pure parser
// of the log's text, and a capture that points NCCL_DEBUG_FILE at a private temp file for the life of
// the process. NCCL reads NCCL_DEBUG* once, at its first log call: the capture must exist before the
// process's first communicator.
#include <istream>
#include <string>

#include "results/world/RankEnv.hpp"

namespace gpuscale::harness {

// Reads "comm ... nNodes N localRanks L", "Using network X" and "Channel ... via P2P/CUMEM/read"
// lines (the first communicator's nNodes; every transport seen, as its first two path parts).
results::NcclPaths parse_nccl_log(std::istream& log);

class NcclLogCapture {
 public:
  // Sets NCCL_DEBUG=INFO and NCCL_DEBUG_FILE to a new temp file, unless the user already set
  // NCCL_DEBUG or NCCL_DEBUG_FILE (their choice wins; paths() then says why nothing was captured).
  NcclLogCapture();
  ~NcclLogCapture();  // removes the file (NCCL may still hold it open; it writes to an unlinked file)
  NcclLogCapture(const NcclLogCapture&) = delete;
  NcclLogCapture& operator=(const NcclLogCapture&) = delete;

  // What NCCL logged so far. Local, cheap: call after the first collective (connections are made then).
  results::NcclPaths paths() const;

 private:
  std::string path_;
  std::string unavailable_reason_;
};

}  // namespace gpuscale::harness
