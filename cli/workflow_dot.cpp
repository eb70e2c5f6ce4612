#include "cli/workflow_dot.hpp"

#include <sstream>

#include "runtime/execution/composite_actor.hpp"

namespace cwf::cli {

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";  // a line break inside a dot label
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The actor an actor with parallelism replicates, for a replica's name ("tolls[2]" -> "tolls"),
// else "".
std::string replicated_actor(const std::string& name) {
  if (name.empty() || name.back() != ']') return "";
  std::size_t open = name.rfind('[');
  if (open == std::string::npos || open == 0 || open + 2 > name.size() - 1) return "";
  for (std::size_t i = open + 1; i + 1 < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return "";
  return name.substr(0, open);
}

// Writes the actors and connections of `workflow`; node ids are prefixed so that sub-workflows
// (drawn as clusters inside their composite) do not collide with the outer graph. The replicas of
// an actor with parallelism are drawn in a dashed cluster; a connection that shares events among
// them by a key is labelled with its rule and the replica's part ("partition_by /car: 1 of 2"),
// and a partition actor of the workflow's own is a diamond.
void write_graph(const Workflow& workflow, const std::string& prefix, const std::string& indent,
                 std::ostream& out) {
  std::string open_cluster;  // the replicated actor whose cluster is open
  auto close_cluster = [&] {
    if (!open_cluster.empty()) out << indent << "}\n";
    open_cluster.clear();
  };
  for (const ActorEntry& entry : workflow.actors()) {
    std::string id = quoted(prefix + entry.name);
    const std::string replicated = replicated_actor(entry.name);
    if (replicated != open_cluster) {
      close_cluster();
      if (!replicated.empty()) {
        std::size_t replicas = 0;
        for (const ActorEntry& other : workflow.actors())
          if (replicated_actor(other.name) == replicated) ++replicas;
        out << indent << "subgraph " << quoted("cluster_" + prefix + replicated) << " {\n";
        out << indent << "  label=" << quoted(replicated + " x" + std::to_string(replicas))
            << ";\n";
        out << indent << "  style=dashed;\n";
        open_cluster = replicated;
      }
    }
    if (auto* composite = dynamic_cast<CompositeActor*>(entry.actor.get())) {
      out << indent << "subgraph " << quoted("cluster_" + prefix + entry.name) << " {\n";
      out << indent << "  label="
          << quoted(entry.name + " (" + composite->inner().name() + ", " +
                    composite->inner().director().type + ")")
          << ";\n";
      out << indent << "  style=rounded;\n";
      write_graph(composite->inner(), prefix + entry.name + "/", indent + "  ", out);
      out << indent << "}\n";
      continue;
    }
    const char* shape = entry.actor->is_source()         ? "invhouse"
                        : entry.actor->outputs().empty() ? "house"
                        : entry.type == "partition"      ? "diamond"
                                                         : "box";
    std::string label = entry.name + "\\n" + (entry.type.empty() ? "actor" : entry.type);
    out << indent << (open_cluster.empty() ? "" : "  ") << id << " [shape=" << shape << ", label=\""
        << label << "\"];\n";
  }
  close_cluster();
  auto endpoint = [&](ActorId actor, bool input, int port) {
    const ActorEntry& entry = workflow.actor(actor);
    if (auto* composite = dynamic_cast<CompositeActor*>(entry.actor.get())) {
      // Edges into or out of a composite attach to its boundary actor inside the cluster.
      const auto& ports = input ? composite->inputs() : composite->outputs();
      return quoted(prefix + entry.name + "/" + ports[static_cast<std::size_t>(port)].name);
    }
    return quoted(prefix + entry.name);
  };
  for (const Connection& c : workflow.connections()) {
    const Actor& from = *workflow.actor(c.from.actor).actor;
    const Actor& to = *workflow.actor(c.to.actor).actor;
    out << indent << endpoint(c.from.actor, false, c.from.port) << " -> "
        << endpoint(c.to.actor, true, c.to.port);
    std::string label;
    if (from.outputs().size() > 1)
      label += from.outputs()[static_cast<std::size_t>(c.from.port)].name;
    if (to.inputs().size() > 1)
      label +=
          (label.empty() ? "" : " -> ") + to.inputs()[static_cast<std::size_t>(c.to.port)].name;
    if (c.route) label += (label.empty() ? "" : "\n") + c.route->describe(c.route_receiver);
    if (const PortWindow* window = workflow.window(c.to))
      label += (label.empty() ? "" : "\n") + window->spec.describe();
    if (!label.empty()) out << " [label=" << quoted(label) << "]";
    out << ";\n";
  }
  for (const PortWindow& w : workflow.windows()) {
    if (!w.expired_to) continue;
    // The events expiring from the window leave from the port it is on: a dashed edge, so that it
    // is not read as the actor's output.
    const Actor& to = *workflow.actor(w.port.actor).actor;
    const Actor& target = *workflow.actor(w.expired_to->actor).actor;
    std::string expired = "expired";
    if (to.inputs().size() > 1)
      expired += " from " + to.inputs()[static_cast<std::size_t>(w.port.port)].name;
    if (target.inputs().size() > 1)
      expired += " -> " + target.inputs()[static_cast<std::size_t>(w.expired_to->port)].name;
    out << indent << endpoint(w.port.actor, true, w.port.port) << " -> "
        << endpoint(w.expired_to->actor, true, w.expired_to->port)
        << " [style=dashed, label=" << quoted(expired) << "];\n";
  }
}

}  // namespace

std::string workflow_dot(const Workflow& workflow) {
  std::ostringstream out;
  out << "digraph " << quoted(workflow.name()) << " {\n";
  out << "  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n";
  write_graph(workflow, "", "  ", out);
  out << "}\n";
  return out.str();
}

}  // namespace cwf::cli
