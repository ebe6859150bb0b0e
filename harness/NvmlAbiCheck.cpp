// Built only where nvml.h exists: proves that detail/NvmlAbi.hpp, and the signatures that Nvml.cpp
// binds, match the real header.
#include <cstddef>
#include <type_traits>

#include <nvml.h>

#include "harness/detail/NvmlAbi.hpp"

namespace abi = gpuscale::harness::nvml_abi;

static_assert(abi::kSuccess == NVML_SUCCESS);
static_assert(abi::kClockSm == NVML_CLOCK_SM);
static_assert(abi::kClockMem == NVML_CLOCK_MEM);
static_assert(abi::kTemperatureGpu == NVML_TEMPERATURE_GPU);
static_assert(abi::kEccCorrected == NVML_MEMORY_ERROR_TYPE_CORRECTED);
static_assert(abi::kEccUncorrected == NVML_MEMORY_ERROR_TYPE_UNCORRECTED);
static_assert(abi::kEccVolatile == NVML_VOLATILE_ECC);
static_assert(abi::kFeatureEnabled == NVML_FEATURE_ENABLED);
static_assert(abi::kMaxNvLinks <= NVML_NVLINK_MAX_LINKS);
static_assert(abi::kP2PCapsNvlink == NVML_P2P_CAPS_INDEX_NVLINK);
static_assert(abi::kP2PStatusOk == NVML_P2P_STATUS_OK);
static_assert(sizeof(abi::PciInfo) == sizeof(nvmlPciInfo_t));
static_assert(offsetof(abi::PciInfo, bus_id) == offsetof(nvmlPciInfo_t, busId));
static_assert(offsetof(abi::PciInfo, domain) == offsetof(nvmlPciInfo_t, domain));
static_assert(abi::kFieldPerfPolicyPower == NVML_FI_DEV_PERF_POLICY_POWER);
static_assert(abi::kFieldPerfPolicyThermal == NVML_FI_DEV_PERF_POLICY_THERMAL);
static_assert(abi::kValueTypeUnsignedLongLong == NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
static_assert(sizeof(abi::FieldValue) == sizeof(nvmlFieldValue_t));
static_assert(offsetof(abi::FieldValue, timestamp) == offsetof(nvmlFieldValue_t, timestamp));
static_assert(offsetof(abi::FieldValue, value_type) == offsetof(nvmlFieldValue_t, valueType));
static_assert(offsetof(abi::FieldValue, result) == offsetof(nvmlFieldValue_t, nvmlReturn));
static_assert(offsetof(abi::FieldValue, value) == offsetof(nvmlFieldValue_t, value));
static_assert(sizeof(nvmlReturn_t) == sizeof(abi::Return));
static_assert(sizeof(nvmlEnableState_t) == sizeof(int));
static_assert(abi::kErrorInsufficientSize == NVML_ERROR_INSUFFICIENT_SIZE);
static_assert(abi::kValueNotAvailable == static_cast<unsigned long long>(NVML_VALUE_NOT_AVAILABLE));
static_assert(sizeof(abi::ProcessInfo) == sizeof(nvmlProcessInfo_t));
static_assert(offsetof(abi::ProcessInfo, pid) == offsetof(nvmlProcessInfo_t, pid));
static_assert(offsetof(abi::ProcessInfo, used_gpu_memory) == offsetof(nvmlProcessInfo_t, usedGpuMemory));
static_assert(offsetof(abi::ProcessInfo, gpu_instance_id) == offsetof(nvmlProcessInfo_t, gpuInstanceId));
static_assert(offsetof(abi::ProcessInfo, compute_instance_id) == offsetof(nvmlProcessInfo_t, computeInstanceId));
static_assert(sizeof(abi::ProcessInfoV1) == sizeof(nvmlProcessInfo_v1_t));
static_assert(offsetof(abi::ProcessInfoV1, used_gpu_memory) == offsetof(nvmlProcessInfo_v1_t, usedGpuMemory));
static_assert(sizeof(abi::Utilization) == sizeof(nvmlUtilization_t));
static_assert(offsetof(abi::Utilization, gpu) == offsetof(nvmlUtilization_t, gpu));
static_assert(offsetof(abi::Utilization, memory) == offsetof(nvmlUtilization_t, memory));
static_assert(sizeof(abi::Memory) == sizeof(nvmlMemory_t));
static_assert(offsetof(abi::Memory, free) == offsetof(nvmlMemory_t, free));
static_assert(offsetof(abi::Memory, used) == offsetof(nvmlMemory_t, used));
static_assert(abi::kErrorNotSupported == NVML_ERROR_NOT_SUPPORTED);
static_assert(abi::kErrorNoPermission == NVML_ERROR_NO_PERMISSION);
static_assert(abi::kErrorTimeout == NVML_ERROR_TIMEOUT);
static_assert(abi::kErrorFunctionNotFound == NVML_ERROR_FUNCTION_NOT_FOUND);
static_assert(abi::kNvLinkErrorDlReplay == NVML_NVLINK_ERROR_DL_REPLAY);
static_assert(abi::kNvLinkErrorDlRecovery == NVML_NVLINK_ERROR_DL_RECOVERY);
static_assert(abi::kNvLinkErrorDlCrcFlit == NVML_NVLINK_ERROR_DL_CRC_FLIT);
static_assert(abi::kNvLinkErrorDlCrcData == NVML_NVLINK_ERROR_DL_CRC_DATA);
static_assert(abi::kEventTypeXidCriticalError == nvmlEventTypeXidCriticalError);
static_assert(sizeof(abi::EventData) == sizeof(nvmlEventData_t));
static_assert(offsetof(abi::EventData, event_type) == offsetof(nvmlEventData_t, eventType));
static_assert(offsetof(abi::EventData, event_data) == offsetof(nvmlEventData_t, eventData));
static_assert(sizeof(abi::EventSet) == sizeof(nvmlEventSet_t));
// The process listings' and queries' signatures, as this code calls them through dlsym.
static_assert(std::is_same_v<decltype(&nvmlDeviceGetComputeRunningProcesses_v3),
                             nvmlReturn_t (*)(nvmlDevice_t, unsigned int*, nvmlProcessInfo_t*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetGraphicsRunningProcesses_v3),
                             nvmlReturn_t (*)(nvmlDevice_t, unsigned int*, nvmlProcessInfo_t*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetUtilizationRates), nvmlReturn_t (*)(nvmlDevice_t, nvmlUtilization_t*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetMemoryInfo), nvmlReturn_t (*)(nvmlDevice_t, nvmlMemory_t*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetIndex), nvmlReturn_t (*)(nvmlDevice_t, unsigned int*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetNvLinkErrorCounter),
                             nvmlReturn_t (*)(nvmlDevice_t, unsigned int, nvmlNvLinkErrorCounter_t, unsigned long long*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceRegisterEvents),
                             nvmlReturn_t (*)(nvmlDevice_t, unsigned long long, nvmlEventSet_t)>);
static_assert(std::is_same_v<decltype(&nvmlEventSetWait_v2), nvmlReturn_t (*)(nvmlEventSet_t, nvmlEventData_t*, unsigned int)>);
static_assert(std::is_same_v<decltype(&nvmlEventSetCreate), nvmlReturn_t (*)(nvmlEventSet_t*)>);
static_assert(std::is_same_v<decltype(&nvmlEventSetFree), nvmlReturn_t (*)(nvmlEventSet_t)>);
static_assert(
    std::is_same_v<decltype(&nvmlDeviceGetFieldValues), nvmlReturn_t (*)(nvmlDevice_t, int, nvmlFieldValue_t*)>);
// The configuration reads of Nvml::describe_configuration (nvmlEnableState_t is int-sized, above).
static_assert(abi::kMigEnable == NVML_DEVICE_MIG_ENABLE);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetEccMode),
                             nvmlReturn_t (*)(nvmlDevice_t, nvmlEnableState_t*, nvmlEnableState_t*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetMigMode), nvmlReturn_t (*)(nvmlDevice_t, unsigned int*, unsigned int*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetPersistenceMode), nvmlReturn_t (*)(nvmlDevice_t, nvmlEnableState_t*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetPowerManagementLimit), nvmlReturn_t (*)(nvmlDevice_t, unsigned int*)>);
static_assert(
    std::is_same_v<decltype(&nvmlDeviceGetPowerManagementDefaultLimit), nvmlReturn_t (*)(nvmlDevice_t, unsigned int*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetEnforcedPowerLimit), nvmlReturn_t (*)(nvmlDevice_t, unsigned int*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetApplicationsClock),
                             nvmlReturn_t (*)(nvmlDevice_t, nvmlClockType_t, unsigned int*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetDefaultApplicationsClock),
                             nvmlReturn_t (*)(nvmlDevice_t, nvmlClockType_t, unsigned int*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetMaxClockInfo),
                             nvmlReturn_t (*)(nvmlDevice_t, nvmlClockType_t, unsigned int*)>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetClockInfo), nvmlReturn_t (*)(nvmlDevice_t, nvmlClockType_t, unsigned int*)>);
static_assert(sizeof(nvmlClockType_t) == sizeof(int));
