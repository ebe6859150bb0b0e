// The NVML facade's symbol table: every NVML function gpuscale calls is bound here, once, and wrapped
// in a typed method. The readers built on these methods are NvmlDescribe.cpp and NvmlProcesses.cpp.
#include "harness/Nvml.hpp"

#include <dlfcn.h>

#include <initializer_list>

namespace gpuscale::harness {

using namespace nvml_abi;

struct NvmlApi {
  Return (*init)() = nullptr;
  Return (*shutdown)() = nullptr;
  Return (*driver_version)(char*, unsigned) = nullptr;
  Return (*handle_by_pci_bus_id)(const char*, Device*) = nullptr;
  Return (*index)(Device, unsigned*) = nullptr;
  Return (*clock)(Device, int, unsigned*) = nullptr;
  Return (*max_clock)(Device, int, unsigned*) = nullptr;
  Return (*applications_clock)(Device, int, unsigned*) = nullptr;
  Return (*default_applications_clock)(Device, int, unsigned*) = nullptr;
  Return (*clock_event_reasons)(Device, unsigned long long*) = nullptr;
  Return (*temperature)(Device, int, unsigned*) = nullptr;
  Return (*power_usage)(Device, unsigned*) = nullptr;
  Return (*power_limit)(Device, unsigned*) = nullptr;
  Return (*power_management_limit)(Device, unsigned*) = nullptr;
  Return (*power_default_limit)(Device, unsigned*) = nullptr;
  Return (*ecc_mode)(Device, int*, int*) = nullptr;            // current, pending (nvmlEnableState_t)
  Return (*mig_mode)(Device, unsigned*, unsigned*) = nullptr;  // current, pending
  Return (*persistence_mode)(Device, int*) = nullptr;
  Return (*ecc_errors)(Device, int, int, unsigned long long*) = nullptr;
  Return (*remapped_rows)(Device, unsigned*, unsigned*, unsigned*, unsigned*) = nullptr;
  Return (*pcie_gen)(Device, unsigned*) = nullptr;
  Return (*pcie_width)(Device, unsigned*) = nullptr;
  Return (*pcie_gen_max)(Device, unsigned*) = nullptr;
  Return (*pcie_width_max)(Device, unsigned*) = nullptr;
  Return (*nvlink_state)(Device, unsigned, int*) = nullptr;
  Return (*nvlink_version)(Device, unsigned, unsigned*) = nullptr;
  Return (*nvlink_remote_pci)(Device, unsigned, PciInfo*) = nullptr;
  Return (*nvlink_errors)(Device, unsigned, int, unsigned long long*) = nullptr;
  Return (*device_count)(unsigned*) = nullptr;
  Return (*handle_by_index)(unsigned, Device*) = nullptr;
  Return (*pci_info)(Device, PciInfo*) = nullptr;
  Return (*p2p_status)(Device, Device, int, int*) = nullptr;
  Return (*utilization)(Device, Utilization*) = nullptr;
  Return (*memory)(Device, Memory*) = nullptr;
  Return (*field_values)(Device, int, FieldValue*) = nullptr;
  Return (*compute_processes)(Device, unsigned*, ProcessInfo*) = nullptr;  // _v3, else _v2
  Return (*graphics_processes)(Device, unsigned*, ProcessInfo*) = nullptr;
  Return (*compute_processes_v1)(Device, unsigned*, ProcessInfoV1*) = nullptr;  // the unversioned ones
  Return (*graphics_processes_v1)(Device, unsigned*, ProcessInfoV1*) = nullptr;
  Return (*event_set_create)(EventSet*) = nullptr;
  Return (*event_set_free)(EventSet) = nullptr;
  Return (*register_events)(Device, unsigned long long, EventSet) = nullptr;
  Return (*event_set_wait)(EventSet, EventData*, unsigned) = nullptr;
};

namespace {

// fn = the first of `names` that lookup finds (newest entry point first).
template <class Fn>
void bind(const Nvml::Lookup& lookup, Fn& fn, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (void* symbol = lookup(name)) {
      fn = reinterpret_cast<Fn>(symbol);
      return;
    }
}

void bind_all(const Nvml::Lookup& l, NvmlApi& a);

template <class T>
Nvml::Answer<T> missing() {
  return {std::nullopt, kErrorFunctionNotFound};
}

// fn(args..., &value).
template <class T, class Fn, class... Args>
Nvml::Answer<T> ask(Fn fn, Args... args) {
  if (!fn) return missing<T>();
  T value{};
  if (const Return rc = fn(args..., &value); rc != kSuccess) return {std::nullopt, rc};
  return {value, kSuccess};
}

template <class T, class F>
auto then(const Nvml::Answer<T>& a, F f) -> Nvml::Answer<decltype(f(*a.value))> {
  if (!a.value) return {std::nullopt, a.code};
  return {f(*a.value), a.code};
}

int clock_type(Nvml::Clock c) { return c == Nvml::Clock::sm ? kClockSm : kClockMem; }

int counter_index(Nvml::NvLinkError which) {
  switch (which) {
    case Nvml::NvLinkError::replay:
      return kNvLinkErrorDlReplay;
    case Nvml::NvLinkError::recovery:
      return kNvLinkErrorDlRecovery;
    case Nvml::NvLinkError::crc_flit:
      return kNvLinkErrorDlCrcFlit;
    case Nvml::NvLinkError::crc_data:
      return kNvLinkErrorDlCrcData;
  }
  return kNvLinkErrorDlReplay;
}

// One field of nvmlDeviceGetFieldValues that holds an unsigned long long; a field of another type
// answers NOT_SUPPORTED.
Nvml::Answer<std::uint64_t> field_ull(Return (*fn)(Device, int, FieldValue*), Device d, unsigned id) {
  if (!fn) return missing<std::uint64_t>();
  FieldValue field{};
  field.field_id = id;
  if (const Return rc = fn(d, 1, &field); rc != kSuccess) return {std::nullopt, rc};
  if (field.result != kSuccess) return {std::nullopt, field.result};
  if (field.value_type != kValueTypeUnsignedLongLong) return {std::nullopt, kErrorNotSupported};
  return {field.value.ull, kSuccess};
}

// Calls a listing function until its buffer is big enough (processes may start in between).
template <class Info, class Fn>
Nvml::Answer<std::vector<Info>> list(Fn fn, Device device) {
  std::vector<Info> infos(16);
  Return rc = kErrorInsufficientSize;
  for (int attempt = 0; attempt < 4 && rc == kErrorInsufficientSize; ++attempt) {
    unsigned count = static_cast<unsigned>(infos.size());
    rc = fn(device, &count, infos.data());
    if (rc == kSuccess) {
      infos.resize(count);
      return {infos, kSuccess};
    }
    infos.resize(static_cast<std::size_t>(count) + 8);
  }
  return {std::nullopt, rc};
}

template <class Info>
Nvml::Answer<std::vector<Nvml::Process>> processes_of(const Nvml::Answer<std::vector<Info>>& listed, bool compute) {
  return then(listed, [compute](const std::vector<Info>& infos) {
    std::vector<Nvml::Process> out;
    for (const auto& i : infos) {
      const bool known = i.used_gpu_memory != kValueNotAvailable;
      out.push_back({i.pid, known ? std::optional<std::uint64_t>(i.used_gpu_memory) : std::nullopt, compute});
    }
    return out;
  });
}

}  // namespace

std::unique_ptr<Nvml> Nvml::from_lookup(const Lookup& lookup, std::string& why) {
  auto api = std::make_unique<NvmlApi>();
  bind_all(lookup, *api);
  if (!api->init || !api->shutdown || api->init() != kSuccess) {
    why = "nvmlInit failed";
    return nullptr;
  }
  return std::unique_ptr<Nvml>(new Nvml(nullptr, std::move(api)));
}

std::unique_ptr<Nvml> Nvml::load(std::string& why) {
  void* library = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    why = "libnvidia-ml.so.1 not found";
    return nullptr;
  }
  auto nvml = from_lookup([library](const char* name) { return ::dlsym(library, name); }, why);
  if (!nvml) {
    ::dlclose(library);
    return nullptr;
  }
  nvml->library_ = library;
  return nvml;
}

