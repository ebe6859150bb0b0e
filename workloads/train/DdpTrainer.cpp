#include "workloads/train/DdpTrainer.hpp"

#include <string>

#include "harness/Communicator.hpp"
#include "harness/Error.hpp"
#include "workloads/layers/HostConvert.hpp"

namespace gpuscale::workloads {

std::size_t mib_to_bytes(double mib) { return static_cast<std::size_t>(mib * 1024.0 * 1024.0); }

harness::DataType gradient_type(const DdpOptions& options, Precision precision, bool communicates) {
  const bool direct =
      communicates && options.grad_type && options.accum == 1 && *options.grad_type == storage_type(precision);
  return direct ? *options.grad_type : harness::DataType::float32;
}

namespace {

// The allreduces read a compressed copy when the wire type is not the type the layers write.
bool casts_to_wire(const DdpOptions& options, harness::DataType grad_type) {
  return options.grad_type && grad_type != *options.grad_type;
}

}  // namespace

struct DdpTrainer::Impl {
  Impl(ComputeContext& c, TrainOps& o, harness::Communicator* cm, const DdpOptions& opt, double wait_s)
      : ctx(c), ops(o), backend(c.backend()), comm(cm), options(opt), timeout_s(wait_s),
        compute(backend.create_stream(harness::StreamPriority::normal)),
        comm_stream(backend.create_stream(opt.comm_priority)) {}

  ComputeContext& ctx;
  TrainOps& ops;
  harness::Backend& backend;
  harness::Communicator* comm;
  DdpOptions options;
  double timeout_s;
  std::unique_ptr<harness::Stream> compute, comm_stream;
  std::unique_ptr<Network> net;
  std::vector<std::unique_ptr<harness::Event>> ready, done;
  std::vector<int> remaining;  // per bucket: gradients not yet produced in this backward
  std::unique_ptr<harness::Buffer> compressed, bank, pinned;  // bank: accum micro-batches on the device
  bool in_window = false;
  std::vector<TracedWork>* trace = nullptr;

  const BucketPlan& plan() const { return net->layout(); }

  std::unique_ptr<harness::Event> recorded(harness::Stream& s) {
    auto e = backend.create_event();
    e->record(s);
    return e;
  }

  // Gradients go on the wire as they are (fp32, or already in the wire type when the layers write
  // them so) or through a compressed copy: cast before the allreduce, back after.
  bool casts() const { return casts_to_wire(options, net->grad_type()); }
  void* grads(std::size_t b) {
    return static_cast<char*>(net->grads()) + plan().buckets[b].offset * harness::size_of(net->grad_type());
  }
  void* wire(std::size_t b) {
    if (!casts()) return grads(b);
    return static_cast<char*>(compressed->data()) + plan().buckets[b].offset * harness::size_of(*options.grad_type);
  }
  harness::DataType wire_type() const { return options.grad_type.value_or(harness::DataType::float32); }

  // The allreduce of one bucket (averaged), enqueued on the comm stream: NCCL alone. The casts of
  // compressed gradients run on the compute stream (compress() before, decompress() after), so the
  // stream that bounds a communication-heavy step carries only the allreduces.
  void reduce_bucket(std::size_t b) {
    comm->all_reduce(wire(b), wire(b), plan().buckets[b].elements, wire_type(), harness::RedOp::avg, *comm_stream,
                     harness::Deadline::after(timeout_s));
  }
  void compress(std::size_t b) {
    if (!casts()) return;
    ctx.convert(grads(b), harness::DataType::float32, wire(b), wire_type(), plan().buckets[b].elements,
                Accumulate::overwrite, *compute);
  }
  void decompress(std::size_t b) {
    if (!casts()) return;
    ctx.convert(wire(b), wire_type(), grads(b), harness::DataType::float32, plan().buckets[b].elements,
                Accumulate::overwrite, *compute);
  }

  void launch_bucket(std::size_t b) {
    compress(b);
    ready[b]->record(*compute);
    ready[b]->make_wait(*comm_stream);
    std::unique_ptr<harness::Event> begin = trace ? recorded(*comm_stream) : nullptr;
    reduce_bucket(b);
    done[b]->record(*comm_stream);
    if (trace) trace->push_back({"comm", "allreduce bucket " + std::to_string(b), std::move(begin), recorded(*comm_stream)});
  }

  void on_grad_ready(int layer) {
    const auto b = static_cast<std::size_t>(plan().bucket_of_layer[static_cast<std::size_t>(layer)]);
    if (--remaining[b] == 0) launch_bucket(b);
  }

