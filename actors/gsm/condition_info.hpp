// What the model compiler knows about a sentry's condition φ: the attributes it reads (which give
// the dependency graph its edges and the engine its reachable rules), its top-level `not m`
// conjuncts (vacuous reopening rules) and, when φ is only a conjunction of status literals, those
// literals (evaluated as bit masks instead of through the expression language).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "actors/gsm/status_literal.hpp"

namespace cwf::gsm {

struct ConditionInfo {
  std::string source;      // φ as written
  std::string expression;  // φ with status names as variables (`RA:ap` -> `RA_ap`, same length)
  std::vector<int> status_read;  // status attributes, sorted, without repeats
  std::vector<int> data_read;  // data attributes (Model::data index; data.size() = latestIncEvent)
  std::vector<int> negated_conjuncts;  // attributes m with a top-level conjunct `not m`
  std::optional<std::vector<StatusLiteral>> literals;  // φ = l1 and l2 and ... (status literals)
};

}  // namespace cwf::gsm
