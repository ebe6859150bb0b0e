#include "results/SlurmInfo.hpp"

#include <cstdlib>
#include <sstream>

#include <nlohmann/json.hpp>

#include "results/JsonFields.hpp"

namespace gpuscale::results {

std::vector<int> expand_tasks_per_node(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    char* end = nullptr;
    const long tasks = std::strtol(item.c_str(), &end, 10);
    if (end == item.c_str() || tasks < 0) return {};
    long repeat = 1;
    if (*end == '(') {
      if (end[1] != 'x') return {};
      char* close = nullptr;
      repeat = std::strtol(end + 2, &close, 10);
      if (*close != ')' || close[1] != '\0' || repeat < 1 || repeat > 1 << 20) return {};
    } else if (*end != '\0') {
      return {};
    }
    out.insert(out.end(), static_cast<std::size_t>(repeat), static_cast<int>(tasks));
  }
  return out;
}


void to_json(nlohmann::json& j, const SlurmInfo& v) {
  j = {{"job_id", v.job_id},
       {"step_id", v.step_id},
       {"job_name", v.job_name},
       {"partition", v.partition},
       {"cluster", v.cluster},
       {"node_list", v.node_list},
       {"nodes", v.nodes},
       {"tasks", v.tasks},
       {"tasks_per_node", v.tasks_per_node},
       {"cpus_per_task", v.cpus_per_task},
       {"cpus_on_node", v.cpus_on_node},
       {"gpus_per_task", v.gpus_per_task},
       {"gpus_per_node", v.gpus_per_node},
       {"gpus_on_node", v.gpus_on_node},
       {"gpus", v.gpus},
       {"mpi_type", v.mpi_type},
       {"task_ids_trusted", v.task_ids_trusted},
       {"procid", v.procid},
       {"localid", v.localid},
       {"nodeid", v.nodeid}};
}

void from_json(const nlohmann::json& j, SlurmInfo& v) {
  j.at("job_id").get_to(v.job_id);
  get_if_present(j, "step_id", v.step_id);
  get_if_present(j, "job_name", v.job_name);
  get_if_present(j, "partition", v.partition);
  get_if_present(j, "cluster", v.cluster);
  get_if_present(j, "node_list", v.node_list);
  get_if_present(j, "nodes", v.nodes);
  get_if_present(j, "tasks", v.tasks);
  get_if_present(j, "tasks_per_node", v.tasks_per_node);
  get_if_present(j, "cpus_per_task", v.cpus_per_task);
  get_if_present(j, "cpus_on_node", v.cpus_on_node);
  get_if_present(j, "gpus_per_task", v.gpus_per_task);
  get_if_present(j, "gpus_per_node", v.gpus_per_node);
  get_if_present(j, "gpus_on_node", v.gpus_on_node);
  get_if_present(j, "gpus", v.gpus);
  get_if_present(j, "mpi_type", v.mpi_type);
  get_if_present(j, "task_ids_trusted", v.task_ids_trusted);
  get_if_present(j, "procid", v.procid);
  get_if_present(j, "localid", v.localid);
  get_if_present(j, "nodeid", v.nodeid);
}

}  // namespace gpuscale::results
