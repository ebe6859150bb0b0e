#include "probes/JobVariables.hpp"

#include <array>
#include <string_view>

#include "results/base/Utf8.hpp"

namespace gpuscale::probes {
namespace {

bool is_secret(std::string_view name) {
  for (std::string_view word : {"KEY", "TOKEN", "PASSWORD", "SECRET", "CREDENTIAL"})
    if (name.find(word) != std::string_view::npos) return true;
  return false;
}

}  // namespace

Variables allow_listed_variables(char** environ_block) {
  static constexpr std::array<std::string_view, 8> kPrefixes = {"NCCL_", "CUDA_", "OMPI_", "SLURM_",
                                                                 "UCX_",  "PMIX_", "PMI_",  "GPUSCALE_"};
  Variables out;
  for (char** e = environ_block; e && *e; ++e) {
    const std::string_view entry(*e);
    const auto eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view name = entry.substr(0, eq);
    bool wanted = false;
    for (auto prefix : kPrefixes) wanted = wanted || name.rfind(prefix, 0) == 0;
    if (wanted && !is_secret(name)) out.emplace(results::valid_utf8(name), results::valid_utf8(entry.substr(eq + 1)));
  }
  return out;
}

std::string detect_launcher(const Variables& v) {
  const bool ompi = v.count("OMPI_COMM_WORLD_RANK") > 0;
  const bool slurm_step = v.count("SLURM_STEP_ID") > 0 || v.count("SLURM_STEPID") > 0;
  const bool slurm_job = v.count("SLURM_JOB_ID") > 0;
  if (ompi) return slurm_job ? "mpirun in a Slurm allocation" : "mpirun";
  if (slurm_step && v.count("PMIX_RANK")) return "srun";
  if (slurm_step) return "srun (no PMIx)";
  if (v.count("PMIX_RANK")) return "PMIx (prterun, mpiexec)";
  if (v.count("PMI_RANK")) return "mpiexec (PMI)";
  if (slurm_job) return "Slurm job without srun (batch script or salloc shell)";
  return "singleton";
}

}  // namespace gpuscale::probes
