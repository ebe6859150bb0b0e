#include "results/TraceSpan.hpp"

namespace gpuscale::results {

void to_json(nlohmann::json& j, const TraceSpan& s) {
  j = {{"rank", s.rank},       {"config", s.config},         {"lane", s.lane},  {"name", s.name},
       {"start_s", s.start_s}, {"duration_s", s.duration_s}, {"args", s.args}};
}

void from_json(const nlohmann::json& j, TraceSpan& s) {
  j.at("rank").get_to(s.rank);
  s.config = j.value("config", std::string());
  j.at("lane").get_to(s.lane);
  j.at("name").get_to(s.name);
  j.at("start_s").get_to(s.start_s);
  j.at("duration_s").get_to(s.duration_s);
  s.args = j.value("args", nlohmann::json::object());
}

}  // namespace gpuscale::results