Nvml::Nvml(void* library, std::unique_ptr<NvmlApi> api) : library_(library), api_(std::move(api)) {}

Nvml::~Nvml() {
  api_->shutdown();
  if (library_) ::dlclose(library_);
}

std::string Nvml::driver_version() const {
  char text[96] = {};
  if (!api_->driver_version || api_->driver_version(text, sizeof text) != kSuccess) return "";
  return text;
}

Nvml::Device Nvml::device(const std::string& pci_bus_id) const {
  return ask<Device>(api_->handle_by_pci_bus_id, pci_bus_id.c_str()).value.value_or(nullptr);
}

Nvml::Answer<unsigned> Nvml::clock_mhz(Device d, Clock c) const { return ask<unsigned>(api_->clock, d, clock_type(c)); }
Nvml::Answer<unsigned> Nvml::max_clock_mhz(Device d, Clock c) const {
  return ask<unsigned>(api_->max_clock, d, clock_type(c));
}
Nvml::Answer<unsigned> Nvml::applications_clock_mhz(Device d, Clock c) const {
  return ask<unsigned>(api_->applications_clock, d, clock_type(c));
}
Nvml::Answer<unsigned> Nvml::default_applications_clock_mhz(Device d, Clock c) const {
  return ask<unsigned>(api_->default_applications_clock, d, clock_type(c));
}
Nvml::Answer<unsigned long long> Nvml::clock_event_reasons(Device d) const {
  return ask<unsigned long long>(api_->clock_event_reasons, d);
}
Nvml::Answer<unsigned> Nvml::temperature_c(Device d) const {
  return ask<unsigned>(api_->temperature, d, kTemperatureGpu);
}
Nvml::Answer<unsigned> Nvml::power_usage_mw(Device d) const { return ask<unsigned>(api_->power_usage, d); }
Nvml::Answer<unsigned> Nvml::power_limit_mw(Device d) const { return ask<unsigned>(api_->power_limit, d); }
Nvml::Answer<unsigned> Nvml::power_management_limit_mw(Device d) const {
  return ask<unsigned>(api_->power_management_limit, d);
}
Nvml::Answer<unsigned> Nvml::power_default_limit_mw(Device d) const {
  return ask<unsigned>(api_->power_default_limit, d);
}

