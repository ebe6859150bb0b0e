#pragma once
// The job's environment variables as the probes read them: the allow-listed set a rank records, and
// the launcher they reveal. Pure functions of the variables, below both the host and the Slurm probe.
#include <map>
#include <string>

namespace gpuscale::probes {

using Variables = std::map<std::string, std::string>;

// The NCCL_*, CUDA_*, OMPI_*, SLURM_*, UCX_*, PMIX_*, PMI_* and GPUSCALE_* variables, minus secrets
// (anything naming a key, token, password or credential); names and values as valid UTF-8
// (results::valid_utf8).
Variables allow_listed_variables(char** environ_block);

// "srun", "srun (no PMIx)", "mpirun", "mpirun in a Slurm allocation", "mpiexec (PMI)", "Slurm job
// without srun (...)" or "singleton", from the variables.
std::string detect_launcher(const Variables& variables);

}  // namespace gpuscale::probes
