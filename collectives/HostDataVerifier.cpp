// The cpu backend's data verifier: the pattern evaluated in host memory, element by element.
#include <cstring>

#include "collectives/DataVerifier.hpp"
#include "harness/HalfFloat.hpp"

namespace gpuscale::collectives {
namespace {

using harness::DataType;

// Visits data as its element type: f(pointer, to_double, from_int).
template <class F>
void with_type(DataType type, F&& f) {
  auto plain = [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    f(tag, [](T v) { return static_cast<double>(v); }, [](std::int64_t v) { return static_cast<T>(v); });
  };
  switch (type) {
    case DataType::int8: plain(static_cast<std::int8_t*>(nullptr)); break;
    case DataType::uint8: plain(static_cast<std::uint8_t*>(nullptr)); break;
    case DataType::int32: plain(static_cast<std::int32_t*>(nullptr)); break;
    case DataType::uint32: plain(static_cast<std::uint32_t*>(nullptr)); break;
    case DataType::int64: plain(static_cast<std::int64_t*>(nullptr)); break;
    case DataType::uint64: plain(static_cast<std::uint64_t*>(nullptr)); break;
    case DataType::float32: plain(static_cast<float*>(nullptr)); break;
    case DataType::float64: plain(static_cast<double*>(nullptr)); break;
    case DataType::float16:
      f(static_cast<std::uint16_t*>(nullptr), [](std::uint16_t v) { return double(harness::half_to_float(v)); },
        [](std::int64_t v) { return harness::float_to_half(static_cast<float>(v)); });
      break;
    case DataType::bfloat16:
      f(static_cast<std::uint16_t*>(nullptr), [](std::uint16_t v) { return double(harness::bfloat16_to_float(v)); },
        [](std::int64_t v) { return harness::float_to_bfloat16(static_cast<float>(v)); });
      break;
  }
}

class HostDataVerifier final : public DataVerifier {
 public:
  void fill(void* data, std::size_t count, DataType type, const pattern::Spec& spec, harness::Stream&) override {
    with_type(type, [&](auto* tag, auto, auto from_int) {
      auto* p = static_cast<decltype(tag)>(data);
      for (std::size_t i = 0; i < count; ++i) p[i] = from_int(pattern::input(spec, spec.rank, i));
    });
  }
  void clear(void* data, std::size_t bytes, harness::Stream&) override { std::memset(data, 0, bytes); }
  std::uint64_t count_wrong(const void* data, std::size_t count, DataType type, const pattern::Spec& spec,
                            harness::Stream&, const harness::Deadline&) override {
    std::uint64_t wrong = 0;
    with_type(type, [&](auto* tag, auto to_double, auto) {
      const auto* p = static_cast<const std::remove_pointer_t<decltype(tag)>*>(data);
      for (std::size_t i = 0; i < count; ++i)
        if (!pattern::matches(spec, to_double(p[i]), pattern::expected(spec, i))) ++wrong;
    });
    return wrong;
  }
};

}  // namespace

std::unique_ptr<DataVerifier> make_host_data_verifier() { return std::make_unique<HostDataVerifier>(); }

std::unique_ptr<DataVerifier> make_data_verifier(const harness::Backend& backend) {
  return backend.kind() == harness::BackendKind::cuda ? make_device_data_verifier() : make_host_data_verifier();
}

}  // namespace gpuscale::collectives
