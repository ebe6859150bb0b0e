#pragma once
// The host side of a rank's environment: who we are in the job, the CPU and its binding, the
// launcher, the allow-listed environment variables (local, no communication).
#include <map>
#include <string>

namespace gpuscale::results {
struct RankEnv;
}

namespace gpuscale::harness {
class World;
}

namespace gpuscale::probes {

void probe_host(const harness::World& world, results::RankEnv& env);

// The NCCL_*, CUDA_*, OMPI_*, SLURM_*, UCX_*, PMIX_*, PMI_* and GPUSCALE_* variables, minus secrets
// (anything naming a key, token, password or credential); names and values as valid UTF-8
// (results::valid_utf8).
std::map<std::string, std::string> allow_listed_variables(char** environ_block);

// "srun", "srun (no PMIx)", "mpirun", "mpirun in a Slurm allocation", "mpiexec (PMI)", "Slurm job
// without srun (...)" or "singleton", from the variables.
std::string detect_launcher(const std::map<std::string, std::string>& variables);

}  // namespace gpuscale::probes
