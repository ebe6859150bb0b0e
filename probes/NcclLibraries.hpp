#pragma once
// Which libnccl this process loaded and which net, tuner and profiler plugins NCCL would load, found
// the way NCCL asks the dynamic loader for them (NCCL's src/plugin/plugin_open.cc): NCCL_<KIND>_PLUGIN
// as given, then, where it is a bare name, libnccl-<kind>-NAME.so; unset: libnccl-<kind>.so; "none"
// (tuner, profiler): no plugin. A bare file name is searched like dlopen does: LD_LIBRARY_PATH, then
// the directories ld.so.cache is built from (/etc/ld.so.conf and its includes), then the defaults.
// Local: no communication; the env phase compares the ranks' answers before any communicator exists.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "results/world/HealthRecords.hpp"

namespace gpuscale::probes {

// The directories a bare library name is searched in, in order.
std::vector<std::string> library_search_path(const std::string& ld_library_path, const std::string& ld_so_conf);

// The first directory holding `name` (a path with '/' is taken as it is); "" when none does.
std::string find_library(const std::string& name, const std::vector<std::string>& search_path);

// FNV-1a 64 of the file's bytes and its size; false where it cannot be read.
bool hash_file(const std::string& path, std::uint64_t& fnv1a64, std::uint64_t& size_bytes);

// The three plugins, given the environment variables (only NCCL_*_PLUGIN are read) and search path.
std::vector<results::LibraryFile> find_nccl_plugins(const std::map<std::string, std::string>& variables,
                                                    const std::vector<std::string>& search_path);

// libnccl as loaded into this process (none on a build without NCCL) and the plugins, for this
// process's environment. nccl_version: the loaded library's version code (0 when unknown).
std::vector<results::LibraryFile> probe_nccl_libraries(const std::map<std::string, std::string>& variables,
                                                       int nccl_version);

}  // namespace gpuscale::probes
