// The semantics of the event language over traces (Singh §3.2, Semantics 1-5), applied
// directly to an expression as written, and the enumeration of maximal traces: the reference
// against which residuation and guards are checked.
#pragma once

#include <string>
#include <vector>

#include "actors/guards/event_expression.hpp"

namespace cwf::guards {

using Trace = std::vector<Literal>;

// u ⊨ E. `trace` holds each event at most once, never with its complement.
bool satisfies(const Trace& trace, const EventExpr& expression);

// Every maximal trace over `events`: each event or its complement, in every order
// (n! · 2^n traces).
std::vector<Trace> maximal_traces(const std::vector<std::string>& events);

}  // namespace cwf::guards
