#include "probes/HostProbe.hpp"

#include <sched.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "harness/World.hpp"
#include "probes/JobVariables.hpp"
#include "probes/SlurmProbe.hpp"
#include "results/base/Utf8.hpp"
#include "results/world/CpuList.hpp"
#include "results/world/RankEnv.hpp"

extern char** environ;

namespace gpuscale::probes {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

std::vector<int> affinity() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

std::map<int, std::string> numa_cpus() {
  std::map<int, std::string> nodes;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/devices/system/node", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("node", 0) != 0 || name.size() == 4 || name.find_first_not_of("0123456789", 4) != std::string::npos)
      continue;
    std::ifstream in(entry.path() / "cpulist");
    std::string list;
    if (std::getline(in, list)) nodes[std::stoi(name.substr(4))] = list;
  }
  return nodes;
}

}  // namespace

void probe_host(const harness::World& world, results::RankEnv& env) {
  env.rank = world.rank();
  env.world_size = world.size();
  env.local_rank = world.local_rank();
  env.local_size = world.local_size();
  env.node = world.node();
  env.node_count = world.node_count();
  env.host = results::valid_utf8(world.host());
  env.pid = static_cast<int>(::getpid());
  env.cpu_model = results::valid_utf8(cpu_model());
  env.cpu_online = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  const auto cpus = affinity();
  env.cpu_affinity = results::format_cpulist(cpus);
  env.cpu_affinity_count = static_cast<int>(cpus.size());
  env.numa_cpus = numa_cpus();
  env.variables = allow_listed_variables(environ);
  env.launcher = detect_launcher(env.variables);
  env.slurm = probe_slurm(env.variables);
  env.versions.mpi_library = results::valid_utf8(world.mpi_library_version());
  env.versions.mpi_standard = results::valid_utf8(world.mpi_standard_version());
}

}  // namespace gpuscale::probes
