#pragma once
// Times back-to-back iterations on one stream with one device event at each boundary: one before the
// first iteration and one after each (iterations + 1 events, a single record between consecutive
// iterations). Iteration i's time is boundary i minus boundary i - 1, so the samples sum exactly to
// the first-to-last interval: their mean is nccl-tests' figure (elapsed / iterations) while each
// iteration keeps its own sample for the median and percentiles. Local: no communication.
#include <memory>
#include <vector>

#include "harness/Backend.hpp"

namespace gpuscale::collectives {

struct BoundaryTimes {
  std::vector<double> samples_s;  // one per iteration, seconds
  double total_s = 0;             // first boundary to last, seconds
};

class BoundaryTimer {
 public:
  // Owns max_iterations + 1 events of `backend`.
  BoundaryTimer(harness::Backend& backend, int max_iterations);

  int max_iterations() const { return static_cast<int>(marks_.size()) - 1; }
  // Records boundary 0 on `stream` and forgets earlier iterations.
  void start(harness::Stream& stream);
  // Records the boundary after one more iteration; throws RuntimeError past max_iterations.
  void mark(harness::Stream& stream);
  // The iterations marked since start. Waits for the last boundary until `deadline`.
  BoundaryTimes read(const harness::Deadline& deadline);

 private:
  std::vector<std::unique_ptr<harness::Event>> marks_;
  int recorded_ = 0;  // boundaries recorded since start
};

}  // namespace gpuscale::collectives
