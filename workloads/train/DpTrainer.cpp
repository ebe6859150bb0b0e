#include "workloads/train/DpTrainer.hpp"

#include <algorithm>
#include <cstdio>

#include "harness/Communicator.hpp"
#include "harness/Error.hpp"
#include "harness/LocalGroup.hpp"
#include "workloads/layers/ContextFactory.hpp"

namespace gpuscale::workloads {

struct DpTrainer::Impl {
  // One device's share: declared so that the stream outlives the context tuned on it, and the
  // network dies before both. (Nested, not in an anonymous namespace: a unity build would warn that
  // Impl's member has internal linkage.)
  struct Replica {
    harness::Backend* backend = nullptr;
    std::unique_ptr<harness::Stream> stream;
    std::unique_ptr<ComputeContext> ctx;
    std::unique_ptr<TrainOps> ops;
    std::unique_ptr<Network> net;
    std::unique_ptr<harness::Event> ready;  // this replica's forward or backward is done
  };

  // Library handles and memory are released with their own device current.
  ~Impl() {
    for (auto& r : replicas) {
      try {
        if (r.backend) r.backend->make_current();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "%s DP teardown: %s\n", harness::error_location().c_str(), e.what());
      }
      r.ready.reset();
      r.net.reset();
      r.ops.reset();
      r.ctx.reset();
      r.stream.reset();
    }
    try {
      if (!replicas.empty() && replicas.front().backend) replicas.front().backend->make_current();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s DP teardown: %s\n", harness::error_location().c_str(), e.what());
    }
  }

  std::vector<Replica> replicas;
  std::vector<std::unique_ptr<harness::Communicator>> comms;
  DpOptions options;
  double timeout_s = 0;
  std::unique_ptr<harness::Buffer> global_input, gathered, grad_gathered, pinned;
  std::unique_ptr<harness::Event> input_ready, grads_ready;

  Replica& r0() { return replicas.front(); }
  std::size_t act_size() { return harness::size_of(r0().net->activation_type()); }

  template <class Op>
  void each(Op&& op) {
    for (std::size_t i = 0; i < replicas.size(); ++i) {
      replicas[i].backend->make_current();
      op(i, replicas[i]);
    }
  }

  void broadcast_parameters() {
    // As broadcast_coalesced: whole layers grouped up to the chunk size, a larger layer on its own
    // (never split); the network's layout is that grouping, so each chunk is contiguous.
    for (const Bucket& chunk : r0().net->layout().buckets) {
      const auto deadline = harness::Deadline::after(timeout_s);
      comms.front()->group_start();
      each([&](std::size_t i, Replica& r) {
        comms[i]->broadcast(r0().net->weights() + chunk.offset, r.net->weights() + chunk.offset, chunk.elements,
                            harness::DataType::float32, 0, *r.stream, deadline);
      });
      comms.front()->group_end(deadline);
    }
    // Device 0's compute copy was refreshed by its SGD; the replicas cast what they received.
    each([&](std::size_t i, Replica& r) {
      if (i > 0) r.net->cast_weights(*r.stream);
    });
  }

  void scatter_input() {
    auto& s0 = *r0().stream;
    const std::size_t bytes = r0().net->input_bytes();
    if (options.h2d) r0().backend->copy_async(global_input->data(), pinned->data(), bytes * replicas.size(), s0);
    input_ready->record(s0);
    each([&](std::size_t i, Replica& r) {
      input_ready->make_wait(*r.stream);
      r.backend->copy_async(r.net->input(), static_cast<char*>(global_input->data()) + i * bytes, bytes, *r.stream);
    });
  }

  void gather_outputs(harness::Event* before_copies) {
    auto& s0 = *r0().stream;
    each([&](std::size_t, Replica& r) {
      r.ready->record(*r.stream);
      r.ready->make_wait(s0);
    });
    if (before_copies) before_copies->record(s0);
    const std::size_t bytes = r0().net->output_elements() * act_size();
    r0().backend->make_current();
    for (std::size_t i = 0; i < replicas.size(); ++i)
      r0().backend->copy_async(static_cast<char*>(gathered->data()) + i * bytes, replicas[i].net->output(), bytes, s0);
  }

  void loss_and_grad_scatter() {
    auto& s0 = *r0().stream;
    auto& ops = *r0().ops;
    const std::size_t n = r0().net->output_elements() * replicas.size();
    const auto t = r0().net->activation_type();
    ops.mean(gathered->data(), t, n, r0().net->loss_value(), s0);
    ops.fill(grad_gathered->data(), t, n, 1.0f / static_cast<float>(n), s0);
    grads_ready->record(s0);
    const std::size_t bytes = r0().net->output_elements() * act_size();
    each([&](std::size_t i, Replica& r) {
      grads_ready->make_wait(*r.stream);
      r.backend->copy_async(r.net->grad_output(), static_cast<char*>(grad_gathered->data()) + i * bytes, bytes, *r.stream);
    });
  }

  void reduce_gradients(harness::Event* before_reduce) {
    auto& s0 = *r0().stream;
    each([&](std::size_t, Replica& r) {
      r.ready->record(*r.stream);
      r.ready->make_wait(s0);
    });
    if (before_reduce) before_reduce->record(s0);
    const std::size_t total = r0().net->parameter_elements();
    const auto deadline = harness::Deadline::after(timeout_s);
    comms.front()->group_start();
    each([&](std::size_t i, Replica& r) {
      comms[i]->reduce(r.net->grads(), r.net->grads(), total, harness::DataType::float32, harness::RedOp::sum, 0,
                       *r.stream, deadline);
    });
    comms.front()->group_end(deadline);
  }
};

