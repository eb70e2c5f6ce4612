// Reads a GSM model from YAML (the format is in docs/gsm.md). Every mistake is a LoadError naming
// file:line:column and what was expected there.
#pragma once

#include <string>
#include <string_view>

#include "actors/gsm/model.hpp"
#include "runtime/loading/load_error.hpp"

namespace cwf::gsm {

Model load_model_file(const std::string& path);
// `file_for_errors` names the text in errors.
Model load_model_text(std::string_view yaml, const std::string& file_for_errors);

}  // namespace cwf::gsm
