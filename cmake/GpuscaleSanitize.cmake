# GPUSCALE_SANITIZE=ON: every target (libraries, gpuscale, unit and mpi tests) is built with
# AddressSanitizer and UndefinedBehaviorSanitizer; any finding aborts the process, so a test fails.
# GPUSCALE_FUZZ=ON (clang only): the same, plus libFuzzer coverage in the libraries and the fuzz
# targets under tests/fuzz. Both are for testing builds, never for measurements.
option(GPUSCALE_SANITIZE "Build with -fsanitize=address,undefined (tests only)" OFF)
option(GPUSCALE_FUZZ "Build the libFuzzer targets in tests/fuzz (clang; implies GPUSCALE_SANITIZE)" OFF)

if(GPUSCALE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "GPUSCALE_FUZZ needs clang: configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  set(GPUSCALE_SANITIZE ON CACHE BOOL "" FORCE)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>)
endif()

if(GPUSCALE_SANITIZE)
  set(gpuscale_sanitize_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${gpuscale_sanitize_flags}>")
  add_link_options(${gpuscale_sanitize_flags})
endif()
