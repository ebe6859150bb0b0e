#pragma once
// One Conv2d pass through cuDNN's graph (backend) API: an operation graph of the one convolution, the
// engine configurations cuDNN's heuristics rank for it (mode A, then the fallback list), each
// finalized into an execution plan. PyTorch's cudnn.benchmark times such plans; the legacy
// cudnnFind* of CudnnConv2d.cpp reaches a fixed set of algorithms, not every engine and knob setting.
// The graph is built with beta 0 (the output overwritten): accumulating calls use the legacy API.
// Only CudnnConv2d.cpp includes this header.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <cudnn.h>

#include "workloads/layers/Layer.hpp"

namespace gpuscale::workloads {

cudnnDataType_t cudnn_data_type(harness::DataType t);  // half and bfloat16 as such, anything else float

struct ConvGraphPlan {
  std::shared_ptr<void> plan;      // the finalized execution plan (it keeps its graph alive)
  std::size_t workspace_bytes = 0;
  // "graph engine N A #R": engine N, ranked R-th by heuristics mode A (or the fallback list); " tensor-op"
  // added where it uses tensor cores, " compiled" where its kernel was compiled at run time.
  std::string name;
};

// Which plans conv_graph_plans returns.
struct GraphPlanLimits {
  std::size_t workspace_bytes = 0;  // no plan needing more
  std::size_t count = 0;            // at most this many
  // Engines that compile their kernel at run time (seconds per plan, per shape and pass) are left out
  // unless asked for.
  bool runtime_compiled = false;
};

// Plans for `pass` of `spec` within `limits`, in the heuristics' order. The precision's numerics
// hold: fp32 takes no tensor-core or down-converting engine (no TF32), tf32 no down-converting one,
// and no precision a reduced-precision reduction (fp32 accumulation). Empty when cuDNN offers none.
std::vector<ConvGraphPlan> conv_graph_plans(cudnnHandle_t handle, const LayerSpec& spec, Pass pass,
                                            const GraphPlanLimits& limits);

// Enqueues `plan` on the handle's stream. Operands in CudnnConv2d's order: forward a = x, b = w,
// out = y; backward data a = w, b = dy, out = dx; backward weight a = x, b = dy, out = dw.
void run_conv_graph(cudnnHandle_t handle, const ConvGraphPlan& plan, Pass pass, const void* a, const void* b,
                    void* out, void* workspace);

}  // namespace gpuscale::workloads
