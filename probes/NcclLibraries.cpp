#include "probes/NcclLibraries.hpp"

#include <link.h>
#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "results/world/RankEnv.hpp"

namespace gpuscale::probes {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

// The directories of an ld.so.conf file and of the files its "include" lines name (glob patterns
// with one '*' in the file name, as distributions write them: /etc/ld.so.conf.d/*.conf).
void read_ld_so_conf(const std::string& path, std::vector<std::string>& out, int depth = 0) {
  std::ifstream in(path);
  for (std::string line; depth < 4 && std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    std::stringstream words(line);
    std::string first;
    if (!(words >> first)) continue;
    if (first != "include") {
      out.push_back(first);
      continue;
    }
    for (std::string pattern; words >> pattern;) {
      if (pattern.front() != '/') pattern = fs::path(path).parent_path() / pattern;
      const fs::path dir = fs::path(pattern).parent_path();
      const std::string glob = fs::path(pattern).filename();
      const auto star = glob.find('*');
      std::vector<std::string> files;
      std::error_code ec;
      for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename();
        const bool match = star == std::string::npos
                               ? name == glob
                               : name.size() >= glob.size() - 1 && name.compare(0, star, glob, 0, star) == 0 &&
                                     name.compare(name.size() - (glob.size() - star - 1), std::string::npos, glob,
                                                  star + 1) == 0;
        if (match) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) read_ld_so_conf(f, out, depth + 1);
    }
  }
}

int loaded_object(struct dl_phdr_info* info, std::size_t, void* data) {
  const std::string name = info->dlpi_name ? info->dlpi_name : "";
  if (fs::path(name).filename().string().rfind("libnccl.so", 0) == 0) {
    *static_cast<std::string*>(data) = name;
    return 1;
  }
  return 0;
}

results::LibraryFile describe(const std::string& kind, const std::string& requested,
                              const std::vector<std::string>& search_path) {
  results::LibraryFile file;
  file.kind = kind;
  file.requested = requested;
  file.path = find_library(requested, search_path);
  file.found = !file.path.empty() && hash_file(file.path, file.fnv1a64, file.size_bytes);
  if (!file.found) file.path.clear();
  return file;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::vector<std::string> library_search_path(const std::string& ld_library_path, const std::string& ld_so_conf) {
  auto dirs = split(ld_library_path, ':');
  read_ld_so_conf(ld_so_conf, dirs);
  for (const char* d : {"/lib64", "/usr/lib64", "/lib", "/usr/lib"}) dirs.push_back(d);
  return dirs;
}

std::string find_library(const std::string& name, const std::vector<std::string>& search_path) {
  std::error_code ec;
  if (name.find('/') != std::string::npos) return fs::is_regular_file(name, ec) ? fs::canonical(name, ec).string() : "";
  for (const auto& dir : search_path) {
    const fs::path candidate = fs::path(dir) / name;
    if (fs::is_regular_file(candidate, ec)) return fs::canonical(candidate, ec).string();
  }
  return "";
}

bool hash_file(const std::string& path, std::uint64_t& fnv1a64, std::uint64_t& size_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::uint64_t hash = 0xcbf29ce484222325ull;
  std::uint64_t size = 0;
  std::vector<char> block(1 << 20);
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    const auto n = static_cast<std::size_t>(in.gcount());
    for (std::size_t i = 0; i < n; ++i) {
      hash ^= static_cast<unsigned char>(block[i]);
      hash *= 0x100000001b3ull;
    }
    size += n;
  }
  fnv1a64 = hash;
  size_bytes = size;
  return true;
}

std::vector<results::LibraryFile> find_nccl_plugins(const std::map<std::string, std::string>& variables,
                                                    const std::vector<std::string>& search_path) {
  std::vector<results::LibraryFile> out;
  for (const std::string kind : {"net", "tuner", "profiler"}) {
    const std::string prefix = "libnccl-" + kind;
    std::string upper = kind;
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
    const auto it = variables.find("NCCL_" + upper + "_PLUGIN");
    const std::string value = it == variables.end() ? "" : it->second;
    if (value.empty()) {
      out.push_back(describe(kind, prefix + ".so", search_path));
      continue;
    }
    if (strcasecmp(value.c_str(), "none") == 0) {
      results::LibraryFile none;
      none.kind = kind;
      none.requested = "none";
      out.push_back(none);
      continue;
    }
    auto file = describe(kind, value, search_path);
    // A bare name that is not itself a lib*.so file name also stands for libnccl-<kind>-NAME.so.
    const bool library_name = value.rfind("lib", 0) == 0 && ends_with(value, ".so");
    if (!file.found && value.find('/') == std::string::npos && !library_name)
      file = describe(kind, prefix + "-" + value + ".so", search_path);
    out.push_back(file);
  }
  return out;
}

std::vector<results::LibraryFile> probe_nccl_libraries(const std::map<std::string, std::string>& variables,
                                                       int nccl_version) {
  std::vector<results::LibraryFile> out;
  std::string loaded;
  dl_iterate_phdr(loaded_object, &loaded);
  if (!loaded.empty()) {
    results::LibraryFile nccl;
    nccl.kind = "libnccl";
    nccl.requested = fs::path(loaded).filename();
    nccl.path = loaded;
    nccl.found = hash_file(loaded, nccl.fnv1a64, nccl.size_bytes);
    if (nccl_version > 0) nccl.version = results::dotted_version(nccl_version);
    out.push_back(nccl);
  }
  const char* ld_library_path = std::getenv("LD_LIBRARY_PATH");
  const auto plugins = find_nccl_plugins(variables, library_search_path(ld_library_path ? ld_library_path : "",
                                                                        "/etc/ld.so.conf"));
  out.insert(out.end(), plugins.begin(), plugins.end());
  return out;
}

}  // namespace gpuscale::probes