  LayerHooks hooks() {
    if (!trace) return {};
    auto pending = std::make_shared<std::unique_ptr<harness::Event>>();
    return {[this, pending](int, Pass) { *pending = recorded(*compute); },
            [this, pending](int layer, Pass pass) {
              trace->push_back({"compute", "layer " + std::to_string(layer) + " " + std::string(to_string(pass)),
                                std::move(*pending), recorded(*compute)});
            }};
  }

  void micro_step(int micro, bool sync_grads) {
    const std::size_t bytes = net->input_bytes(), offset = static_cast<std::size_t>(micro) * bytes;
    if (options.h2d) {
      backend.copy_async(net->input(), static_cast<char*>(pinned->data()) + offset, bytes, *compute);
    } else if (bank) {
      backend.copy_async(net->input(), static_cast<char*>(bank->data()) + offset, bytes, *compute);
    }
    const LayerHooks h = hooks();
    net->forward(*compute, h);
    net->loss(*compute);
    net->fill_grad_output(1.0f / static_cast<float>(options.accum * net->output_elements()), *compute);
    std::function<void(int)> on_ready;
    if (sync_grads && options.overlap) on_ready = [this](int layer) { on_grad_ready(layer); };
    net->backward(micro == 0 ? Accumulate::overwrite : Accumulate::add, *compute, on_ready, h);
  }

