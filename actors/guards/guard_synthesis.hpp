// Guard synthesis by Definition 2 (Singh §4.2):
//   G(D, e) = (◇(D/e) ∧ ⋀_{f∈Γ'} ¬f) + Σ_{f∈Γ'} (□f ∧ G(D/f, e)),   Γ' = Γ_D − {e, ~e}
// and the guard of an event in a workflow: the conjunction over the dependencies mentioning it.
#pragma once

#include <vector>

#include "actors/guards/event_expression.hpp"
#include "actors/guards/guard.hpp"

namespace cwf::guards {

// `dependency` need not be normalised.
Guard guard_of(const EventExpr& dependency, const Literal& event);

// T when no dependency mentions the event.
Guard guard_in_workflow(const std::vector<EventExpr>& dependencies, const Literal& event);

}  // namespace cwf::guards
