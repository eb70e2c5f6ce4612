// A workflow as a graph: named actor instances, connections between their ports, the windows
// declared on input ports, plus the director configuration it asks for. A workflow is built (by
// code or by the YAML loader) and then handed to a director to run; it owns its actors.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/actor/actor.hpp"
#include "runtime/actor/port.hpp"
#include "runtime/graph/queue_limits.hpp"
#include "runtime/graph/route_rule.hpp"
#include "runtime/values/value.hpp"
#include "runtime/windows/window_spec.hpp"

namespace cwf {

// Where something was written, for error messages ("file:line:column").
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string to_string() const;
};

// What the workflow asks to be run with; the command line may override it.
struct DirectorConfig {
  std::string type = "scheduled";  // scheduled | threaded
  std::string scheduler = "fifo";
  unsigned workers = 0;  // scheduled director threads; 0: one per hardware thread
  // On several workers, go on with one while it is measured to get more done (WorkerGovernor).
  bool adapt_workers = true;
  std::map<std::string, Value> parameters;  // policy-specific (basic_quantum_us, slice_us, ...)
};

struct ActorEntry {
  std::string name;
  std::string type;
  std::unique_ptr<Actor> actor;
  int priority = 20;  // lower is more important (used by priority schedulers)
  SourceLocation location;
};

// Events from an output port to an input port. Every connection into one input port feeds the
// same queue: the port's window if one is declared (PortWindow), else a FIFO queue.
struct Connection {
  PortAddress from;
  PortAddress to;
  SourceLocation location;
  // What the connection may hold (QueueLimits); not set: the workflow's default.
  std::optional<std::uint64_t> capacity = std::nullopt;
  std::optional<Overload> overload = std::nullopt;
  // With `partition_by`: the connection is receiver `route_receiver` of `route`; its sender's cell
  // puts an event on it only when the rule picks that receiver (or every receiver). The
  // connections of one rule leave from one output port.
  std::shared_ptr<const RouteRule> route = nullptr;
  int route_receiver = -1;
};

// The window operator declared on an input port, shared by every connection into it. A port
// without one is a FIFO queue (one event per firing): those are the only two kinds of port.
struct PortWindow {
  PortAddress port;  // the input port it is on
  WindowSpec spec;
  std::optional<PortAddress> expired_to;  // where events expiring from the window go (CWP6)
  SourceLocation location;                // where it was declared (not part of its identity)

  // The same window: same spec (group_by by source text) and the same expired route.
  bool same_as(const PortWindow& other) const {
    return port == other.port && spec == other.spec && expired_to == other.expired_to;
  }
};

class WorkflowError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Workflow {
 public:
  explicit Workflow(std::string name = "workflow") : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  DirectorConfig& director() { return director_; }
  const DirectorConfig& director() const { return director_; }
  // The clock the file asks for (`clock: real | virtual`); empty: the runner's default.
  const std::string& clock() const { return clock_; }
  void set_clock(std::string clock) { clock_ = std::move(clock); }
  // Which process runs which actor when the workflow runs over several (`placement:` in the
  // file, runtime/graph/process_placement.hpp): actor or replica names to process numbers.
  const std::map<std::string, int>& placement() const { return placement_; }
  void set_placement(std::map<std::string, int> placement) { placement_ = std::move(placement); }
  // The queue limits of connections that set none (`queues:` in the file).
  const QueueLimits& queue_defaults() const { return queue_defaults_; }
  void set_queue_defaults(QueueLimits limits) { queue_defaults_ = limits; }
  // A connection's own limits where it sets them, else the workflow's.
  QueueLimits limits_of(const Connection& connection) const {
    return {connection.capacity.value_or(queue_defaults_.capacity),
            connection.overload.value_or(queue_defaults_.overload)};
  }

  ActorId add(std::string name, std::unique_ptr<Actor> actor, std::string type = {},
              int priority = 20, SourceLocation location = {});
  template <typename T, typename... Args>
  ActorId emplace(std::string name, Args&&... args) {
    return add(std::move(name), std::make_unique<T>(std::forward<Args>(args)...));
  }

  // Ports by name; throws WorkflowError naming the actor and its ports when one does not exist.
  void connect(std::string_view from_actor, std::string_view from_port, std::string_view to_actor,
               std::string_view to_port, SourceLocation location = {});
  // `a -> b` between the first output of a and the first input of b.
  void connect(std::string_view from_actor, std::string_view to_actor);
  void connect(Connection connection);

  // Puts a window on an input port (whether connected yet or not). Declaring the same window
  // again (PortWindow::same_as) is accepted; a different one throws WorkflowError naming where
  // the first was declared.
  void declare_window(PortWindow window);
  // By names; `expired_to` is "actor" (its first input) or "actor.port".
  void declare_window(std::string_view actor, std::string_view port, WindowSpec spec,
                      std::string_view expired_to = {});
  // The window on an input port; null: the port is a FIFO queue.
  const PortWindow* window(PortAddress port) const;
  // Replaces the spec of the window on `port` (declared before): `cwf run --set
  // ACTOR.PORT.window.FIELD=VALUE`.
  void respecify_window(PortAddress port, WindowSpec spec);
  // Text for people (graph labels, messages): the spec, and its expired route if any.
  std::string describe(const PortWindow& window) const;

  std::optional<ActorId> find(std::string_view name) const;
  const ActorEntry& actor(ActorId id) const { return actors_[id]; }
  ActorEntry& actor(ActorId id) { return actors_[id]; }
  std::size_t size() const { return actors_.size(); }
  const std::vector<ActorEntry>& actors() const { return actors_; }
  const std::vector<Connection>& connections() const { return connections_; }
  const std::vector<PortWindow>& windows() const { return windows_; }

 private:
  ActorId require(std::string_view name) const;
  int require_input(ActorId actor, std::string_view port) const;
  std::string port_name(PortAddress input) const;  // "actor.port"

  std::string name_;
  DirectorConfig director_;
  std::string clock_;
  std::map<std::string, int> placement_;
  QueueLimits queue_defaults_;
  std::vector<ActorEntry> actors_;
  std::vector<Connection> connections_;
  std::vector<PortWindow> windows_;
};

}  // namespace cwf
