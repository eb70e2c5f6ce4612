// Internals of the workflow loader shared by its source files: the per-file parser, the loader
// that follows sub-workflow includes, and small text helpers. Not a public interface.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/loading/workflow_loader.hpp"

namespace cwf::loader_detail {

std::string join(const std::vector<std::string>& items);
std::string join(std::span<const PortSpec> ports);  // "none" when empty
// "; did you mean 'x'?" when a candidate is close enough, else "; <label>: a, b, c".
std::string suggest(std::string_view word, const std::vector<std::string>& candidates,
                    std::string_view label);
// Actor and port names: letters, digits, '_' and '-' (so that `a.port -> b` parses).
bool valid_name(std::string_view name);
// Without spaces and tabs around; `removed_front` receives how many were cut at the front.
std::string_view trim(std::string_view s, std::size_t* removed_front = nullptr);
std::optional<std::string> read_text_file(const std::filesystem::path& path, std::string& error);
// The canonical path of a file, to recognise it however it is named (include cycles).
std::string identity_of(const std::filesystem::path& path);

// What one file holds.
struct Parsed {
  std::unique_ptr<Workflow> workflow;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::optional<DirectorConfig> director;  // as written in the file
  SourceLocation director_location;
};

// The name of replica `index` of an actor with `parallelism` (e.g. "tolls[2]"): not a name a file
// can give an actor, so it names no other.
std::string replica_of(const std::string& actor, int index);
constexpr int kMaxParallelism = 1024;

// How a connection into an actor with parallelism shares its events among the replicas.
struct Routing {
  const YamlEntry* partition_by = nullptr;  // each key to one replica, by its hash
  const YamlEntry* broadcast = nullptr;     // `broadcast: true`: every event to every replica
  // With partition_by: the events for which it holds go to every replica, in their place.
  const YamlEntry* broadcast_when = nullptr;
  // With partition_by: `hash` (the default) or `modulo` (the key is the replica's number).
  const YamlEntry* partitioning = nullptr;
};

// One end of a connection as written: `actor` or `actor.port`.
struct Endpoint {
  std::string actor;
  std::optional<std::string> port;
  SourceLocation actor_location;
  SourceLocation port_location;
};

class Loader;

// Reads one file into a Workflow; sub-workflows go back through the Loader.
class FileParser {
 public:
  FileParser(Loader& loader, std::string_view text, std::string file, std::string base_dir,
             bool sub)
      : loader_(loader),
        text_(text),
        file_(std::move(file)),
        base_dir_(std::move(base_dir)),
        sub_(sub) {}

  Parsed parse();

 private:
  [[noreturn]] void fail(const SourceLocation& where, std::string message) const {
    throw LoadError(where, std::move(message));
  }
  SourceLocation key_location(const YamlEntry& entry) const {
    return cwf::key_location(entry, file_);
  }
  SourceLocation value_location(const YamlEntry& entry) const {
    return cwf::value_location(entry, file_);
  }
  std::string scalar(const YamlEntry& entry, std::string_view expected) const;
  int integer(const YamlEntry& entry, int minimum, std::string_view expected) const;

