// Shared by the GSM tests: the shipped models and small models written inline.
#pragma once

#include <string>

#include "actors/gsm/model.hpp"
#include "actors/gsm/model_loader.hpp"

namespace cwf::gsm::testing {

inline std::string source_path(const std::string& relative) {
  return std::string(CWF_SOURCE_DIR) + "/" + relative;
}

inline Model design_to_order() {
  return load_model_file(source_path("workflows/gsm/design_to_order.yaml"));
}

// A model whose events carry data: sentries with data conditions (all with an event), an
// invalidation on data, and latestIncEvent read by a condition (on R:Submit it is always
// "R:Submit": the reference interpretation and the workflow units must both see it so).
inline Model claim_model() {
  return load_model_text(R"(artifact: claim
data: {amount: int, flagged: bool}
events:
  R:Submit: {creates: true, updates: [amount]}
  R:Flag: {updates: [flagged]}
  T:Check: {}
  T:Pay: {}
  T:Audit: {}
stages:
  Check:
    guards: [on R:Submit if not Pay]
    milestones:
      ok: {achieved: on T:Check if /amount < 5000, invalidated: on R:Flag if /flagged}
      rejected: on T:Check if /amount >= 5000
  Pay:
    guards: [on +Check:ok if not /flagged]
    milestones: {paid: on T:Pay}
  Audit:
    guards: ["on R:Flag if /flagged or /amount > 9000", "on R:Submit if /amount > 9000 and /latestIncEvent == \"R:Submit\""]
    milestones:
      done: {achieved: on T:Audit, invalidated: on R:Submit if /amount > 9500}
)",
                         "claim.yaml");
}

// The LoadError message of a model text, or "" when it loads.
inline std::string load_error(const std::string& yaml) {
  try {
    load_model_text(yaml, "m.yaml");
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

}  // namespace cwf::gsm::testing
