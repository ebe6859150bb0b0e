#pragma once
// What the cuda context hands each library's layer factory (cuBLAS for Linear, cuDNN for Conv2d),
// so that vendor headers stay in the one .cpp that needs them. Layers keep references into the
// factory and the context: destroy every layer before its context.
#include <memory>

#include "workloads/Layer.hpp"
#include "workloads/Workspace.hpp"

namespace gpuscale::workloads {

struct DeviceEnv {
  harness::Backend& backend;
  harness::Stream& stream;  // where tuning runs
  Workspace& workspace;
  TuningOptions tuning;
};

class LayerFactory {
 public:
  virtual ~LayerFactory() = default;
  // The spec has been validated. Tunes on scratch tensors (allocated, then freed) unless cached.
  virtual std::unique_ptr<Layer> create(const LayerSpec& spec) = 0;
};

std::unique_ptr<LayerFactory> make_cublaslt_factory(DeviceEnv& env);  // LinearShape specs
std::unique_ptr<LayerFactory> make_cudnn_factory(DeviceEnv& env);     // Conv2dShape specs

// Scratch copies of a layer's six tensors with random inputs and poisoned outputs, for tuning.
struct ScratchTensors {
  std::unique_ptr<harness::Buffer> x, w, y, dy, dx, dw;
};
ScratchTensors make_scratch(harness::Backend& backend, harness::Stream& stream, const LayerSpec& spec);

// Mean seconds per call of `work` on `stream`: one untimed call, then `reps` timed with device
// events. Returns +inf when the work throws a library error (an algorithm that cannot run).
template <class Work>
double time_per_call_s(harness::Backend& backend, harness::Stream& stream, int reps, Work&& work);

}  // namespace gpuscale::workloads

#include "workloads/LayerFactory.inl"
