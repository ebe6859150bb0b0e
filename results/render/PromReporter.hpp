#pragma once
// The run for monitoring (--prom FILE): the Prometheus text exposition format that node-exporter's
// textfile collector reads. Every metric is a gauge with one # HELP and one # TYPE line, its samples
// together:
//   gpuscale_verdict_passed                       1 when the verdict passed, else 0
//   gpuscale_<headline>{host,gpu,uuid,...}        each per-GPU headline (results/render/Headlines.hpp) per GPU:
//                                                 gpu is the local rank on the host, uuid the GPU's
//                                                 ("" on the CPU backend); extra labels as the headline's;
//                                                 host is "HOST/nNODE" where nodes share a host name
//   gpuscale_<headline>{...}                      each whole-job headline, without host labels
//   gpuscale_beside_tenant{host,gpu,uuid,phase}   1 per GPU and phase measured while another process
//                                                 computed on the GPU (host "": a figure of the job's);
//                                                 those figures are left out of the headlines above, so
//                                                 that no query reads a shared GPU's figure as its own
//   gpuscale_node_local_busbw_gbps{host}          the slow-node isolation per node: its node-local allreduce,
//   gpuscale_inter_node_busbw_gbps{host}          and the median of its rounds with other nodes
//   gpuscale_suspect_score{host}                  each suspect node, most suspect first: its score,
//   gpuscale_suspect_rounds_failed{host}          the rounds it failed
//   gpuscale_suspect_rounds_counted{host}         and the rounds that count
//   gpuscale_check{id,severity,host}              1 per check raised at warning or error and host it
//                                                 concerns (host "" for the whole job)
// Label values escape \, " and newline as \\, \" and \n.
#include <string>

#include "results/render/Reporter.hpp"

namespace gpuscale::results {

// A label value as the exposition format writes it between quotes.
std::string prom_label_value(const std::string& value);

class PromReporter final : public Reporter {
 public:
  void write(const RunReport& report, std::ostream& out) const override;
};

}  // namespace gpuscale::results