Nvml::Answer<bool> Nvml::ecc_enabled(Device d) const {
  if (!api_->ecc_mode) return missing<bool>();
  int current = 0, pending = 0;
  if (const Return rc = api_->ecc_mode(d, &current, &pending); rc != kSuccess) return {std::nullopt, rc};
  return {current == kFeatureEnabled, kSuccess};
}

Nvml::Answer<bool> Nvml::mig_enabled(Device d) const {
  if (!api_->mig_mode) return missing<bool>();
  unsigned current = 0, pending = 0;
  if (const Return rc = api_->mig_mode(d, &current, &pending); rc != kSuccess) return {std::nullopt, rc};
  return {current == kMigEnable, kSuccess};
}

Nvml::Answer<bool> Nvml::persistence_enabled(Device d) const {
  return then(ask<int>(api_->persistence_mode, d), [](int mode) { return mode == kFeatureEnabled; });
}
Nvml::Answer<unsigned long long> Nvml::ecc_corrected(Device d) const {
  return ask<unsigned long long>(api_->ecc_errors, d, kEccCorrected, kEccVolatile);
}
Nvml::Answer<unsigned long long> Nvml::ecc_uncorrected(Device d) const {
  return ask<unsigned long long>(api_->ecc_errors, d, kEccUncorrected, kEccVolatile);
}

Nvml::Answer<Nvml::RemappedRows> Nvml::remapped_rows(Device d) const {
  if (!api_->remapped_rows) return missing<RemappedRows>();
  RemappedRows r;
  if (const Return rc = api_->remapped_rows(d, &r.corrected, &r.uncorrected, &r.pending, &r.failure); rc != kSuccess)
    return {std::nullopt, rc};
  return {r, kSuccess};
}

