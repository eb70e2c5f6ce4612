#include "runtime/graph/workflow.hpp"

namespace cwf {

std::string SourceLocation::to_string() const {
  std::string out = file.empty() ? "<workflow>" : file;
  if (line > 0) out += ":" + std::to_string(line);
  if (column > 0) out += ":" + std::to_string(column);
  return out;
}

ActorId Workflow::add(std::string name, std::unique_ptr<Actor> actor, std::string type,
                      int priority, SourceLocation location) {
  if (find(name)) throw WorkflowError("actor '" + name + "' is defined twice");
  actors_.push_back(
      {std::move(name), std::move(type), std::move(actor), priority, std::move(location)});
  return static_cast<ActorId>(actors_.size() - 1);
}

std::optional<ActorId> Workflow::find(std::string_view name) const {
  for (std::size_t i = 0; i < actors_.size(); ++i)
    if (actors_[i].name == name) return static_cast<ActorId>(i);
  return std::nullopt;
}

ActorId Workflow::require(std::string_view name) const {
  if (auto id = find(name)) return *id;
  throw WorkflowError("no actor named '" + std::string(name) + "'");
}

namespace {
std::string port_list(std::span<const PortSpec> ports) {
  if (ports.empty()) return "none";
  std::string out;
  for (const auto& p : ports)
    out += (out.empty() ? "" : ", ") + p.name;
  return out;
}
}  // namespace

int Workflow::require_input(ActorId actor, std::string_view port) const {
  const Actor& consumer = *actors_[actor].actor;
  int in = consumer.input_index(port);
  if (in < 0)
    throw WorkflowError("actor '" + actors_[actor].name + "' has no input port '" +
                        std::string(port) + "' (inputs: " + port_list(consumer.inputs()) + ")");
  return in;
}

std::string Workflow::port_name(PortAddress input) const {
  const ActorEntry& entry = actors_[input.actor];
  return entry.name + "." + entry.actor->inputs()[static_cast<std::size_t>(input.port)].name;
}

void Workflow::connect(std::string_view from_actor, std::string_view from_port,
                       std::string_view to_actor, std::string_view to_port,
                       SourceLocation location) {
  ActorId from = require(from_actor), to = require(to_actor);
  const Actor& producer = *actors_[from].actor;
  int out = producer.output_index(from_port);
  if (out < 0)
    throw WorkflowError("actor '" + std::string(from_actor) + "' has no output port '" +
                        std::string(from_port) + "' (outputs: " + port_list(producer.outputs()) +
                        ")");
  connect(Connection{{from, out}, {to, require_input(to, to_port)}, std::move(location)});
}

void Workflow::connect(std::string_view from_actor, std::string_view to_actor) {
  ActorId from = require(from_actor), to = require(to_actor);
  const Actor& producer = *actors_[from].actor;
  const Actor& consumer = *actors_[to].actor;
  if (producer.outputs().empty())
    throw WorkflowError("actor '" + std::string(from_actor) + "' has no output port");
  if (consumer.inputs().empty())
    throw WorkflowError("actor '" + std::string(to_actor) + "' has no input port");
  connect(from_actor, producer.outputs()[0].name, to_actor, consumer.inputs()[0].name);
}

void Workflow::connect(Connection connection) {
  for (const Connection& existing : connections_)
    if (existing.from == connection.from && existing.to == connection.to)
      throw WorkflowError("'" + actors_[connection.from.actor].name + "' is connected to '" +
                          actors_[connection.to.actor].name +
                          "' twice by the same ports (every event would arrive twice)");
  connections_.push_back(std::move(connection));
}

void Workflow::declare_window(PortWindow window) {
  // One window per port: every connection into the port feeds it, so a second declaration may
  // only repeat the first.
  if (const PortWindow* declared = this->window(window.port)) {
    if (declared->same_as(window)) return;
    const ActorEntry& owner = actors_[window.port.actor];
    throw WorkflowError(
        "input port '" + owner.actor->inputs()[static_cast<std::size_t>(window.port.port)].name +
        "' of '" + owner.name + "' has one window, declared at " + declared->location.to_string() +
        " as " + describe(*declared) + "; this declares " + describe(window));
  }
  windows_.push_back(std::move(window));
}

void Workflow::declare_window(std::string_view actor, std::string_view port, WindowSpec spec,
                              std::string_view expired_to) {
  ActorId id = require(actor);
  PortWindow window{{id, require_input(id, port)}, std::move(spec), std::nullopt, {}};
  if (!expired_to.empty()) {
    std::size_t dot = expired_to.find('.');
    ActorId handler = require(expired_to.substr(0, dot));
    if (dot != std::string_view::npos)
      window.expired_to = PortAddress{handler, require_input(handler, expired_to.substr(dot + 1))};
    else if (actors_[handler].actor->inputs().empty())
      throw WorkflowError("actor '" + actors_[handler].name + "' has no input port");
    else
      window.expired_to = PortAddress{handler, 0};
  }
  declare_window(std::move(window));
}

const PortWindow* Workflow::window(PortAddress port) const {
  for (const PortWindow& window : windows_)
    if (window.port == port) return &window;
  return nullptr;
}

void Workflow::respecify_window(PortAddress port, WindowSpec spec) {
  for (PortWindow& window : windows_)
    if (window.port == port) {
      window.spec = std::move(spec);
      return;
    }
  throw WorkflowError("input port '" + port_name(port) + "' has no window");
}

std::string Workflow::describe(const PortWindow& window) const {
  std::string out = window.spec.describe();
  if (window.expired_to) out += " with expired_to: " + port_name(*window.expired_to);
  return out;
}

}  // namespace cwf
