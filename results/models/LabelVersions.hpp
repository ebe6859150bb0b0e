#pragma once
// The label vocabulary's versions: what a figure's labels said when a file was written. A baseline
// records its label_version (results/report/Baseline.hpp); one written before a change is translated
// where the old label maps to one new label, and refused where it does not.
//
// | label_version | figures | labels |
// |---|---|---|
// | 1 | pair_busbw, pair_latency (src, dst) | `host:CUDA_INDEX` on GPUs, `host:cpuLOCAL_RANK` on the CPU backend |
// | 2 | pair_busbw, pair_latency (src, dst) | `host#LOCAL_RANK`; `host/nNODE#LOCAL_RANK` where nodes share a host name |
//
// 1 -> 2: `host:cpuL` becomes `host#L` (the CPU label held the local rank). `host:N` is refused: the
// CUDA index is not the local rank where each rank sees one GPU (srun --gpus-per-task=1 gives every
// rank index 0), so the old label does not say which GPU it was. Where nodes shared a host name
// (emulated nodes) the old labels of two nodes' GPUs were alike, so no pair may become one GPU twice.
// Baselines of baseline_version 1 carry no label_version: the change above came within that version,
// so each of their labels is read by its form (an old one translated, a new one kept).
#include <string>

#include "results/base/Figure.hpp"

namespace gpuscale::results {

inline constexpr int kLabelVersion = 2;
// What a baseline_version 1 file's labels are: either version, told apart by their form.
inline constexpr int kLabelVersionUnknown = 0;

// Rewrites f's labels from `from_version` (1, 2 or kLabelVersionUnknown) into kLabelVersion. Throws
// std::invalid_argument with one line naming the label when the mapping is not known.
void translate_labels(const std::string& metric, Labels& labels, int from_version);

}  // namespace gpuscale::results
