#include "actors/guards/residuation.hpp"

#include <algorithm>

namespace cwf::guards {

std::optional<std::vector<Literal>> residuate_sequence(const std::vector<Literal>& sequence,
                                                       const Literal& happened) {
  bool mentioned = std::any_of(sequence.begin(), sequence.end(),
                               [&](const Literal& l) { return l.event == happened.event; });
  if (!mentioned) return sequence;
  if (sequence.front() == happened)
    return std::vector<Literal>(sequence.begin() + 1, sequence.end());
  return std::nullopt;
}

EventExpr residuate(const EventExpr& dependency, const Literal& happened) {
  switch (dependency.kind) {
    case EventExpr::Kind::zero:
    case EventExpr::Kind::top:
      return dependency;
    case EventExpr::Kind::literal:
    case EventExpr::Kind::sequence: {
      auto rest = residuate_sequence(literals_of_sequence(dependency), happened);
      if (!rest) return EventExpr::zero();
      if (rest->empty()) return EventExpr::top();
      if (rest->size() == 1) return EventExpr::of(rest->front());
      std::vector<EventExpr> parts;
      for (const Literal& l : *rest)
        parts.push_back(EventExpr::of(l));
      return EventExpr::sequence(std::move(parts));
    }
    case EventExpr::Kind::choice:
    case EventExpr::Kind::conjunction: {
      std::vector<EventExpr> members;
      for (const EventExpr& child : dependency.children)
        members.push_back(residuate(child, happened));
      return normalise(EventExpr{dependency.kind, {}, std::move(members)});
    }
  }
  return dependency;
}

}  // namespace cwf::guards
