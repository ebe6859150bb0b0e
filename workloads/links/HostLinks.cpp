#include "workloads/links/HostLinks.hpp"

#include <algorithm>
#include <cstring>

#include "results/base/Statistics.hpp"
#include "workloads/links/MemoryKernels.hpp"

namespace gpuscale::workloads {
namespace {

// Host memory with a pattern in every page: first-touch page faults stay out of the timed copies, and
// no copy moves zeros.
void fill_host(void* data, std::size_t bytes) {
  auto* p = static_cast<unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(i * 31 + 7);
}

void fill_floats(harness::Backend& backend, harness::Buffer& buffer, harness::Stream& stream) {
  const std::size_t count = buffer.bytes() / sizeof(float);
  auto* data = static_cast<float*>(buffer.data());
  if (backend.kind() == harness::BackendKind::cpu) {
    for (std::size_t i = 0; i < count; ++i) data[i] = static_cast<float>(i % 1024) * 0.5f + 1.0f;
  } else {
    kernels::fill_index(data, count, stream.native());
  }
}

void triad(harness::Backend& backend, float* a, const float* b, const float* c, std::size_t count,
           harness::Stream& stream) {
  constexpr float kScalar = 3.0f;
  if (backend.kind() == harness::BackendKind::cpu) {
    for (std::size_t i = 0; i < count; ++i) a[i] = b[i] + kScalar * c[i];
  } else {
    kernels::triad(a, b, c, kScalar, count, stream.native());
  }
}

}  // namespace

double rate_gbps(std::uint64_t bytes, const std::vector<double>& samples_s) {
  if (samples_s.empty()) return 0;
  const double s = results::median(samples_s);
  return s > 0 ? static_cast<double>(bytes) / s / 1e9 : 0;
}

HostLinkBench::HostLinkBench(harness::Backend& backend, const LinkOptions& options, double wait_s)
    : backend_(backend), options_(options), stream_(backend.create_stream(harness::StreamPriority::normal)) {
  const std::uint64_t pinned = options_.pinned_bytes.empty()
                                   ? 0
                                   : *std::max_element(options_.pinned_bytes.begin(), options_.pinned_bytes.end());
  device_ = backend_.allocate(std::max<std::uint64_t>({pinned, options_.pageable_bytes, 1}));
  pinned_ = backend_.allocate_pinned_host(std::max<std::uint64_t>(pinned, 1));
  fill_host(pinned_->data(), pinned_->bytes());
  pageable_.resize(options_.pageable_bytes);
  fill_host(pageable_.data(), pageable_.size());
  backend_.copy_async(device_->data(), pinned_->data(), std::min(device_->bytes(), pinned_->bytes()), *stream_);
  stream_->synchronize(harness::Deadline::after(wait_s), "filling the link buffers");
}

HostLinkBench::~HostLinkBench() = default;

template <class Enqueue>
std::vector<double> HostLinkBench::time_calls(Enqueue&& enqueue, const std::string& what, double wait_s) {
  for (int i = 0; i < options_.warmup; ++i) enqueue();
  std::vector<std::unique_ptr<harness::Event>> marks;
  for (int i = 0; i <= options_.repeats; ++i) marks.push_back(backend_.create_event());
  // Back to back, one event between calls: call i runs from mark i to mark i + 1.
  marks[0]->record(*stream_);
  for (int i = 0; i < options_.repeats; ++i) {
    enqueue();
    marks[i + 1]->record(*stream_);
  }
  std::vector<double> samples;
  for (int i = 0; i < options_.repeats; ++i)
    samples.push_back(marks[i + 1]->seconds_since(*marks[i], harness::Deadline::after(wait_s)));
  stream_->synchronize(harness::Deadline::after(wait_s), what);
  return samples;
}

std::vector<results::CopyFigure> HostLinkBench::copies(const std::string& mode, double wait_s) {
  struct Config {
    const char* memory;
    void* host;
    std::uint64_t bytes;
  };
  std::vector<Config> configs;
  for (const auto bytes : options_.pinned_bytes) configs.push_back({"pinned", pinned_->data(), bytes});
  if (options_.pageable_bytes > 0) configs.push_back({"pageable", pageable_.data(), options_.pageable_bytes});
  std::vector<results::CopyFigure> out;
  for (const auto& c : configs) {
    for (const bool h2d : {true, false}) {
      void* dst = h2d ? device_->data() : c.host;
      const void* src = h2d ? c.host : device_->data();
      results::CopyFigure f{h2d ? "h2d" : "d2h", c.memory, mode, c.bytes, {}, 0};
      f.samples_s = time_calls([&] { backend_.copy_async(dst, src, c.bytes, *stream_); },
                               "a " + f.memory + " " + f.direction + " copy", wait_s);
      f.gbps = rate_gbps(f.bytes, f.samples_s);
      out.push_back(std::move(f));
    }
  }
  return out;
}

std::vector<results::HbmFigure> HostLinkBench::device_memory(double wait_s) {
  std::vector<results::HbmFigure> out;
  if (options_.hbm_bytes == 0) return out;
  const std::uint64_t bytes = options_.hbm_bytes / 32 * 32;  // halves of whole float4s
  auto src = backend_.allocate(bytes);
  auto dst = backend_.allocate(bytes);
  fill_floats(backend_, *src, *stream_);
  fill_floats(backend_, *dst, *stream_);

  results::HbmFigure copy{"copy", 2 * bytes, {}, 0};
  copy.samples_s = time_calls([&] { backend_.copy_async(dst->data(), src->data(), bytes, *stream_); },
                              "a device memory copy", wait_s);
  copy.gbps = rate_gbps(copy.bytes_moved, copy.samples_s);
  out.push_back(std::move(copy));

  // a = b + s * c over half-buffers: b and c are the source's halves, a the destination's first half.
  const std::size_t count = bytes / 2 / sizeof(float);
  auto* a = static_cast<float*>(dst->data());
  const auto* b = static_cast<const float*>(src->data());
  results::HbmFigure tri{"triad", 3 * count * sizeof(float), {}, 0};
  tri.samples_s = time_calls([&] { triad(backend_, a, b, b + count, count, *stream_); }, "the triad kernel", wait_s);
  tri.gbps = rate_gbps(tri.bytes_moved, tri.samples_s);
  out.push_back(std::move(tri));
  return out;
}

}  // namespace gpuscale::workloads
