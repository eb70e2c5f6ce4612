#include "actors/guards/trace_semantics.hpp"

#include <algorithm>

namespace cwf::guards {

namespace {

bool satisfies_range(const Trace& trace, std::size_t begin, std::size_t end, const EventExpr& e) {
  switch (e.kind) {
    case EventExpr::Kind::zero:
      return false;
    case EventExpr::Kind::top:
      return true;
    case EventExpr::Kind::literal:
      return std::find(trace.begin() + static_cast<std::ptrdiff_t>(begin),
                       trace.begin() + static_cast<std::ptrdiff_t>(end),
                       e.literal) != trace.begin() + static_cast<std::ptrdiff_t>(end);
    case EventExpr::Kind::choice:
      return std::any_of(e.children.begin(), e.children.end(), [&](const EventExpr& child) {
        return satisfies_range(trace, begin, end, child);
      });
    case EventExpr::Kind::conjunction:
      return std::all_of(e.children.begin(), e.children.end(), [&](const EventExpr& child) {
        return satisfies_range(trace, begin, end, child);
      });
    case EventExpr::Kind::sequence: {
      // E1·E2·…: some split of the trace into consecutive parts satisfying each in turn.
      auto from = [&](std::size_t part, std::size_t start, auto& self) -> bool {
        if (part + 1 == e.children.size())
          return satisfies_range(trace, start, end, e.children[part]);
        for (std::size_t split = start; split <= end; ++split)
          if (satisfies_range(trace, start, split, e.children[part]) && self(part + 1, split, self))
            return true;
        return false;
      };
      return from(0, begin, from);
    }
  }
  return false;
}

}  // namespace

bool satisfies(const Trace& trace, const EventExpr& expression) {
  return satisfies_range(trace, 0, trace.size(), expression);
}

std::vector<Trace> maximal_traces(const std::vector<std::string>& events) {
  std::vector<Trace> traces;
  std::vector<std::string> order = events;
  std::sort(order.begin(), order.end());
  do {
    for (unsigned signs = 0; signs < (1u << order.size()); ++signs) {
      Trace trace;
      for (std::size_t i = 0; i < order.size(); ++i)
        trace.push_back(Literal{order[i], ((signs >> i) & 1u) != 0});
      traces.push_back(std::move(trace));
    }
  } while (std::next_permutation(order.begin(), order.end()));
  return traces;
}

}  // namespace cwf::guards
