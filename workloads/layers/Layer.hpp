#pragma once
// The layers that the compute benchmark times and that training stacks: Linear (no bias) and Conv2d,
// each with forward, backward data and backward weight, in fp32, tf32, fp16 and bf16.
//
//   Linear:  forward          Y  = X W^T     X [M,K], W [N,K], Y [M,N]   (shapes in Shapes.hpp)
//            backward data    dX = dY W
//            backward weight  dW = dY^T X    (or dW += ..., for gradient accumulation)
//   Conv2d:  forward Y = conv(X, W); backward data dX; backward weight (filter) dW; NCHW or NHWC.
//
// How to use (one device, one stream at a time):
//   auto ctx = make_compute_context(backend, stream, tuning, wait_s);  // per device (ContextFactory.hpp):
//                                                  // library handles, algorithm cache, shared workspace
//   auto layer = ctx->create_layer({LinearShape{256, 4096, 4096}, Precision::bf16});  // tunes once
//   layer->forward(x, w, y, stream);                              // async on `stream`
//
// Backends: the factory picks the implementation from backend.kind(). cuda: cuBLAS (algorithm
// chosen by timing cuBLASLt's heuristic top candidates and cublasGemmEx, cached per shape) and
// cuDNN 9 (heuristic or exhaustive search under a workspace cap). cpu: the numerical reference, BLAS
// dgemm and im2col, accumulating in double, on host memory; work runs at once on the calling thread.
//
// Types: the inputs of every pass (X, W, dY) hold storage_type(precision). The outputs Y and dX hold
// spec.output_type and dW holds spec.weight_grad_type; each is the storage type by default, and may
// be float32 for half precisions (fp32 gradients for fp32 master weights). Half-precision compute
// with fp32 master weights (casting the weights every step) is the caller's job: see convert().
//
// Pointers are device memory (host memory on the cpu backend) of the right type and element count,
// 16-byte aligned (allocations from harness::Backend are). Every call only enqueues work on the
// stream given; nothing synchronises. Layers of one context share its workspace, so they must not
// run concurrently on two streams. Errors: library failures throw harness::LibraryError; a shape
// that does not fit in device memory throws harness::OutOfMemoryError from create_layer or a call.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "harness/Backend.hpp"
#include "harness/DataType.hpp"
#include "harness/Deadline.hpp"
#include "workloads/layers/Precision.hpp"
#include "workloads/layers/Shapes.hpp"

namespace gpuscale::workloads {

enum class Pass { forward, backward_data, backward_weight };
inline constexpr Pass kAllPasses[] = {Pass::forward, Pass::backward_data, Pass::backward_weight};
std::string_view to_string(Pass pass);  // "fwd" | "bwd_data" | "bwd_weight"

// A set of passes, bit i for kAllPasses[i]: those a layer is made to run (LayerSpec::passes), those
// the compute bench times (compute --passes).
using PassSet = std::uint8_t;
inline constexpr PassSet kEveryPass = 0b111;
constexpr PassSet pass_bit(Pass pass) { return static_cast<PassSet>(1u << static_cast<unsigned>(pass)); }
constexpr bool contains(PassSet set, Pass pass) { return (set & pass_bit(pass)) != 0; }

// backward_weight either writes dW or adds to it (gradient accumulation over micro-steps).
enum class Accumulate { overwrite, add };

struct LayerSpec {
  LayerSpec(LayerShape shape_, Precision precision_ = Precision::fp32,
            std::optional<harness::DataType> output_type_ = std::nullopt,
            std::optional<harness::DataType> weight_grad_type_ = std::nullopt)
      : shape(shape_), precision(precision_), output_type(output_type_), weight_grad_type(weight_grad_type_) {}
  LayerShape shape;
  Precision precision = Precision::fp32;
  std::optional<harness::DataType> output_type;       // Y and dX; default: storage_type(precision)
  std::optional<harness::DataType> weight_grad_type;  // dW; default: storage_type(precision)
  // SMs the backward passes leave free for work on another stream (DDP's allreduces): cuBLASLt
  // chooses and runs their GEMMs for the device's SMs minus this many (its SM count target). 0: all.
  // cuDNN's convolutions and the CPU reference ignore it.
  int backward_sm_margin = 0;
  // The passes the layer is made for: the cuda layers tune no other, and calling one throws
  // harness::RuntimeError (the cpu reference runs every pass regardless).
  PassSet passes = kEveryPass;
  // false: the layer's tuning skips TuningOptions::settled_window_s's settled ranking (short rounds alone),
  // for a layer whose speed nobody reads: the reference check's (its three passes ranked settled cost
  // 10 s of each 19 s gpuscale run of 4096 fp32 with --tune-window-ms 500).
  bool settle_tuning = true;
};
harness::DataType input_type(const LayerSpec& spec);   // of X, W and dY
harness::DataType output_type(const LayerSpec& spec);  // of Y and dX
harness::DataType weight_grad_type(const LayerSpec& spec);
// Throws UsageError (one line) for a bad shape, or output types other than float32 or the storage type.
void validate(const LayerSpec& spec);

// What a pass runs: the library's algorithm (e.g. "cublasLt algo 66 tile 24 stages 35 splitK 1",
// "cublasGemmEx default", "IMPLICIT_PRECOMP_GEMM") and the workspace it uses.
struct AlgorithmChoice {
  std::string name;
  std::size_t workspace_bytes = 0;
};

class Layer {
 public:
  virtual ~Layer() = default;
  Layer() = default;
  Layer(const Layer&) = delete;
  Layer& operator=(const Layer&) = delete;

