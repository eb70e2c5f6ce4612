// Residuation D/e (Singh §3.4): what remains of dependency D to be enforced after literal e
// happened. The rules assume normal form (see normalise); for a literal sequence s and a
// literal x: if neither x nor ~x is in s, s is unchanged; if s starts with x, x is dropped (a
// lone x leaves T); otherwise nothing remains satisfiable (0).
#pragma once

#include <optional>
#include <vector>

#include "actors/guards/event_expression.hpp"

namespace cwf::guards {

// `dependency` must be normalised; the result is normalised.
EventExpr residuate(const EventExpr& dependency, const Literal& happened);

// Residuates a literal sequence: nullopt for 0, an empty vector for T.
std::optional<std::vector<Literal>> residuate_sequence(const std::vector<Literal>& sequence,
                                                       const Literal& happened);

}  // namespace cwf::guards
