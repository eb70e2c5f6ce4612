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