  virtual const LayerSpec& spec() const noexcept = 0;
  virtual AlgorithmChoice algorithm(Pass pass) const = 0;

  virtual void forward(const void* x, const void* w, void* y, harness::Stream& stream) = 0;
  virtual void backward_data(const void* dy, const void* w, void* dx, harness::Stream& stream) = 0;
  virtual void backward_weight(const void* dy, const void* x, void* dw, Accumulate mode, harness::Stream& stream) = 0;

  // The same on whole buffers; throw harness::RuntimeError if a buffer is too small.
  void forward(const harness::Buffer& x, const harness::Buffer& w, harness::Buffer& y, harness::Stream& stream);
  void backward_data(const harness::Buffer& dy, const harness::Buffer& w, harness::Buffer& dx, harness::Stream& stream);
  void backward_weight(const harness::Buffer& dy, const harness::Buffer& x, harness::Buffer& dw, Accumulate mode,
                       harness::Stream& stream);
};

// Byte sizes of the six tensors of a spec.
std::size_t x_bytes(const LayerSpec& spec);   // X, input_type
std::size_t w_bytes(const LayerSpec& spec);   // W, input_type
std::size_t y_bytes(const LayerSpec& spec);   // Y, output_type
std::size_t dy_bytes(const LayerSpec& spec);  // dY, input_type
std::size_t dx_bytes(const LayerSpec& spec);  // dX, output_type
std::size_t dw_bytes(const LayerSpec& spec);  // dW, weight_grad_type

// How a Conv2d pass picks its cuDNN algorithm. heuristic: the legacy API's first suggestion that fits
// the workspace cap (PyTorch's default); find: the fastest of cudnnFind*Ex (legacy algorithms);
// graph: the fastest of the graph API's engine configurations; exhaustive: the fastest of both, timed
// side by side (like torch.backends.cudnn.benchmark, whose cuDNN 9 path times graph plans).
enum class AlgoSearch { heuristic, find, graph, exhaustive };
AlgoSearch parse_algo_search(std::string_view text);  // its names; UsageError otherwise
std::string_view to_string(AlgoSearch search);

// Which cuBLAS path a Linear GEMM may take. lt (default): cuBLASLt's heuristic candidates; fastest:
// those and cublasGemmEx (PyTorch's path) timed together, the fastest kept; gemmex: cublasGemmEx
// alone. lt is the default: cublasGemmEx runs cuBLASLt's kernels and does not beat the best cuBLASLt
// candidate, while it costs a cuBLAS handle per device context and one more timed candidate per shape,
// which the default run's time budget cannot carry.
enum class MatmulPath { fastest, lt, gemmex };
MatmulPath parse_matmul_path(std::string_view text);  // "fastest" | "lt" | "gemmex"; UsageError otherwise
std::string_view to_string(MatmulPath path);

struct TuningOptions {
  AlgoSearch conv_search = AlgoSearch::heuristic;
  std::size_t workspace_limit_bytes = std::size_t{1} << 30;  // no algorithm needing more is chosen
  // cuBLASLt heuristic results under the cap timed per shape (with cublasGemmEx for `fastest`); the
  // fastest is cached.
  int matmul_candidates = 8;
  // cuDNN graph API plans timed per conv pass (graph, exhaustive), in the heuristics' order. The
  // heuristics rank the fast engines first; timing many more makes the search slow and finds none faster.
  int conv_plans = 8;
  // Graph engines that compile their kernel at run time among those plans (seconds per plan; off: the
  // default job's budget cannot carry it). PyTorch's cudnn.benchmark filter does not leave them out.
  bool conv_runtime_compiled = false;
  MatmulPath matmul_path = MatmulPath::lt;
  // Over 0 (compute's --tune-window-ms), the cuBLASLt tuner also times the CTA-swizzle twins of the heuristic's
  // first two kernels, and it and cuDNN's graph and exhaustive searches rank their short rounds' settled_finalists
  // again settled, in windows this long (settled_fastest, LayerFactory.hpp). Short rounds run at the top clock of a
  // GPU just back from idle; under its power limit a kernel's speed is its energy per call, which they cannot see,
  // so two kernels that tie in short rounds can differ by a few percent settled.
  double settled_window_s = 0;
};

// Device time a hold (ComputeContext::hold) gives each call it covers to be launched: a legacy cuDNN
// call takes up to ~100 us to launch, cuBLAS and an event pair less.
inline constexpr double kHoldPerCall_s = 200e-6;

// One device's compute resources: library handles, the per-shape algorithm cache, the shared
// workspace. Create it with the device current (one context per GPU where one process drives
// several, each used with its device current); destroy it before the backend. Local: no
// communication.
class ComputeContext {
 public:
  virtual ~ComputeContext() = default;
  ComputeContext() = default;
  ComputeContext(const ComputeContext&) = delete;
  ComputeContext& operator=(const ComputeContext&) = delete;

