// Slurm's variables as srun, salloc + mpirun and sbatch really set them (captured from Slurm 22.05),
// and the launch cross-checks that read them.
#include "probes/SlurmProbe.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "phases/env/EnvChecks.hpp"
#include "probes/JobVariables.hpp"

namespace gpuscale::probes {
namespace {

using judge::run_env_checks;

// Task `procid` of `srun -n 4 --gpus-per-task=1 --mpi=pmix` on one node.
Variables srun_task(int procid, int tasks = 4) {
  return {{"SLURM_JOB_ID", "42"},         {"SLURM_STEP_ID", "0"},           {"SLURM_STEPID", "0"},
          {"SLURM_JOB_NAME", "gpuscale"}, {"SLURM_JOB_PARTITION", "gpu"},   {"SLURM_STEP_NODELIST", "node1"},
          {"SLURM_JOB_NODELIST", "node1"}, {"SLURM_STEP_NUM_NODES", "1"},   {"SLURM_STEP_NUM_TASKS", std::to_string(tasks)},
          {"SLURM_NTASKS", std::to_string(tasks)}, {"SLURM_STEP_TASKS_PER_NODE", std::to_string(tasks)},
          {"SLURM_PROCID", std::to_string(procid)}, {"SLURM_LOCALID", std::to_string(procid)},
          {"SLURM_NODEID", "0"},          {"SLURM_STEP_GPUS", std::to_string(procid)},
          {"SLURM_GPUS_ON_NODE", "4"},    {"SLURM_MPI_TYPE", "pmix"},       {"PMIX_RANK", std::to_string(procid)}};
}

// Rank `rank` of `mpirun -np 4` inside `sbatch -n 4`: the batch script's SLURM_PROCID=0/LOCALID=0.
Variables mpirun_in_sbatch(int rank) {
  return {{"SLURM_JOB_ID", "43"},  {"SLURM_JOB_NODELIST", "node1"}, {"SLURM_JOB_NUM_NODES", "1"},
          {"SLURM_NTASKS", "4"},   {"SLURM_TASKS_PER_NODE", "4"},   {"SLURM_PROCID", "0"},
          {"SLURM_LOCALID", "0"},  {"SLURM_NODEID", "0"},           {"SLURM_JOB_GPUS", "0,1,2,3"},
          {"SLURM_GPUS_PER_TASK", "1"}, {"OMPI_COMM_WORLD_RANK", std::to_string(rank)},
          {"OMPI_COMM_WORLD_SIZE", "4"}, {"PMIX_RANK", std::to_string(rank)}};
}

results::RankEnv rank_env(int rank, int world, const Variables& v) {
  results::RankEnv r;
  r.rank = rank;
  r.world_size = world;
  r.local_rank = rank;
  r.local_size = world;
  r.host = "node1";
  r.backend = "cpu";
  r.variables = v;
  r.launcher = detect_launcher(v);
  r.slurm = probe_slurm(v);
  return r;
}

std::vector<std::string> ids(const std::vector<results::Check>& checks) {
  std::vector<std::string> out;
  for (const auto& c : checks) out.push_back(c.id);
  return out;
}

TEST(SlurmProbe, SrunTaskKeepsItsOwnIds) {
  const auto s = probe_slurm(srun_task(3));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->job_id, "42");
  EXPECT_EQ(s->step_id, "0");
  EXPECT_TRUE(s->task_ids_trusted);
  EXPECT_EQ(s->procid, 3);
  EXPECT_EQ(s->localid, 3);
  EXPECT_EQ(s->tasks, 4);
  EXPECT_EQ(s->tasks_per_node, "4");
  EXPECT_EQ(s->gpus, "3");
  EXPECT_EQ(s->gpus_per_task, "1");
  EXPECT_EQ(s->mpi_type, "pmix");
  EXPECT_EQ(detect_launcher(srun_task(3)), "srun");
}

TEST(SlurmProbe, MpirunInsideSbatchDistrustsInheritedTaskIds) {
  const auto s = probe_slurm(mpirun_in_sbatch(2));
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->task_ids_trusted);
  EXPECT_EQ(s->procid, -1);
  EXPECT_EQ(s->localid, -1);
  EXPECT_EQ(s->step_id, "");
  EXPECT_EQ(s->tasks, 4);
  EXPECT_EQ(s->gpus, "0,1,2,3");
  EXPECT_EQ(s->gpus_per_task, "1");
  EXPECT_EQ(detect_launcher(mpirun_in_sbatch(2)), "mpirun in a Slurm allocation");
  EXPECT_FALSE(probe_slurm({{"OMPI_COMM_WORLD_RANK", "0"}}));
}

