#include "actors/guards/guard_synthesis.hpp"

#include <map>

#include "actors/guards/residuation.hpp"

namespace cwf::guards {

namespace {

// The recursion visits each residual of D once per event order; residuals repeat a lot
// (D/e/f = D/f/e often), so they are remembered by their text.
Guard synthesize(const EventExpr& dependency, const Literal& event,
                 std::map<std::string, Guard>& memo) {
  if (dependency.is_zero()) return Guard::zero();
  if (dependency.is_top()) return Guard::top();
  std::string key = to_text(dependency);
  if (auto it = memo.find(key); it != memo.end()) return it->second;

  std::vector<Literal> others;
  for (const std::string& name : events_of(dependency)) {
    if (name == event.event) continue;
    others.push_back(Literal{name, false});
    others.push_back(Literal{name, true});
  }
  Guard first = Guard::eventually(residuate(dependency, event));
  for (const Literal& f : others)
    first = first && Guard::not_yet(f);
  Guard sum = first;
  for (const Literal& f : others)
    sum = sum || (Guard::always(f) && synthesize(residuate(dependency, f), event, memo));
  memo.emplace(key, sum);
  return sum;
}

}  // namespace

Guard guard_of(const EventExpr& dependency, const Literal& event) {
  std::map<std::string, Guard> memo;
  return synthesize(normalise(dependency), event, memo);
}

Guard guard_in_workflow(const std::vector<EventExpr>& dependencies, const Literal& event) {
  Guard guard = Guard::top();
  for (const EventExpr& dependency : dependencies)
    if (mentions(dependency, event.event)) guard = guard && guard_of(dependency, event);
  return guard;
}

}  // namespace cwf::guards
