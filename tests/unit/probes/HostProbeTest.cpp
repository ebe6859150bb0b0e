#include "probes/JobVariables.hpp"

#include <gtest/gtest.h>

namespace gpuscale::probes {
namespace {

TEST(HostProbe, AllowListKeepsLauncherAndNcclVariablesButNoSecrets) {
  const char* block[] = {"NCCL_DEBUG=INFO", "HOME=/root", "SLURM_JOB_ID=42", "OMPI_COMM_WORLD_RANK=0",
                         "NCCL_IB_KEY=hidden", "UCX_NET_DEVICES=mlx5_0:1", "SLURM_DB_PASSWORD=x", "PATH=/bin",
                         nullptr};
  const auto v = allow_listed_variables(const_cast<char**>(block));
  EXPECT_EQ(v.size(), 4u);
  EXPECT_EQ(v.at("NCCL_DEBUG"), "INFO");
  EXPECT_EQ(v.count("HOME"), 0u);
  EXPECT_EQ(v.count("NCCL_IB_KEY"), 0u);
  EXPECT_EQ(v.count("SLURM_DB_PASSWORD"), 0u);
}

// PMI_SIZE and PMI_RANK feed the world-size check and the launcher: they must reach the report.
TEST(HostProbe, AllowListKeepsPmiVariables) {
  const char* block[] = {"PMI_SIZE=8", "PMI_RANK=0", "PMIX_RANK=0", "PMIPATH=/x", nullptr};
  const auto v = allow_listed_variables(const_cast<char**>(block));
  EXPECT_EQ(v.size(), 3u);
  EXPECT_EQ(v.at("PMI_SIZE"), "8");
  EXPECT_EQ(detect_launcher(v), "PMIx (prterun, mpiexec)");
  EXPECT_EQ(detect_launcher(allow_listed_variables(const_cast<char**>(block + 1))), "PMIx (prterun, mpiexec)");
  const char* pmi_only[] = {"PMI_RANK=3", nullptr};
  EXPECT_EQ(detect_launcher(allow_listed_variables(const_cast<char**>(pmi_only))), "mpiexec (PMI)");
}

TEST(HostProbe, LauncherFromVariables) {
  EXPECT_EQ(detect_launcher({{"OMPI_COMM_WORLD_RANK", "0"}}), "mpirun");
  EXPECT_EQ(detect_launcher({{"OMPI_COMM_WORLD_RANK", "0"}, {"SLURM_JOB_ID", "7"}}), "mpirun in a Slurm allocation");
  EXPECT_EQ(detect_launcher({{"SLURM_STEP_ID", "0"}, {"PMIX_RANK", "3"}, {"SLURM_JOB_ID", "7"}}), "srun");
  EXPECT_EQ(detect_launcher({}), "singleton");
}

}  // namespace
}  // namespace gpuscale::probes