Nvml::Answer<unsigned> Nvml::index(Device d) const { return ask<unsigned>(api_->index, d); }
Nvml::Answer<unsigned> Nvml::pcie_gen(Device d) const { return ask<unsigned>(api_->pcie_gen, d); }
Nvml::Answer<unsigned> Nvml::pcie_width(Device d) const { return ask<unsigned>(api_->pcie_width, d); }
Nvml::Answer<unsigned> Nvml::pcie_gen_max(Device d) const { return ask<unsigned>(api_->pcie_gen_max, d); }
Nvml::Answer<unsigned> Nvml::pcie_width_max(Device d) const { return ask<unsigned>(api_->pcie_width_max, d); }
Nvml::Answer<bool> Nvml::nvlink_active(Device d, unsigned link) const {
  return then(ask<int>(api_->nvlink_state, d, link), [](int state) { return state == kFeatureEnabled; });
}
Nvml::Answer<unsigned> Nvml::nvlink_version(Device d, unsigned link) const {
  return ask<unsigned>(api_->nvlink_version, d, link);
}
Nvml::Answer<std::string> Nvml::nvlink_remote_bus_id(Device d, unsigned link) const {
  return then(ask<PciInfo>(api_->nvlink_remote_pci, d, link), [](const PciInfo& i) { return std::string(i.bus_id); });
}
Nvml::Answer<unsigned long long> Nvml::nvlink_errors(Device d, unsigned link, NvLinkError which) const {
  return ask<unsigned long long>(api_->nvlink_errors, d, link, counter_index(which));
}

std::vector<Nvml::Device> Nvml::all_devices() const {
  std::vector<Device> out;
  const auto count = ask<unsigned>(api_->device_count).value.value_or(0);
  for (unsigned index = 0; index < count; ++index)
    if (const auto d = ask<Device>(api_->handle_by_index, index).value) out.push_back(*d);
  return out;
}

Nvml::Answer<std::string> Nvml::bus_id(Device d) const {
  return then(ask<PciInfo>(api_->pci_info, d), [](const PciInfo& i) { return std::string(i.bus_id); });
}
Nvml::Answer<bool> Nvml::nvlink_path(Device a, Device b) const {
  return then(ask<int>(api_->p2p_status, a, b, kP2PCapsNvlink), [](int status) { return status == kP2PStatusOk; });
}
Nvml::Answer<unsigned> Nvml::utilization_pct(Device d) const {
  return then(ask<Utilization>(api_->utilization, d), [](const Utilization& u) { return u.gpu; });
}
Nvml::Answer<unsigned long long> Nvml::memory_used_bytes(Device d) const {
  return then(ask<Memory>(api_->memory, d), [](const Memory& m) { return m.used; });
}
Nvml::Answer<std::uint64_t> Nvml::power_cap_ns(Device d) const {
  return field_ull(api_->field_values, d, kFieldPerfPolicyPower);
}
Nvml::Answer<std::uint64_t> Nvml::thermal_ns(Device d) const {
  return field_ull(api_->field_values, d, kFieldPerfPolicyThermal);
}

Nvml::Answer<std::vector<Nvml::Process>> Nvml::running_processes(Device d, bool compute) const {
  if (const auto fn = compute ? api_->compute_processes : api_->graphics_processes)
    return processes_of(list<ProcessInfo>(fn, d), compute);
  if (const auto fn = compute ? api_->compute_processes_v1 : api_->graphics_processes_v1)
    return processes_of(list<ProcessInfoV1>(fn, d), compute);
  return missing<std::vector<Process>>();
}

Nvml::Answer<Nvml::EventSet> Nvml::watch_xids(Device d) const {
  const auto& a = *api_;
  if (!a.event_set_create || !a.register_events || !a.event_set_wait || !a.event_set_free) return missing<EventSet>();
  auto set = ask<EventSet>(a.event_set_create);
  if (!set.value) return set;
  if (const Return rc = a.register_events(d, kEventTypeXidCriticalError, *set.value); rc != kSuccess) {
    a.event_set_free(*set.value);
    return {std::nullopt, rc};
  }
  return set;
}

Nvml::Answer<std::uint64_t> Nvml::next_xid(EventSet set, Device d) const {
  if (!api_->event_set_wait) return missing<std::uint64_t>();
  for (;;) {
    EventData data{};
    if (const Return rc = api_->event_set_wait(set, &data, 0); rc != kSuccess) return {std::nullopt, rc};
    if (data.device == d && (data.event_type & kEventTypeXidCriticalError)) return {data.event_data, kSuccess};
  }
}

void Nvml::free_events(EventSet set) const {
  if (set && api_->event_set_free) api_->event_set_free(set);
}

