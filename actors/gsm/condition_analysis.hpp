// Reads a sentry condition against the model: status attributes are written by name inside the
// expression language (stage `RA`, milestone `RA:ap`), data attributes as input paths (`/design`,
// `/latestIncEvent`). Reuses the expression language's lexer, so strings, paths and function
// calls are recognised exactly as the compiler will see them.
#pragma once

#include <string>
#include <string_view>

#include "actors/gsm/condition_info.hpp"
#include "actors/gsm/model.hpp"

namespace cwf::gsm {

// The variable a status attribute is inside a compiled condition: its name with ':' as '_'.
std::string status_variable(std::string_view status_name);

// Throws ExprError with the 1-based column in `text` for an unknown name or a syntax error.
ConditionInfo analyse_condition(std::string_view text, const Model& model);

}  // namespace cwf::gsm
