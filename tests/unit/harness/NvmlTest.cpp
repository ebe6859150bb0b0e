// The NVML facade over a fake library (Nvml::from_lookup): what a missing function, a failing query
// and the entry-point fallbacks leave in the answers and in the env record.
#include "harness/Nvml.hpp"

#include <cstring>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "results/world/RankEnv.hpp"

namespace gpuscale::harness {
namespace {

namespace abi = nvml_abi;

int gpu_token = 0;
const abi::Device kGpu = reinterpret_cast<abi::Device>(&gpu_token);
const char* const kBus = "0000:19:00.0";
int shutdowns = 0;
int init_result = abi::kSuccess;

abi::Return init() { return init_result; }
abi::Return shutdown() {
  ++shutdowns;
  return abi::kSuccess;
}
abi::Return handle(const char* bus, abi::Device* out) {
  if (std::strcmp(bus, kBus) != 0) return 6;  // NVML_ERROR_NOT_FOUND
  *out = kGpu;
  return abi::kSuccess;
}
abi::Return clock(abi::Device, int type, unsigned* mhz) {
  *mhz = type == abi::kClockSm ? 1980 : 2619;
  return abi::kSuccess;
}
abi::Return temperature(abi::Device, int, unsigned*) { return abi::kErrorNotSupported; }
// NVML's index, which CUDA_VISIBLE_DEVICES does not renumber: the fake GPU is NVML's fifth.
abi::Return index(abi::Device, unsigned* i) {
  *i = 4;
  return abi::kSuccess;
}
abi::Return throttle_reasons(abi::Device, unsigned long long* bits) {
  *bits = 0x4;
  return abi::kSuccess;
}
// 20 compute processes: more than the facade's first buffer holds, so it must ask again.
abi::Return compute_v2(abi::Device, unsigned* count, abi::ProcessInfo* infos) {
  constexpr unsigned kListed = 20;
  if (*count < kListed) {
    *count = kListed;
    return abi::kErrorInsufficientSize;
  }
  for (unsigned i = 0; i < kListed; ++i)
    infos[i] = {100 + i, i == 0 ? abi::kValueNotAvailable : (i + 1) * 1000ull, 0, 0};
  *count = kListed;
  return abi::kSuccess;
}
// The unversioned graphics list: pid 101 also computes, pid 7 only draws.
abi::Return graphics_v1(abi::Device, unsigned* count, abi::ProcessInfoV1* infos) {
  infos[0] = {101, 5};
  infos[1] = {7, 64};
  *count = 2;
  return abi::kSuccess;
}

using Symbols = std::map<std::string, void*>;

Symbols base_symbols() {
  return {{"nvmlInit_v2", reinterpret_cast<void*>(&init)},
          {"nvmlShutdown", reinterpret_cast<void*>(&shutdown)},
          {"nvmlDeviceGetHandleByPciBusId_v2", reinterpret_cast<void*>(&handle)},
          {"nvmlDeviceGetClockInfo", reinterpret_cast<void*>(&clock)},
          {"nvmlDeviceGetTemperature", reinterpret_cast<void*>(&temperature)}};
}

std::unique_ptr<Nvml> open_fake(const Symbols& symbols, std::string& why) {
  return Nvml::from_lookup(
      [symbols](const char* name) {
        const auto it = symbols.find(name);
        return it == symbols.end() ? nullptr : it->second;
      },
      why);
}

TEST(Nvml, MissingFunctionLeavesItsFigureUnknown) {
  std::string why;
  const auto nvml = open_fake(base_symbols(), why);
  ASSERT_TRUE(nvml) << why;
  const auto d = nvml->device(kBus);
  ASSERT_EQ(d, kGpu);
  EXPECT_EQ(nvml->power_usage_mw(d).code, abi::kErrorFunctionNotFound);
  EXPECT_FALSE(nvml->power_usage_mw(d).value);
  EXPECT_EQ(nvml->temperature_c(d).code, abi::kErrorNotSupported);
  EXPECT_EQ(nvml->watch_xids(d).code, abi::kErrorFunctionNotFound);
  EXPECT_EQ(nvml_error_text(abi::kErrorFunctionNotFound), "this driver's NVML lacks it");

  results::GpuInfo gpu;
  gpu.pci_bus_id = kBus;
  ASSERT_TRUE(nvml->describe(gpu));
  EXPECT_EQ(gpu.sm_clock_mhz, 1980u);
  EXPECT_EQ(gpu.memory_clock_mhz, 2619u);
  EXPECT_FALSE(gpu.temperature_c) << "NOT_SUPPORTED is unknown, not zero";
  EXPECT_FALSE(gpu.power_draw_w);
  EXPECT_FALSE(gpu.ecc_enabled);
  EXPECT_FALSE(gpu.remapped_rows_pending);
  EXPECT_FALSE(gpu.clock_event_reasons);
  EXPECT_TRUE(gpu.nvlinks.empty());
  EXPECT_TRUE(gpu.peers.empty());
  EXPECT_FALSE(gpu.nvml_index) << "no nvmlDeviceGetIndex: no index, not 0";
}

TEST(Nvml, DescribeRecordsNvmlsIndexOfTheGpu) {
  std::string why;
  auto symbols = base_symbols();
  symbols["nvmlDeviceGetIndex"] = reinterpret_cast<void*>(&index);
  const auto nvml = open_fake(symbols, why);
  ASSERT_TRUE(nvml) << why;
  results::GpuInfo gpu;
  gpu.cuda_index = 0;
  gpu.pci_bus_id = kBus;
  ASSERT_TRUE(nvml->describe(gpu));
  EXPECT_EQ(gpu.nvml_index, 4u);
  const nlohmann::json j = gpu;
  EXPECT_EQ(j.at("nvml_index"), 4);
  EXPECT_EQ(j.get<results::GpuInfo>().nvml_index, 4u);
}

TEST(Nvml, UnknownGpuIsNotDescribed) {
  std::string why;
  const auto nvml = open_fake(base_symbols(), why);
  ASSERT_TRUE(nvml) << why;
  results::GpuInfo gpu;
  gpu.pci_bus_id = "0000:3b:00.0";
  EXPECT_FALSE(nvml->describe(gpu));
  EXPECT_FALSE(nvml->processes(gpu.pci_bus_id));
  EXPECT_FALSE(nvml->load_now(gpu.pci_bus_id).utilization_pct);
}

TEST(Nvml, NoFacadeWithoutInitAndShutdownOnceWithIt) {
  std::string why;
  auto symbols = base_symbols();
  init_result = 9;  // NVML_ERROR_DRIVER_NOT_LOADED
  EXPECT_FALSE(open_fake(symbols, why));
  EXPECT_EQ(why, "nvmlInit failed");
  init_result = abi::kSuccess;
  symbols.erase("nvmlInit_v2");
  why.clear();
  EXPECT_FALSE(open_fake(symbols, why));
  EXPECT_EQ(why, "nvmlInit failed");
  shutdowns = 0;
  open_fake(base_symbols(), why).reset();
  EXPECT_EQ(shutdowns, 1);
}

TEST(Nvml, OlderEntryPointsStandInForNewerOnes) {
  auto symbols = base_symbols();
  symbols["nvmlDeviceGetCurrentClocksThrottleReasons"] = reinterpret_cast<void*>(&throttle_reasons);
  symbols["nvmlDeviceGetComputeRunningProcesses_v2"] = reinterpret_cast<void*>(&compute_v2);
  symbols["nvmlDeviceGetGraphicsRunningProcesses"] = reinterpret_cast<void*>(&graphics_v1);
  std::string why;
  const auto nvml = open_fake(symbols, why);
  ASSERT_TRUE(nvml) << why;
  EXPECT_EQ(nvml->clock_event_reasons(nvml->device(kBus)).value, 0x4ull);

  const auto listed = nvml->processes(kBus);
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 21u) << "20 compute processes and one that only draws";
  EXPECT_EQ(listed->front().pid, 100u);
  EXPECT_FALSE(listed->front().used_memory_bytes) << "NVML_VALUE_NOT_AVAILABLE is unknown";
  EXPECT_EQ((*listed)[1].pid, 101u);
  EXPECT_TRUE((*listed)[1].compute);
  EXPECT_EQ((*listed)[1].used_memory_bytes, 2000u) << "the compute list's figure comes first";
  EXPECT_EQ(listed->back().pid, 7u);
  EXPECT_FALSE(listed->back().compute);
  EXPECT_EQ(listed->back().used_memory_bytes, 64u);
}

}  // namespace
}  // namespace gpuscale::harness
