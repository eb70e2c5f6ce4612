#include "runtime/graph/worker_homes.hpp"

namespace cwf {

namespace {
// What is known of an actor's lines while they are worked out: nothing yet, one worker's (>= 0),
// or several (or a line with no home, such as a source's).
constexpr int kUnknown = -2;
constexpr int kMixed = -3;

int join(int a, int b) {
  if (a == kUnknown) return b;
  if (b == kUnknown || a == b) return a;
  return kMixed;
}
}  // namespace

std::vector<int> worker_homes(const Workflow& workflow, unsigned workers) {
  const std::size_t n = workflow.size();
  if (workers <= 1) return std::vector<int>(n, kNoHome);
  // A receiver of a repartitioning edge is at home where its replica number says (one that is a
  // different receiver of two rules has no single home); an actor nothing feeds (a source) heads
  // a line of its own, which no worker holds.
  std::vector<int> line(n, kUnknown);
  std::vector<bool> routed(n, false), fed(n, false);
  for (const Connection& c : workflow.connections()) {
    fed[c.to.actor] = true;
    if (!c.route) continue;
    line[c.to.actor] = join(line[c.to.actor], c.route_receiver % static_cast<int>(workers));
    routed[c.to.actor] = true;
  }
  for (ActorId id = 0; id < n; ++id)
    if (!fed[id]) line[id] = kMixed;
  // Then downstream along plain connections, to a fixed point: an actor is of every line that
  // feeds it. Each actor's state only moves from unknown to one line to several, so it settles.
  for (bool changed = true; changed;) {
    changed = false;
    for (const Connection& c : workflow.connections()) {
      if (routed[c.to.actor]) continue;
      const int joined = join(line[c.to.actor], line[c.from.actor]);
      if (joined != line[c.to.actor]) {
        line[c.to.actor] = joined;
        changed = true;
      }
    }
  }
  std::vector<int> home(n, kNoHome);
  for (ActorId id = 0; id < n; ++id)
    if (line[id] >= 0) home[id] = line[id];
  return home;
}

}  // namespace cwf
