#pragma once
// The run for monitoring (--prom FILE, --prom-dir DIR): the Prometheus text exposition format that
// node-exporter's textfile collector reads, named and labelled so that it joins dcgm-exporter's series
// and passes `promtool check metrics`. Every metric is a gauge in base units (seconds, bytes per
// second, FLOP/s) with one # HELP and one # TYPE line, its samples together.
//
// Labels. A GPU's series carry the labels dcgm-exporter gives the same GPU, so that PromQL joins them
// `on (Hostname, gpu, UUID)`:
//   Hostname    the node's host name ("HOST/nNODE" where nodes share a host name: emulated nodes)
//   gpu         the GPU's device index on its host as NVML numbers it (nvidia-smi's and dcgm-exporter's
//               `gpu`, whatever CUDA_VISIBLE_DEVICES or CUDA_DEVICE_ORDER say). Without NVML (files of
//               older runs): CUDA_VISIBLE_DEVICES' entry for the rank's CUDA device, or that device's
//               index where the variable is unset, "" where it names GPUs by UUID; that guess is
//               NVML's index only where CUDA orders devices by PCI bus id. UUID is exact everywhere.
//   UUID        "GPU-..." ("" on the CPU backend)
//   gpu_model   the GPU's name ("NVIDIA H200"); dcgm-exporter's `modelName` is camelCase, which
//               promtool's lint refuses in our own files: take it with group_left(modelName)
//   rank, local_rank
// A series of the whole job carries `Hostname` of the node the file is written for (the whole-job
// file: rank 0's node), so that two nodes' files in one textfile folder never hold the same series.
//
//   gpuscale_build_info{Hostname,version,schema_version}          1
//   gpuscale_run_start_timestamp_seconds{Hostname}                the run's start, seconds since the epoch
//   gpuscale_run_complete{Hostname}                               1 once the job wrote its last report
//   gpuscale_verdict_passed{Hostname}                             1 when the verdict passed, else 0
//   gpuscale_rule_passed{Hostname,rule,result}                    each verdict rule that ran (not SKIP):
//                                                                 1 on PASS or WARN, 0 on FAIL
//   gpuscale_<headline>{GPU labels,...}                           each per-GPU headline (Headlines.hpp)
//   gpuscale_<headline>{Hostname,...}                             each whole-job headline; none where it
//                                                                 measures nothing (a one-rank allreduce)
//     headline names in base units: _gbps -> _bytes_per_second, _tflops -> _flops, _s -> _seconds
//   gpuscale_beside_tenant{GPU labels or Hostname,phase}          1 per GPU and phase measured while
//                                                                 another process computed on the GPU:
//                                                                 left out of the headlines above
//   gpuscale_node_local_busbw_bytes_per_second{Hostname}          the slow-node isolation per node (none for
//   gpuscale_inter_node_busbw_bytes_per_second{Hostname}          a one-GPU node's node-local allreduce)
//   gpuscale_suspect{Hostname,method}                             each suspect node and way it was found
//                                                                 (rounds, bisection, node-local): its place,
//                                                                 1 = most suspect
//   gpuscale_suspect_score{Hostname}, _rounds_failed, _rounds_counted   a suspect's pair rounds, where it
//                                                                 played any
//   gpuscale_check{Hostname,id,severity,scope}                    1 per check raised at warning or error:
//                                                                 scope "node" per node it concerns, "job"
//                                                                 for the whole job (the file's Hostname)
//   gpuscale_check_passed{Hostname,id}                            each check that ran (results/report/ChecksRan.hpp):
//                                                                 0 when raised at warning or error for the
//                                                                 file's node (a node's file: on it or for
//                                                                 the whole job; the whole job's: anywhere),
//                                                                 else 1; a check absent did not run
// Label values escape \, " and newline as \\, \" and \n.
#include <optional>
#include <string>
#include <vector>

#include "results/render/Reporter.hpp"

namespace gpuscale::results {

// A label value as the exposition format writes it between quotes.
std::string prom_label_value(const std::string& value);

// The file of one node for --prom-dir: "gpuscale-HOST.prom", HOST the node's name with every character
// other than a letter, digit, '.', '_' or '-' as '_'.
struct PromNodeFile {
  int node = 0;
  std::string name;
};
std::vector<PromNodeFile> prom_node_files(const RunReport& report);

class PromReporter final : public Reporter {
 public:
  PromReporter() = default;  // the whole job
  // One node's file: its GPUs' and its own series, and the job's series labelled with its Hostname.
  explicit PromReporter(int node) : node_(node) {}
  void write(const RunReport& report, std::ostream& out) const override;

 private:
  std::optional<int> node_;
};

}  // namespace gpuscale::results