std::string nvml_error_text(Nvml::Code code) {
  if (code == kErrorNotSupported) return "not supported";
  if (code == kErrorNoPermission) return "no permission";
  if (code == kErrorFunctionNotFound) return "this driver's NVML lacks it";
  return "NVML error " + std::to_string(code);
}

namespace {

void bind_all(const Nvml::Lookup& l, NvmlApi& a) {
  bind(l, a.init, {"nvmlInit_v2"});
  bind(l, a.shutdown, {"nvmlShutdown"});
  bind(l, a.driver_version, {"nvmlSystemGetDriverVersion"});
  bind(l, a.handle_by_pci_bus_id, {"nvmlDeviceGetHandleByPciBusId_v2"});
  bind(l, a.index, {"nvmlDeviceGetIndex"});
  bind(l, a.clock, {"nvmlDeviceGetClockInfo"});
  bind(l, a.max_clock, {"nvmlDeviceGetMaxClockInfo"});
  bind(l, a.applications_clock, {"nvmlDeviceGetApplicationsClock"});
  bind(l, a.default_applications_clock, {"nvmlDeviceGetDefaultApplicationsClock"});
  bind(l, a.clock_event_reasons,
       {"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"});
  bind(l, a.temperature, {"nvmlDeviceGetTemperature"});
  bind(l, a.power_usage, {"nvmlDeviceGetPowerUsage"});
  bind(l, a.power_limit, {"nvmlDeviceGetEnforcedPowerLimit"});
  bind(l, a.power_management_limit, {"nvmlDeviceGetPowerManagementLimit"});
  bind(l, a.power_default_limit, {"nvmlDeviceGetPowerManagementDefaultLimit"});
  bind(l, a.ecc_mode, {"nvmlDeviceGetEccMode"});
  bind(l, a.mig_mode, {"nvmlDeviceGetMigMode"});
  bind(l, a.persistence_mode, {"nvmlDeviceGetPersistenceMode"});
  bind(l, a.ecc_errors, {"nvmlDeviceGetTotalEccErrors"});
  bind(l, a.remapped_rows, {"nvmlDeviceGetRemappedRows"});
  bind(l, a.pcie_gen, {"nvmlDeviceGetCurrPcieLinkGeneration"});
  bind(l, a.pcie_width, {"nvmlDeviceGetCurrPcieLinkWidth"});
  bind(l, a.pcie_gen_max, {"nvmlDeviceGetMaxPcieLinkGeneration"});
  bind(l, a.pcie_width_max, {"nvmlDeviceGetMaxPcieLinkWidth"});
  bind(l, a.nvlink_state, {"nvmlDeviceGetNvLinkState"});
  bind(l, a.nvlink_version, {"nvmlDeviceGetNvLinkVersion"});
  bind(l, a.nvlink_remote_pci, {"nvmlDeviceGetNvLinkRemotePciInfo_v2"});
  bind(l, a.nvlink_errors, {"nvmlDeviceGetNvLinkErrorCounter"});
  bind(l, a.device_count, {"nvmlDeviceGetCount_v2"});
  bind(l, a.handle_by_index, {"nvmlDeviceGetHandleByIndex_v2"});
  bind(l, a.pci_info, {"nvmlDeviceGetPciInfo_v3"});
  bind(l, a.p2p_status, {"nvmlDeviceGetP2PStatus"});
  bind(l, a.utilization, {"nvmlDeviceGetUtilizationRates"});
  bind(l, a.memory, {"nvmlDeviceGetMemoryInfo"});
  bind(l, a.field_values, {"nvmlDeviceGetFieldValues"});
  bind(l, a.compute_processes, {"nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2"});
  bind(l, a.graphics_processes,
       {"nvmlDeviceGetGraphicsRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v2"});
  bind(l, a.compute_processes_v1, {"nvmlDeviceGetComputeRunningProcesses"});
  bind(l, a.graphics_processes_v1, {"nvmlDeviceGetGraphicsRunningProcesses"});
  bind(l, a.event_set_create, {"nvmlEventSetCreate"});
  bind(l, a.event_set_free, {"nvmlEventSetFree"});
  bind(l, a.register_events, {"nvmlDeviceRegisterEvents"});
  bind(l, a.event_set_wait, {"nvmlEventSetWait_v2"});
}

}  // namespace

}  // namespace gpuscale::harness
