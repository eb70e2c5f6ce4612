#include "runtime/graph/cycle_edges.hpp"

#include <cstdint>
#include <utility>

namespace cwf {

CycleEdges find_cycle_edges(const Workflow& workflow) {
  const std::vector<Connection>& connections = workflow.connections();
  const std::vector<PortWindow>& windows = workflow.windows();
  CycleEdges result{std::vector<bool>(connections.size(), false),
                    std::vector<bool>(windows.size(), false)};
  // Edges out of each actor: (target actor, index; windows' expired routes after connections).
  std::vector<std::vector<std::pair<ActorId, std::size_t>>> out(workflow.size());
  for (std::size_t i = 0; i < connections.size(); ++i)
    out[connections[i].from.actor].push_back({connections[i].to.actor, i});
  for (std::size_t i = 0; i < windows.size(); ++i)
    if (windows[i].expired_to)
      out[windows[i].port.actor].push_back({windows[i].expired_to->actor, connections.size() + i});
  auto mark = [&](std::size_t edge) {
    if (edge < connections.size())
      result.connections[edge] = true;
    else
      result.expired_routes[edge - connections.size()] = true;
  };

  enum : std::uint8_t { kUnseen, kOnPath, kDone };
  std::vector<std::uint8_t> state(workflow.size(), kUnseen);
  std::vector<std::pair<ActorId, std::size_t>> path;  // actor, next edge to follow
  auto search_from = [&](ActorId root) {
    if (state[root] != kUnseen) return;
    state[root] = kOnPath;
    path.push_back({root, 0});
    while (!path.empty()) {
      auto& [actor, next] = path.back();
      if (next == out[actor].size()) {
        state[actor] = kDone;
        path.pop_back();
        continue;
      }
      auto [target, edge] = out[actor][next++];
      if (state[target] == kOnPath) {
        mark(edge);
      } else if (state[target] == kUnseen) {
        state[target] = kOnPath;
        path.push_back({target, 0});
      }
    }
  };
  for (ActorId id = 0; id < workflow.size(); ++id)
    if (workflow.actor(id).actor->is_source()) search_from(id);
  for (ActorId id = 0; id < workflow.size(); ++id)
    search_from(id);
  return result;
}

}  // namespace cwf