DpTrainer::DpTrainer(std::vector<harness::Backend*> devices, const TuningOptions& tuning, const Model& model,
                     std::int64_t global_batch, Precision precision, const DpOptions& options, std::uint64_t seed,
                     double timeout_s)
    : impl_(std::make_unique<Impl>()) {
  auto& m = *impl_;
  m.options = options;
  m.timeout_s = timeout_s;
  const auto g = static_cast<std::int64_t>(devices.size());
  if (g < 1 || global_batch % g != 0)
    throw harness::UsageError("DP needs a global batch divisible by its " + std::to_string(g) + " devices");
  const auto plan = assign_buckets(padded_layer_elements(model), sizeof(float), options.broadcast_chunk_bytes,
                                   options.broadcast_chunk_bytes);
  m.replicas.resize(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i) m.replicas[i].backend = devices[i];
  m.each([&](std::size_t i, Impl::Replica& r) {
    r.stream = r.backend->create_stream(harness::StreamPriority::normal);
    r.ctx = make_compute_context(*r.backend, *r.stream, tuning, timeout_s);
    r.ops = make_train_ops(*r.backend);
    r.net = std::make_unique<Network>(*r.ctx, *r.ops, model, global_batch / g, precision, plan);
    r.ready = r.backend->create_event();
    r.net->init_parameters(seed, *r.stream);
    r.net->fill_input(seed, static_cast<std::int64_t>(i) * (global_batch / g), *r.stream);
  });
  m.comms = harness::create_local_group(devices);
  auto& r0 = m.r0();
  r0.backend->make_current();
  const std::size_t in_bytes = r0.net->input_bytes(), out_bytes = r0.net->output_elements() * m.act_size();
  m.global_input = r0.backend->allocate(in_bytes * devices.size());
  m.gathered = r0.backend->allocate(out_bytes * devices.size());
  m.grad_gathered = r0.backend->allocate(out_bytes * devices.size());
  m.input_ready = r0.backend->create_event();
  m.grads_ready = r0.backend->create_event();
  // The global batch starts on device 0 (as a DataParallel user's tensor does): each replica's
  // generated share is copied there once.
  for (auto& r : m.replicas) r.stream->synchronize(harness::Deadline::after(timeout_s), "DP setup");
  for (std::size_t i = 0; i < m.replicas.size(); ++i)
    r0.backend->copy_async(static_cast<char*>(m.global_input->data()) + i * in_bytes, m.replicas[i].net->input(),
                           in_bytes, *r0.stream);
  if (options.h2d) {
    m.pinned = r0.backend->allocate_pinned_host(in_bytes * devices.size());
    r0.backend->copy_async(m.pinned->data(), m.global_input->data(), in_bytes * devices.size(), *r0.stream);
  }
  r0.stream->synchronize(harness::Deadline::after(timeout_s), "DP setup");
}

DpTrainer::~DpTrainer() = default;

DpStepEvents DpTrainer::make_events() {
  DpStepEvents e;
  impl_->r0().backend->make_current();
  for (auto& mark : e.marks) mark = impl_->r0().backend->create_event();
  return e;
}

void DpTrainer::step(DpStepEvents* events) {
  auto& m = *impl_;
  auto& s0 = *m.r0().stream;
  auto mark = [&](DpStepEvents::Mark which) {
    if (!events) return;
    m.r0().backend->make_current();
    events->marks[which]->record(s0);
  };
  mark(DpStepEvents::start);
  m.broadcast_parameters();
  mark(DpStepEvents::broadcast);
  m.scatter_input();
  mark(DpStepEvents::scatter);
  m.each([&](std::size_t, Impl::Replica& r) { r.net->forward(*r.stream); });
  m.gather_outputs(events ? events->marks[DpStepEvents::forward].get() : nullptr);
  mark(DpStepEvents::gather);
  m.loss_and_grad_scatter();
  mark(DpStepEvents::grad_scatter);
  m.each([&](std::size_t, Impl::Replica& r) { r.net->backward(Accumulate::overwrite, *r.stream); });
  m.reduce_gradients(events ? events->marks[DpStepEvents::backward].get() : nullptr);
  mark(DpStepEvents::reduce);
  m.r0().backend->make_current();
  m.r0().net->sgd(m.options.lr, s0);
  mark(DpStepEvents::end);
}

harness::Backend& DpTrainer::backend(std::size_t device) { return *impl_->replicas[device].backend; }

void DpTrainer::synchronize(const harness::Deadline& deadline) {
  impl_->each([&](std::size_t i, Impl::Replica& r) { impl_->comms[i]->wait(*r.stream, deadline, "a DP step"); });
}

std::vector<float> DpTrainer::download_gradients() {
  auto& r0 = impl_->r0();
  synchronize(harness::Deadline::after(impl_->timeout_s));
  r0.backend->make_current();
  std::vector<float> out(r0.net->parameter_elements());
  r0.backend->copy_async(out.data(), r0.net->grads(), out.size() * sizeof(float), *r0.stream);
  r0.stream->synchronize(harness::Deadline::after(impl_->timeout_s), "a gradient download");
  return out;
}

}  // namespace gpuscale::workloads