  void parse_top_level(const YAML::Node& root);
  // `placement:`: which process runs which actor (runtime/graph/process_placement.hpp).
  void parse_placement(const YamlEntry& entry);
  DirectorConfig parse_director(const YamlEntry& entry) const;
  std::vector<std::string> parse_boundary(const YamlEntry& entry, bool inputs);
  // `kind`: actor, input or output (all share one namespace).
  void define(const std::string& name, const SourceLocation& where, std::string_view kind);
  void parse_actors(const YamlEntry& entry);
  void parse_actor(const YamlEntry& entry);
  void add_typed_actor(const std::string& name, const SourceLocation& where,
                       const std::vector<YamlEntry>& entries);
  void add_subworkflow(const std::string& name, const SourceLocation& where,
                       const std::vector<YamlEntry>& entries);
  // Queue limits (runtime/loading/queue_limits_parser.cpp): `capacity` (a positive int or
  // unbounded) and `overload` (block, drop_newest, drop_oldest, sample) of a connection or of the
  // workflow's `queues:` defaults.
  std::uint64_t parse_capacity(const YamlEntry& entry) const;
  Overload parse_overload_policy(const YamlEntry& entry) const;
  // Takes `entry` if it is one of the two keys; false otherwise.
  bool parse_queue_key(const YamlEntry& entry, std::optional<std::uint64_t>& capacity,
                       std::optional<Overload>& overload) const;
  QueueLimits parse_queues(const YamlEntry& entry) const;
  void parse_connections(const YamlEntry& entry);
  void parse_connection(const YAML::Node& item);
  Endpoint parse_endpoint(const YAML::Node& scalar, std::size_t offset, std::string_view text,
                          const SourceLocation& whole) const;
  SourceLocation location_in(const YAML::Node& scalar, std::size_t offset,
                             std::size_t length) const;
  ActorId resolve_actor(const Endpoint& end) const;
  // `window` (a `window:` entry) declares the window of the input port the connection feeds.
  // An actor with parallelism is its replicas: a connection from it leaves every replica; one
  // into it is shared as `routing` says (for `partition_by`, a connection from each sending
  // replica to each receiving one, of one RouteRule), or, between two actors with the same
  // parallelism, goes replica to replica.
  void connect(const Endpoint& from, const Endpoint& to, const SourceLocation& where,
               const YamlEntry* window = nullptr, std::optional<std::uint64_t> capacity = {},
               std::optional<Overload> overload = {}, Routing routing = {});
  // The rule of a `partition_by` connection among `receivers` replicas, from its keys; mistakes
  // are reported at them, naming `connection`.
  std::shared_ptr<const RouteRule> route_rule(const Routing& routing, std::size_t receivers,
                                              const std::string& connection) const;
  // One connection between two actors of the workflow (replicas named as such); with `route`,
  // receiver `route_receiver` of that rule.
  void connect_one(const Endpoint& from, const Endpoint& to, const SourceLocation& where,
                   const YamlEntry* window, std::optional<std::uint64_t> capacity,
                   std::optional<Overload> overload,
                   std::shared_ptr<const RouteRule> route = nullptr, int route_receiver = -1);
  // The actor (replicas: their names) an endpoint stands for.
  std::vector<Endpoint> replicas_of(const Endpoint& end) const;
  // The first input port's name of the actor `end` names ("in" when it has none).
  std::string target_input_name(const Endpoint& end) const;
  // Declares the window of `port` from a `window:` entry; its `expired_to` names the actor.port
  // that receives the events expiring from it. A different window already declared on the port
  // is an error at this entry that names the other one's place.
  void declare_window(PortAddress port, const YamlEntry& entry);

  Loader& loader_;
  std::string_view text_;
  std::string file_;
  std::string base_dir_;
  bool sub_;
  Parsed result_;
  std::map<std::string, std::pair<SourceLocation, std::string>> defined_;  // name -> where, kind
  std::map<std::string, int> replicas_;  // actors with parallelism > 1: name -> replicas
};

// Loads files, keeping the chain of files being included to detect include cycles.
class Loader {
 public:
  Loader(const LoadContext& context, const std::vector<ParamOverride>& overrides = {})
      : context_(context), overrides_(overrides) {}

  const LoadContext& context() const { return context_; }

  // `file` names the text in errors; `identity` is its canonical path ("" when not a file).
  Parsed load(std::string_view text, const std::string& file, const std::string& base_dir,
              const std::string& identity, bool sub);

  // Checks every override against the actors of the top-level file as written (`actors`, the
  // entries of its `actors:` map), before any actor is built: building one may open the very
  // file an override was meant to replace. Throws LoadError for an override naming no actor, a
  // sub-workflow actor, or a parameter its actor's type does not have.
  void check_overrides(const std::vector<YamlEntry>& actors, const std::string& file) const;
  // Adds the overrides for top-level actor `actor` to its entries, replacing those written in
  // the file; `set` receives the parameters set, each with its ParamOverride::base_dir (they
  // were checked before).
  void apply_overrides(const std::string& actor, std::vector<YamlEntry>& entries,
                       std::map<std::string, std::string>& set) const;

  // Sets the window fields the overrides name (ACTOR.PORT.window.FIELD) on the windows declared
  // in the top-level file. Throws LoadError for a port the actor does not have, a port without a
  // window, or a field or value the window cannot take.
  void apply_window_overrides(Workflow& workflow) const;

  // The include chain ending in `identity` ("a.yaml -> b.yaml -> a.yaml"), if it is one.
  std::optional<std::string> cycle(const std::string& identity, const std::string& file) const;

 private:
  struct Included {
    std::string identity;  // canonical path
    std::string file;      // as named in errors
  };
  const LoadContext& context_;
  const std::vector<ParamOverride>& overrides_;
  std::vector<Included> stack_;
};

}  // namespace cwf::loader_detail