  virtual harness::Backend& backend() noexcept = 0;
  // Validates the spec (UsageError), then chooses and caches the algorithms of all three passes:
  // timing on scratch tensors it allocates and frees, so tuning never touches the caller's data.
  virtual std::unique_ptr<Layer> create_layer(const LayerSpec& spec) = 0;

  // Device utilities, enqueued on `stream`:
  // Uniform values in [-scale, scale) from a counter-based hash of (seed, index): the cpu and cuda
  // backends produce the same values, rounded to `type` (a floating type).
  virtual void fill_uniform(void* data, harness::DataType type, std::size_t count, std::uint64_t seed, float scale,
                            harness::Stream& stream) = 0;
  // Copies `bytes` of host memory to `dst`, ordered on `stream` (harness::Backend::upload uses the
  // legacy default stream, which non-blocking streams do not wait for). `src` may be reused on return.
  virtual void upload(void* dst, const void* src, std::size_t bytes, harness::Stream& stream) = 0;
  // Overwrites `bytes` with all-ones bits: NaN in float32, float16 and bfloat16.
  virtual void poison(void* data, std::size_t bytes, harness::Stream& stream) = 0;
  // dst = src converted (round to nearest even), or dst += src with Accumulate::add.
  virtual void convert(const void* src, harness::DataType src_type, void* dst, harness::DataType dst_type,
                       std::size_t count, Accumulate mode, harness::Stream& stream) = 0;
  // Holds `stream` back for `seconds` of device time, so that what the host enqueues meanwhile then
  // runs back to back, not at the pace of the host's launches. The cpu context runs every call as it
  // is made: nothing to hold.
  virtual void hold(harness::Stream& /*stream*/, double /*seconds*/) {}

  // Bytes of the shared workspace now allocated (at least the largest any created layer needs; the
  // algorithm search may have grown it further).
  virtual std::size_t workspace_bytes() const noexcept = 0;
  // Frees the workspace down to `bytes` when it holds more (never grows it): once a model's layers
  // exist, to what their chosen algorithms need, so the search's workspace is not kept for training.
  virtual void shrink_workspace(std::size_t bytes) = 0;
};

}  // namespace gpuscale::workloads
