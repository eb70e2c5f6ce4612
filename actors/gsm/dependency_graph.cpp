#include "actors/gsm/dependency_graph.hpp"

#include <algorithm>
#include <set>

#include "runtime/loading/load_error.hpp"

namespace cwf::gsm {

std::string node_name(const Model& model, int node) {
  return change_text(model, pdg_literal(node));
}

namespace {

// A cycle among `edges`, as a node sequence whose last node has an edge to the first.
std::vector<int> find_cycle(std::size_t nodes, const std::vector<std::vector<int>>& successors) {
  std::vector<int> color(nodes, 0), parent(nodes, -1);
  for (std::size_t start = 0; start < nodes; ++start) {
    if (color[start] != 0) continue;
    // Iterative depth-first search: (node, next successor to visit).
    std::vector<std::pair<int, std::size_t>> stack{{static_cast<int>(start), 0}};
    color[start] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const auto& succ = successors[static_cast<std::size_t>(node)];
      if (next == succ.size()) {
        color[static_cast<std::size_t>(node)] = 2;
        stack.pop_back();
        continue;
      }
      int to = succ[next++];
      if (color[static_cast<std::size_t>(to)] == 1) {
        std::vector<int> cycle;
        for (int n = node; n != to; n = parent[static_cast<std::size_t>(n)])
          cycle.push_back(n);
        cycle.push_back(to);
        std::reverse(cycle.begin(), cycle.end());
        return cycle;
      }
      if (color[static_cast<std::size_t>(to)] == 0) {
        color[static_cast<std::size_t>(to)] = 1;
        parent[static_cast<std::size_t>(to)] = node;
        stack.push_back({to, 0});
      }
    }
  }
  return {};
}

}  // namespace

DependencyGraph DependencyGraph::build(const Model& model, const RuleSet& rules) {
  DependencyGraph graph;
  const std::size_t nodes = 2 * model.status_count();
  graph.successors_.resize(nodes);
  std::set<std::pair<int, int>> seen;
  auto add = [&](int from, int to, int rule) {
    if (seen.insert({from, to}).second) {
      graph.edges_.push_back({from, to, rule});
      graph.successors_[static_cast<std::size_t>(from)].push_back(to);
    }
  };
  for (std::size_t r = 0; r < rules.rules.size(); ++r) {
    const PacRule& rule = rules.rules[r];
    if (rule.vacuous) continue;
    const int to = pdg_node(rule.consequent);
    const int index = static_cast<int>(r);
    if (rule.trigger.kind == Trigger::Kind::status)
      add(pdg_node({rule.trigger.attribute, rule.trigger.value}), to, index);
    auto both = [&](int attribute) {
      add(pdg_node({attribute, true}), to, index);
      add(pdg_node({attribute, false}), to, index);
    };
    if (rule.condition >= 0)
      for (int attribute : model.conditions[static_cast<std::size_t>(rule.condition)].status_read)
        both(attribute);
    if (rule.parent_open >= 0) both(rule.parent_open);
  }

  // Kahn's algorithm, computing the longest-path strata on the way.
  std::vector<int> indegree(nodes, 0);
  for (const PdgEdge& e : graph.edges_)
    ++indegree[static_cast<std::size_t>(e.to)];
  graph.stratum_.assign(nodes, 0);
  std::vector<int> ready;
  for (std::size_t n = 0; n < nodes; ++n)
    if (indegree[n] == 0) ready.push_back(static_cast<int>(n));
  std::size_t done = 0;
  while (!ready.empty()) {
    int n = ready.back();
    ready.pop_back();
    ++done;
    for (int to : graph.successors_[static_cast<std::size_t>(n)]) {
      auto& s = graph.stratum_[static_cast<std::size_t>(to)];
      s = std::max(s, graph.stratum_[static_cast<std::size_t>(n)] + 1);
      if (--indegree[static_cast<std::size_t>(to)] == 0) ready.push_back(to);
    }
  }
  if (done != nodes) {
    std::vector<int> cycle = find_cycle(nodes, graph.successors_);
    std::string path;
    for (int n : cycle)
      path += node_name(model, n) + " -> ";
    path += node_name(model, cycle.front());
    // The rules that make the cycle's edges, and where the first of them was written.
    std::string because;
    SourceLocation where{model.file, 0, 0};
    for (std::size_t i = 0; i < cycle.size(); ++i) {
      int from = cycle[i], to = cycle[(i + 1) % cycle.size()];
      for (const PdgEdge& e : graph.edges_) {
        if (e.from != from || e.to != to) continue;
        const PacRule& rule = rules.rules[static_cast<std::size_t>(e.rule)];
        because += (because.empty() ? "" : "; ") + node_name(model, from) + " -> " +
                   node_name(model, to) + " by " + rule_origin(model, rule);
        if (where.line == 0) {
          if (const Sentry* sentry = rule_sentry(model, rule))
            where = sentry->location;
          else
            where = model.stages[static_cast<std::size_t>(rule.stage)].location;
        }
        break;
      }
    }
    throw LoadError(where, "the polarized dependency graph has a cycle: " + path + " (" + because +
                               "); a B-step could not order these rules");
  }
  for (int s : graph.stratum_)
    graph.strata_ = std::max(graph.strata_, s + 1);
  graph.order_.resize(nodes);
  for (std::size_t n = 0; n < nodes; ++n)
    graph.order_[n] = static_cast<int>(n);
  std::stable_sort(graph.order_.begin(), graph.order_.end(), [&](int a, int b) {
    return graph.stratum_[static_cast<std::size_t>(a)] <
           graph.stratum_[static_cast<std::size_t>(b)];
  });
  graph.position_.resize(nodes);
  for (std::size_t i = 0; i < nodes; ++i)
    graph.position_[static_cast<std::size_t>(graph.order_[i])] = static_cast<int>(i);
  return graph;
}

std::vector<bool> DependencyGraph::reachable(const std::vector<int>& roots) const {
  std::vector<bool> seen(node_count(), false);
  std::vector<int> stack;
  for (int r : roots)
    if (!seen[static_cast<std::size_t>(r)]) {
      seen[static_cast<std::size_t>(r)] = true;
      stack.push_back(r);
    }
  while (!stack.empty()) {
    int n = stack.back();
    stack.pop_back();
    for (int to : successors_[static_cast<std::size_t>(n)])
      if (!seen[static_cast<std::size_t>(to)]) {
        seen[static_cast<std::size_t>(to)] = true;
        stack.push_back(to);
      }
  }
  return seen;
}

std::string DependencyGraph::to_dot(const Model& model) const {
  std::string dot = "digraph \"" + model.name + "\" {\n  rankdir=LR;\n  node [shape=box];\n";
  for (int s = 0; s < strata_; ++s) {
    dot += "  { rank=same; // stratum " + std::to_string(s) + "\n";
    for (int n : order_)
      if (stratum_[static_cast<std::size_t>(n)] == s) {
        std::string name = node_name(model, n);
        dot +=
            "    \"" + name + "\" [style=" + std::string(n % 2 == 0 ? "solid" : "dashed") + "];\n";
      }
    dot += "  }\n";
  }
  for (const PdgEdge& e : edges_)
    dot += "  \"" + node_name(model, e.from) + "\" -> \"" + node_name(model, e.to) + "\";\n";
  dot += "}\n";
  return dot;
}

}  // namespace cwf::gsm
