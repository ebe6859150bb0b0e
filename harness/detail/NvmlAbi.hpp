#pragma once
// The slice of NVML's C interface that gpuscale uses, declared here because nvml.h ships with the
// driver rather than the toolkit: libnvidia-ml is loaded at run time, so every build compiles this
// code. Values and layouts are NVML's documented ones; NvmlAbiCheck.cpp asserts them against nvml.h
// wherever that header exists.
namespace gpuscale::harness::nvml_abi {

using Return = int;  // nvmlReturn_t
struct DeviceOpaque;
using Device = DeviceOpaque*;  // nvmlDevice_t

inline constexpr Return kSuccess = 0;
inline constexpr int kClockSm = 1;           // NVML_CLOCK_SM
inline constexpr int kClockMem = 2;          // NVML_CLOCK_MEM
inline constexpr int kTemperatureGpu = 0;    // NVML_TEMPERATURE_GPU
inline constexpr int kEccCorrected = 0;      // NVML_MEMORY_ERROR_TYPE_CORRECTED
inline constexpr int kEccUncorrected = 1;    // NVML_MEMORY_ERROR_TYPE_UNCORRECTED
inline constexpr int kEccVolatile = 0;       // NVML_VOLATILE_ECC
inline constexpr int kFeatureEnabled = 1;    // NVML_FEATURE_ENABLED
inline constexpr unsigned kMigEnable = 1;    // NVML_DEVICE_MIG_ENABLE
inline constexpr unsigned kMaxNvLinks = 18;  // NVML_NVLINK_MAX_LINKS (Hopper and Blackwell: 18)
inline constexpr int kP2PCapsNvlink = 2;     // NVML_P2P_CAPS_INDEX_NVLINK
inline constexpr int kP2PStatusOk = 0;       // NVML_P2P_STATUS_OK
inline constexpr Return kErrorInsufficientSize = 7;  // NVML_ERROR_INSUFFICIENT_SIZE
inline constexpr Return kErrorNotSupported = 3;      // NVML_ERROR_NOT_SUPPORTED
inline constexpr Return kErrorNoPermission = 4;      // NVML_ERROR_NO_PERMISSION
inline constexpr Return kErrorTimeout = 10;          // NVML_ERROR_TIMEOUT (nvmlEventSetWait: no event)
inline constexpr Return kErrorFunctionNotFound = 13;  // NVML_ERROR_FUNCTION_NOT_FOUND (also: a symbol dlsym lacks)
// nvmlNvLinkErrorCounter_t
inline constexpr int kNvLinkErrorDlReplay = 0;       // NVML_NVLINK_ERROR_DL_REPLAY
inline constexpr int kNvLinkErrorDlRecovery = 1;     // NVML_NVLINK_ERROR_DL_RECOVERY
inline constexpr int kNvLinkErrorDlCrcFlit = 2;      // NVML_NVLINK_ERROR_DL_CRC_FLIT
inline constexpr int kNvLinkErrorDlCrcData = 3;      // NVML_NVLINK_ERROR_DL_CRC_DATA
inline constexpr unsigned long long kEventTypeXidCriticalError = 0x8;  // nvmlEventTypeXidCriticalError
// NVML_VALUE_NOT_AVAILABLE, as nvmlProcessInfo_t.usedGpuMemory holds it (no figure, e.g. under MIG)
inline constexpr unsigned long long kValueNotAvailable = ~0ull;

inline constexpr unsigned kFieldPerfPolicyPower = 74;    // NVML_FI_DEV_PERF_POLICY_POWER (= ..._CLOCKS_EVENT_REASON_SW_POWER_CAP)
inline constexpr unsigned kFieldPerfPolicyThermal = 75;  // NVML_FI_DEV_PERF_POLICY_THERMAL
inline constexpr int kValueTypeUnsignedLongLong = 3;     // NVML_VALUE_TYPE_UNSIGNED_LONG_LONG

struct EventSetOpaque;
using EventSet = EventSetOpaque*;  // nvmlEventSet_t

// nvmlEventData_t (nvmlEventSetWait_v2); event_data holds the XID number for XID events
struct EventData {
  Device device;
  unsigned long long event_type;
  unsigned long long event_data;
  unsigned gpu_instance_id;
  unsigned compute_instance_id;
};

// nvmlFieldValue_t (nvmlDeviceGetFieldValues)
struct FieldValue {
  unsigned field_id;
  unsigned scope_id;
  long long timestamp;
  long long latency_usec;
  int value_type;  // nvmlValueType_t
  Return result;   // nvmlReturn_t: this field's own answer
  union {
    double d;
    unsigned ui;
    unsigned long ul;
    unsigned long long ull;
    long long sll;
    int si;
    unsigned short us;
  } value;
};

// nvmlPciInfo_t
struct PciInfo {
  char bus_id_legacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pci_device_id;
  unsigned pci_subsystem_id;
  char bus_id[32];
};

// nvmlProcessInfo_t (= nvmlProcessInfo_v2_t), what the _v2 and _v3 process listings fill
struct ProcessInfo {
  unsigned pid;
  unsigned long long used_gpu_memory;
  unsigned gpu_instance_id;
  unsigned compute_instance_id;
};

// nvmlProcessInfo_v1_t, what the unversioned nvmlDeviceGetComputeRunningProcesses fills
struct ProcessInfoV1 {
  unsigned pid;
  unsigned long long used_gpu_memory;
};

// nvmlUtilization_t: percent of the last sample period with a kernel (gpu) or memory traffic running
struct Utilization {
  unsigned gpu;
  unsigned memory;
};

// nvmlMemory_t, bytes
struct Memory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

}  // namespace gpuscale::harness::nvml_abi
