#include "harness/NodeGpus.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <regex>

#include "harness/Nvml.hpp"

namespace gpuscale::harness {
namespace {

namespace fs = std::filesystem;

constexpr unsigned kNvidiaMajor = 195;  // /dev/nvidia0..N and /dev/nvidiactl (the driver's char major)

fs::path device_root() {
  const char* root = std::getenv("GPUSCALE_TEST_DEVICE_ROOT");
  return root && *root ? fs::path(root) : fs::path("/");
}

std::vector<std::string> nvidia_device_nodes(const fs::path& root) {
  std::vector<std::string> nodes;
  std::error_code ec;
  const std::regex gpu_node("nvidia[0-9]+");
  for (fs::directory_iterator it(root / "dev", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    struct stat st {};
    if (!std::regex_match(name, gpu_node) || ::stat(it->path().c_str(), &st) != 0) continue;
    if (S_ISCHR(st.st_mode) && major(st.st_rdev) == kNvidiaMajor) nodes.push_back("/dev/" + name);
  }
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

int driver_gpus(const fs::path& root) {
  int count = 0;
  std::error_code ec;
  for (fs::directory_iterator it(root / "proc/driver/nvidia/gpus", ec), end; !ec && it != end; it.increment(ec))
    ++count;
  return count;
}

std::string gpus(int n) { return std::to_string(n) + (n == 1 ? " GPU" : " GPUs"); }

}  // namespace

std::string NodeGpus::describe() const {
  std::string out;
  auto add = [&out](const std::string& part) { out += (out.empty() ? "" : "; ") + part; };
  if (nvml > 0) add("NVML lists " + gpus(nvml));
  if (!device_nodes.empty()) {
    std::string nodes = device_nodes.front();
    if (device_nodes.size() > 1) nodes += ".." + device_nodes.back();
    add(nodes);
  }
  if (driver > 0) add("the driver lists " + gpus(driver));
  return out;
}

NodeGpus find_node_gpus() noexcept {
  NodeGpus found;
  try {
    std::string why;
    if (const auto nvml = Nvml::load(why)) found.nvml = static_cast<int>(nvml->all_devices().size());
    const fs::path root = device_root();
    found.device_nodes = nvidia_device_nodes(root);
    found.driver = driver_gpus(root);
  } catch (...) {
  }
  return found;
}

}  // namespace gpuscale::harness
