# Decides whether the CUDA backend is built (GPUSCALE_WITH_CUDA = AUTO | ON | OFF) and, if so,
# enables the CUDA language. Sets GPUSCALE_HAVE_CUDA and GPUSCALE_HAVE_NVML_HEADER.
set(GPUSCALE_HAVE_CUDA OFF)
set(GPUSCALE_HAVE_NVML_HEADER OFF)
if(NOT GPUSCALE_WITH_CUDA STREQUAL "OFF")
  find_package(CUDAToolkit 12.0 QUIET)
  if(CUDAToolkit_FOUND)
    find_package(NCCL QUIET)
    find_package(CUDNN QUIET)
  endif()
  if(CUDAToolkit_FOUND AND NCCL_FOUND AND CUDNN_FOUND AND TARGET CUDA::cublasLt)
    set(GPUSCALE_HAVE_CUDA ON)
  elseif(GPUSCALE_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "GPUSCALE_WITH_CUDA=ON but the CUDA toolkit (${CUDAToolkit_FOUND}), NCCL (${NCCL_FOUND}) "
                        "or cuDNN (${CUDNN_FOUND}) was not found; set CUDAToolkit_ROOT, NCCL_ROOT, CUDNN_ROOT")
  else()
    message(STATUS "CUDA toolkit, NCCL or cuDNN not found: building the CPU backend only")
  endif()
endif()

if(GPUSCALE_HAVE_CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    set(CMAKE_CUDA_COMPILER "${CUDAToolkit_NVCC_EXECUTABLE}")
  endif()
  # Where a GPU is visible when configuring, machine code for it alone (CMake's "native": a third of
  # the compile); elsewhere what users run, Ampere and Hopper machine code plus PTX for anything newer.
  # CMAKE_CUDA_ARCHITECTURES or the CUDAARCHS variable (CI: one architecture) take precedence.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
    execute_process(COMMAND nvidia-smi -L OUTPUT_VARIABLE gpuscale_gpus RESULT_VARIABLE gpuscale_smi ERROR_QUIET)
    if(gpuscale_smi EQUAL 0 AND gpuscale_gpus MATCHES "^GPU ")
      set(CMAKE_CUDA_ARCHITECTURES native)
    else()
      set(CMAKE_CUDA_ARCHITECTURES 80-real 90-real 90-virtual)
    endif()
  endif()
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  # nvml.h ships with the driver image, not always with the toolkit. The NVML code itself loads
  # libnvidia-ml at run time and builds everywhere; where the header exists, a layout check compiles too.
  find_path(GPUSCALE_NVML_INCLUDE_DIR nvml.h HINTS ${CUDAToolkit_INCLUDE_DIRS} /usr/include /usr/local/cuda/include)
  if(GPUSCALE_NVML_INCLUDE_DIR)
    set(GPUSCALE_HAVE_NVML_HEADER ON)
  endif()
endif()
