#pragma once
// The expect templates: one --expect file per GPU model and profile (quick, default), made by one
// function from the floors gpuscale knows (results/base/GpuReference.hpp) and the profile's plan
// (Profile.hpp), so that a template cannot drift from them. Each holds only figures its profile
// measures on one GPU of the model: the compute phase's large GEMM per precision, the burn's
// sustained TFLOP/s, the pinned host copies at the profile's largest size and the device copy, each at
// its floor, and the checks that a warning already rules the node out for. Checked in under
// launch/expect/ (the expect_templates tool writes them; ExpectTemplatesTest holds them to this
// function), installed to share/gpuscale/expect, and picked by `--expect auto` for the GPU of rank 0.
// Pure.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "results/report/Expectations.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::launch {

struct TemplateModel {
  std::string_view stem;   // the file name's start: "h200-sxm"
  std::string_view model;  // results::GpuReference::model: "H200 SXM"
};

// The models with templates.
std::span<const TemplateModel> template_models();

// The template of `model` for the quick or the default profile; throws std::logic_error for a model
// the floors table lacks.
nlohmann::json expect_template(const TemplateModel& model, bool quick);
// "h200-sxm-quick.json".
std::string template_file_name(const TemplateModel& model, bool quick);
// The file's text: the template as written under launch/expect/ (2-space indent, a newline at the end).
std::string template_text(const nlohmann::json& t);

// --expect auto: the template of the GPU model of the run's first GPU rank and the profile of its plan,
// as the verdict line `expectations.source` names it; no thresholds where none applies (the CPU
// backend: SKIP; a model without a template or a run without a plan: WARN).
struct PickedTemplate {
  std::optional<nlohmann::json> expect;
  results::RuleOutcome source;
};
PickedTemplate pick_template(const results::RunReport& report);

}  // namespace gpuscale::launch