  void run(bool communicate, bool apply_sgd) {
    const bool sync_grads = communicate && comm;
    for (std::size_t b = 0; b < remaining.size(); ++b) remaining[b] = static_cast<int>(plan().buckets[b].layers.size());
    for (int micro = 0; micro < options.accum; ++micro) micro_step(micro, sync_grads && micro + 1 == options.accum);
    if (!sync_grads) {
      if (apply_sgd) net->sgd(options.lr, *compute);
      return;
    }
    if (!options.overlap)
      for (std::size_t b = 0; b < ready.size(); ++b) launch_bucket(b);
    const bool per_bucket_sgd = apply_sgd && options.overlap && options.overlap_optimizer;
    for (std::size_t b = 0; b < done.size(); ++b) {
      done[b]->make_wait(*compute);
      decompress(b);
      // Later buckets may still be on the wire: a narrow update leaves NCCL its SMs.
      if (per_bucket_sgd)
        net->sgd(options.lr, *compute, plan().buckets[b].offset, plan().buckets[b].elements, SgdGrid::narrow);
    }
    if (apply_sgd && !per_bucket_sgd) net->sgd(options.lr, *compute);
  }
};

DdpTrainer::DdpTrainer(ComputeContext& ctx, TrainOps& ops, const Model& model, std::int64_t batch, Precision precision,
                       harness::Communicator* comm, const DdpOptions& options, std::uint64_t seed,
                       std::int64_t first_sample, std::int64_t micro_stride, double timeout_s)
    : impl_(std::make_unique<Impl>(ctx, ops, comm, options, timeout_s)) {
  auto& m = *impl_;
  const auto plan = assign_buckets(padded_layer_elements(model), sizeof(float), mib_to_bytes(options.first_bucket_mb),
                                   mib_to_bytes(options.bucket_mb));
  // What the allreduces touch (the gradients, or their compressed copy) in window memory if asked.
  BufferAllocator wire_memory = [&m](std::size_t bytes) {
    auto window = m.comm->allocate_window(bytes, m.backend.memory_tracker(), harness::Deadline::after(m.timeout_s));
    m.in_window = window != nullptr;
    return window ? std::move(window) : m.backend.allocate(bytes);
  };
  if (!comm || !options.comm_window) wire_memory = nullptr;
  const harness::DataType grad_type = gradient_type(options, precision, comm != nullptr);
  const int sm_margin = comm && options.overlap ? options.sm_margin : 0;
  m.net = std::make_unique<Network>(ctx, ops, model, batch, precision, plan, grad_type,
                                    casts_to_wire(options, grad_type) ? BufferAllocator{} : wire_memory, sm_margin);
  for (std::size_t b = 0; b < plan.buckets.size(); ++b) {
    m.ready.push_back(m.backend.create_event());
    m.done.push_back(m.backend.create_event());
  }
  m.remaining.resize(plan.buckets.size());
  if (m.casts()) {
    const std::size_t bytes = plan.total_elements * harness::size_of(*options.grad_type);
    m.compressed = wire_memory ? wire_memory(bytes) : m.backend.allocate(bytes);
  }
  m.net->init_parameters(seed, *m.compute);
  m.net->fill_input(seed, first_sample, *m.compute);
  const std::size_t bytes = m.net->input_bytes(), micro = static_cast<std::size_t>(options.accum);
  if (options.accum > 1 || options.h2d) {
    m.bank = m.backend.allocate(bytes * micro);
    for (int k = 0; k < options.accum; ++k)
      m.net->fill_samples(static_cast<char*>(m.bank->data()) + static_cast<std::size_t>(k) * bytes, seed,
                          first_sample + k * micro_stride, *m.compute);
  }
  if (options.h2d) {
    m.pinned = m.backend.allocate_pinned_host(bytes * micro);
    m.backend.copy_async(m.pinned->data(), m.bank->data(), bytes * micro, *m.compute);
    m.compute->synchronize(harness::Deadline::after(m.timeout_s), "pinned batch setup");
    m.bank.reset();  // the device copy is refilled from host memory every micro-step
  }
  if (comm) {
    // DDP's constructor: rank 0's parameters everywhere (equal here by construction, moved anyway).
    comm->broadcast(m.net->weights(), m.net->weights(), plan.total_elements, harness::DataType::float32, 0, *m.compute,
                    harness::Deadline::after(m.timeout_s));
    m.net->cast_weights(*m.compute);
  }
}

DdpTrainer::~DdpTrainer() = default;

void DdpTrainer::step(bool communicate, std::vector<TracedWork>* trace) {
  impl_->trace = trace;
  impl_->run(communicate, true);
  impl_->trace = nullptr;
}

void DdpTrainer::gradients_only() { impl_->run(true, false); }

void DdpTrainer::use_communicator(harness::Communicator* comm) {
  auto& m = *impl_;
  if (!m.comm || !comm || m.in_window || comm->size() != m.comm->size() || comm->rank() != m.comm->rank())
    throw harness::UsageError("DDP can switch only between communicators of the same ranks, with plain buckets");
  synchronize(harness::Deadline::after(m.timeout_s));
  m.comm = comm;
}

void DdpTrainer::allreduce_only() {
  auto& m = *impl_;
  if (!m.comm) return;
  for (std::size_t b = 0; b < m.ready.size(); ++b) m.reduce_bucket(b);
}

harness::Stream& DdpTrainer::compute_stream() { return *impl_->compute; }
harness::Stream& DdpTrainer::comm_stream() { return *impl_->comm_stream; }
Network& DdpTrainer::network() { return *impl_->net; }
const BucketPlan& DdpTrainer::buckets() const { return impl_->net->layout(); }
bool DdpTrainer::communicates() const { return impl_->comm != nullptr; }
bool DdpTrainer::buckets_in_window() const { return impl_->in_window; }

void DdpTrainer::synchronize(const harness::Deadline& deadline) {
  auto& m = *impl_;
  if (m.comm) {
    m.comm->wait(*m.comm_stream, deadline, "training allreduces");
    m.comm->wait(*m.compute, deadline, "a training step");
  } else {
    m.compute->synchronize(deadline, "a training step");
  }
}

namespace {

// count elements of `type` as floats (half types widen exactly, on the host).
std::vector<float> download(harness::Backend& backend, const void* device, harness::DataType type, std::size_t count,
                            DdpTrainer& t, double timeout_s) {
  const std::size_t bytes = count * harness::size_of(type);
  std::vector<float> out((bytes + sizeof(float) - 1) / sizeof(float));  // the raw bytes first
  t.synchronize(harness::Deadline::after(timeout_s));
  backend.copy_async(out.data(), device, bytes, t.compute_stream());
  t.compute_stream().synchronize(harness::Deadline::after(timeout_s), "a parameter download");
  if (type == harness::DataType::float32) return out;
  const std::vector<double> wide = to_double(out.data(), type, count);
  return std::vector<float>(wide.begin(), wide.end());
}

}  // namespace

std::vector<float> DdpTrainer::download_gradients() {
  Network& net = *impl_->net;
  return download(impl_->backend, net.grads(), net.grad_type(), net.parameter_elements(), *this, impl_->timeout_s);
}

std::vector<float> DdpTrainer::download_weights() {
  Network& net = *impl_->net;
  return download(impl_->backend, net.weights(), harness::DataType::float32, net.parameter_elements(), *this, impl_->timeout_s);
}

}  // namespace gpuscale::workloads
