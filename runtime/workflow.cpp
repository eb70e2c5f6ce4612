#include "runtime/workflow.hpp"

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

void Workflow::connect(std::string_view from_actor, std::string_view from_port,
                       std::string_view to_actor, std::string_view to_port,
                       ReceiverFactory receiver, std::string receiver_description,
                       SourceLocation location) {
  ActorId from = require(from_actor), to = require(to_actor);
  const Actor& producer = *actors_[from].actor;
  const Actor& consumer = *actors_[to].actor;
  int out = producer.output_index(from_port);
  if (out < 0)
    throw WorkflowError("actor '" + std::string(from_actor) + "' has no output port '" +
                        std::string(from_port) + "' (outputs: " + port_list(producer.outputs()) +
                        ")");
  int in = consumer.input_index(to_port);
  if (in < 0)
    throw WorkflowError("actor '" + std::string(to_actor) + "' has no input port '" +
                        std::string(to_port) + "' (inputs: " + port_list(consumer.inputs()) + ")");
  connect(Connection{{from, out},
                     {to, in},
                     std::move(receiver),
                     std::move(receiver_description),
                     std::move(location),
                     std::nullopt});
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
  // All connections into one input port share its receiver, so they must agree on the window.
  for (const Connection& existing : connections_) {
    if (existing.from == connection.from && existing.to == connection.to)
      throw WorkflowError("'" + actors_[connection.from.actor].name + "' is connected to '" +
                          actors_[connection.to.actor].name +
                          "' twice by the same ports (every event would arrive twice)");
    if (existing.to == connection.to &&
        existing.receiver_description != connection.receiver_description)
      throw WorkflowError("input port '" +
                          actors_[connection.to.actor]
                              .actor->inputs()[static_cast<std::size_t>(connection.to.port)]
                              .name +
                          "' of '" + actors_[connection.to.actor].name +
                          "' is connected twice with different windows (" +
                          existing.receiver_description + " and " +
                          connection.receiver_description + ")");
  }
  connections_.push_back(std::move(connection));
}

}  // namespace cwf
