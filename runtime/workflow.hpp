// A workflow as a graph: named actor instances and connections between their ports, plus the
// director configuration it asks for. A workflow is built (by code or by the YAML loader) and then
// handed to a director to run; it owns its actors.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/port.hpp"
#include "runtime/receiver.hpp"
#include "runtime/value.hpp"

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
  std::map<std::string, Value> parameters;  // policy-specific (basic_quantum_us, slice_us, ...)
};

using ReceiverFactory = std::function<std::unique_ptr<Receiver>()>;

struct ActorEntry {
  std::string name;
  std::string type;
  std::unique_ptr<Actor> actor;
  int priority = 20;  // lower is more important (used by priority schedulers)
  SourceLocation location;
};

struct Connection {
  PortAddress from;
  PortAddress to;
  ReceiverFactory receiver;  // empty: a FIFO queue
  std::string receiver_description = "fifo";
  SourceLocation location;
  std::optional<PortAddress> expired_to;  // where events expiring from the window go (CWP6)
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

  ActorId add(std::string name, std::unique_ptr<Actor> actor, std::string type = {},
              int priority = 20, SourceLocation location = {});
  template <typename T, typename... Args>
  ActorId emplace(std::string name, Args&&... args) {
    return add(std::move(name), std::make_unique<T>(std::forward<Args>(args)...));
  }

  // Ports by name; throws WorkflowError naming the actor and its ports when one does not exist.
  void connect(std::string_view from_actor, std::string_view from_port, std::string_view to_actor,
               std::string_view to_port, ReceiverFactory receiver = {},
               std::string receiver_description = "fifo", SourceLocation location = {});
  // `a -> b` between the first output of a and the first input of b.
  void connect(std::string_view from_actor, std::string_view to_actor);
  void connect(Connection connection);

  std::optional<ActorId> find(std::string_view name) const;
  const ActorEntry& actor(ActorId id) const { return actors_[id]; }
  ActorEntry& actor(ActorId id) { return actors_[id]; }
  std::size_t size() const { return actors_.size(); }
  const std::vector<ActorEntry>& actors() const { return actors_; }
  const std::vector<Connection>& connections() const { return connections_; }

 private:
  ActorId require(std::string_view name) const;

  std::string name_;
  DirectorConfig director_;
  std::string clock_;
  std::vector<ActorEntry> actors_;
  std::vector<Connection> connections_;
};

}  // namespace cwf