TEST(SlurmProbe, ExpandsCompressedTasksPerNode) {
  EXPECT_EQ(expand_tasks_per_node("4"), (std::vector<int>{4}));
  EXPECT_EQ(expand_tasks_per_node("8(x2),4"), (std::vector<int>{8, 8, 4}));
  EXPECT_TRUE(expand_tasks_per_node("8(x2").empty());
  EXPECT_TRUE(expand_tasks_per_node("x").empty());
}

TEST(SlurmProbe, SrunWithoutPmiIsALaunchProblem) {
  auto v = srun_task(0);
  EXPECT_EQ(launch_problem(v), "");
  v.erase("PMIX_RANK");
  v["SLURM_MPI_TYPE"] = "none";
  EXPECT_NE(launch_problem(v).find("--mpi=pmix"), std::string::npos) << launch_problem(v);
  EXPECT_EQ(launch_problem(mpirun_in_sbatch(0)), "");
  auto single = srun_task(0, 1);
  single.erase("PMIX_RANK");
  EXPECT_EQ(launch_problem(single), "") << "one task needs no PMI";
}

TEST(LaunchChecks, HealthySrunAndMpirunLaunchesAreQuiet) {
  std::vector<results::RankEnv> srun, mpirun;
  for (int r = 0; r < 4; ++r) {
    srun.push_back(rank_env(r, 4, srun_task(r)));
    mpirun.push_back(rank_env(r, 4, mpirun_in_sbatch(r)));
  }
  EXPECT_TRUE(run_env_checks(srun).empty()) << ids(run_env_checks(srun)).front();
  EXPECT_TRUE(run_env_checks(mpirun).empty()) << "inherited SLURM_LOCALID=0 must not be compared";
}

TEST(LaunchChecks, SrunTasksInSeparateWorldsAreAnError) {
  std::vector<results::RankEnv> ranks;
  for (int r = 0; r < 2; ++r) ranks.push_back(rank_env(r, 2, srun_task(r, 4)));
  const auto checks = run_env_checks(ranks);
  ASSERT_FALSE(checks.empty());
  EXPECT_EQ(checks.front().id, "world-size-mismatch");
  EXPECT_EQ(checks.front().severity, results::Severity::error);
}

TEST(LaunchChecks, LocalRankThatDisagreesWithSlurmIsReported) {
  std::vector<results::RankEnv> ranks;
  for (int r = 0; r < 4; ++r) ranks.push_back(rank_env(r, 4, srun_task(r)));
  std::swap(ranks[1].local_rank, ranks[2].local_rank);
  const auto checks = run_env_checks(ranks);
  ASSERT_EQ(ids(checks), std::vector<std::string>{"slurm-layout-mismatch"});
  EXPECT_EQ(checks.front().ranks, (std::vector<int>{1, 2}));
  for (auto& r : ranks) r.variables["GPUSCALE_TEST_RANKS_PER_NODE"] = "2";
  EXPECT_TRUE(run_env_checks(ranks).empty()) << "emulated nodes differ from Slurm's on purpose";
}

TEST(LaunchChecks, TasksPerNodeAndNodeCountAgainstMpi) {
  std::vector<results::RankEnv> ranks;
  for (int r = 0; r < 4; ++r) {
    auto v = srun_task(r);
    v["SLURM_STEP_NUM_NODES"] = "2";
    v["SLURM_STEP_TASKS_PER_NODE"] = "2(x2)";
    ranks.push_back(rank_env(r, 4, v));
  }
  const auto found = ids(run_env_checks(ranks));
  EXPECT_EQ(std::count(found.begin(), found.end(), "slurm-layout-mismatch"), 2);
}

}  // namespace
}  // namespace gpuscale::probes
