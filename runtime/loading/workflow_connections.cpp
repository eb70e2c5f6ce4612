// The `connections:` section: `a -> b`, `a.port -> b.port` and {from: ..., to: ...} resolved
// to ports of the file's actors; a long-form connection's `window:` declares the window of the
// input port it feeds, its `capacity:` and `overload:` set its queue limits.
#include <algorithm>
#include <stdexcept>

#include "runtime/expressions/expr_error.hpp"

#include "runtime/loading/param_binding.hpp"
#include "runtime/loading/window_spec_parser.hpp"
#include "runtime/loading/workflow_parser.hpp"

namespace cwf::loader_detail {

namespace {
const std::vector<std::string> kConnectionKeys = {
    "from",         "to",        "window",         "capacity",    "overload",
    "partition_by", "broadcast", "broadcast_when", "partitioning"};
}  // namespace

void FileParser::parse_connections(const YamlEntry& entry) {
  if (entry.value.IsNull()) return;
  if (!entry.value.IsSequence())
    fail(value_location(entry),
         "expected a list of connections (- a -> b) for 'connections', got " +
             describe_yaml(entry.value));
  for (const YAML::Node& item : entry.value)
    parse_connection(item);
}

SourceLocation FileParser::location_in(const YAML::Node& scalar, std::size_t offset,
                                       std::size_t length) const {
  // The position of a part of a scalar, when the text between its start and the part is
  // verbatim (no escapes, no line breaks); else the scalar's own position.
  SourceLocation whole = yaml_location(scalar, file_);
  YAML::Mark mark = scalar.Mark();
  if (mark.pos < 0 || whole.line == 0) return whole;
  std::size_t start = static_cast<std::size_t>(mark.pos);
  if (start < text_.size() && (text_[start] == '"' || text_[start] == '\'')) ++start;
  std::string_view value = scalar.Scalar();
  std::string_view prefix = value.substr(0, std::min(value.size(), offset + length));
  if (text_.substr(start, prefix.size()) != prefix || prefix.find('\n') != std::string_view::npos)
    return whole;
  whole.column += static_cast<int>(start - static_cast<std::size_t>(mark.pos) + offset);
  return whole;
}

Endpoint FileParser::parse_endpoint(const YAML::Node& scalar, std::size_t offset,
                                    std::string_view text, const SourceLocation& whole) const {
  std::size_t skipped = 0;
  std::string_view end = trim(text, &skipped);
  offset += skipped;
  Endpoint out;
  std::size_t dot = end.find('.');
  std::string_view actor = end.substr(0, dot);
  out.actor = std::string(actor);
  out.actor_location = location_in(scalar, offset, actor.size());
  if (dot != std::string_view::npos) {
    std::string_view port = end.substr(dot + 1);
    out.port = std::string(port);
    out.port_location = location_in(scalar, offset + dot + 1, port.size());
  }
  if (!valid_name(out.actor) || (out.port && !valid_name(*out.port)))
    fail(whole,
         "malformed connection end '" + std::string(end) + "' (expected 'actor' or 'actor.port')");
  return out;
}

void FileParser::parse_connection(const YAML::Node& item) {
  SourceLocation where = yaml_location(item, file_);
  Endpoint from, to;
  if (item.IsScalar()) {
    std::string_view text = item.Scalar();
    std::size_t arrow = text.find("->");
    if (arrow == std::string_view::npos || text.find("->", arrow + 2) != std::string_view::npos ||
        trim(text.substr(0, arrow)).empty() || trim(text.substr(arrow + 2)).empty())
      fail(where, "malformed connection '" + std::string(text) +
                      "' (expected 'from -> to' or 'from.port -> to.port')");
    from = parse_endpoint(item, 0, text.substr(0, arrow), where);
    to = parse_endpoint(item, arrow + 2, text.substr(arrow + 2), where);
  } else if (item.IsMap()) {
    const YamlEntry* from_entry = nullptr;
    const YamlEntry* to_entry = nullptr;
    const YamlEntry* window_entry = nullptr;
    std::optional<std::uint64_t> capacity;
    std::optional<Overload> overload;
    Routing routing;
    std::vector<YamlEntry> entries = yaml_map_entries(item, file_);
    for (const YamlEntry& entry : entries) {
      if (entry.key == "from")
        from_entry = &entry;
      else if (entry.key == "to")
        to_entry = &entry;
      else if (entry.key == "window")
        window_entry = &entry;
      else if (entry.key == "partition_by")
        routing.partition_by = &entry;
      else if (entry.key == "broadcast")
        routing.broadcast = &entry;
      else if (entry.key == "broadcast_when")
        routing.broadcast_when = &entry;
      else if (entry.key == "partitioning")
        routing.partitioning = &entry;
      else if (!parse_queue_key(entry, capacity, overload))
        fail(key_location(entry), "unknown connection key '" + entry.key + "'" +
                                      suggest(entry.key, kConnectionKeys, "expected one of"));
    }
    if (!from_entry || !to_entry)
      fail(where, std::string("connection is missing '") + (from_entry ? "to" : "from") + "'");
    from = parse_endpoint(from_entry->value, 0, scalar(*from_entry, "'actor' or 'actor.port'"),
                          value_location(*from_entry));
    to = parse_endpoint(to_entry->value, 0, scalar(*to_entry, "'actor' or 'actor.port'"),
                        value_location(*to_entry));
    connect(from, to, where, window_entry, capacity, overload, routing);
    return;
  } else {
    fail(where, "expected a connection ('from -> to' or {from: ..., to: ...}), got " +
                    describe_yaml(item));
  }
  connect(from, to, where);
}

ActorId FileParser::resolve_actor(const Endpoint& end) const {
  const Workflow& workflow = *result_.workflow;
  if (auto id = workflow.find(end.actor)) return *id;
  std::vector<std::string> names;
  for (const ActorEntry& actor : workflow.actors())
    names.push_back(actor.name);
  fail(end.actor_location, "connection refers to unknown actor '" + end.actor + "'" +
                               suggest(end.actor, names, "actors"));
}

std::string replica_of(const std::string& actor, int index) {
  return actor + "[" + std::to_string(index) + "]";
}

std::vector<Endpoint> FileParser::replicas_of(const Endpoint& end) const {
  auto it = replicas_.find(end.actor);
  if (it == replicas_.end()) return {end};
  std::vector<Endpoint> replicas;
  for (int i = 0; i < it->second; ++i) {
    replicas.push_back(end);
    replicas.back().actor = replica_of(end.actor, i);
  }
  return replicas;
}

void FileParser::connect(const Endpoint& from, const Endpoint& to, const SourceLocation& where,
                         const YamlEntry* window, std::optional<std::uint64_t> capacity,
                         std::optional<Overload> overload, Routing routing) {
  const std::vector<Endpoint> senders = replicas_of(from);
  const std::vector<Endpoint> receivers = replicas_of(to);
  bool broadcast = false;
  if (routing.broadcast) {
    const YAML::Node& value = routing.broadcast->value;
    bool parsed = false;
    if (!value.IsScalar() || !YAML::convert<bool>::decode(value, parsed))
      fail(value_location(*routing.broadcast),
           "expected true or false for 'broadcast', got " + describe_yaml(value));
    broadcast = parsed;
  }
  if (routing.partition_by && broadcast)
    fail(key_location(*routing.broadcast),
         "a connection either partitions (partition_by) or broadcasts, not both");
  if (routing.broadcast_when && !routing.partition_by)
    fail(key_location(*routing.broadcast_when),
         "broadcast_when sends some of the events a partition_by connection shares to every "
         "replica: it needs partition_by (or broadcast: true for all of them)");
  if (routing.partitioning && !routing.partition_by)
    fail(key_location(*routing.partitioning),
         "partitioning says how partition_by's key picks a replica: it needs partition_by");
  if (receivers.size() == 1) {
    if (routing.partition_by || broadcast)
      fail(key_location(routing.partition_by ? *routing.partition_by : *routing.broadcast),
           "'" + to.actor +
               "' runs as one actor: partition_by and broadcast share events among the replicas "
               "of an actor with parallelism");
    for (const Endpoint& sender : senders)
      connect_one(sender, to, where, window, capacity, overload);
    return;
  }
  if (broadcast) {
    for (const Endpoint& sender : senders)
      for (const Endpoint& receiver : receivers)
        connect_one(sender, receiver, where, window, capacity, overload);
    return;
  }
  if (!routing.partition_by) {
    if (senders.size() == receivers.size() && replicas_.count(from.actor)) {
      // Replica to replica: what a key's replica sent stays with the key's replica (both
      // partitioned alike upstream).
      for (std::size_t i = 0; i < senders.size(); ++i)
        connect_one(senders[i], receivers[i], where, window, capacity, overload);
      return;
    }
    fail(where, "'" + to.actor + "' runs as " + std::to_string(receivers.size()) +
                    " replicas: say how they share the events of '" + from.actor +
                    "': partition_by: KEY (each key to one replica) or broadcast: true (every "
                    "event to every replica)");
  }
  // Each sending replica applies the rule as it emits: an event crosses to another replica's
  // worker only where its key says so, and without a hop through an actor of its own. One rule
  // per sender, each with its own compiled key (whose field-slot cache would otherwise be shared
  // between threads).
  const std::string connection = from.actor + " -> " + to.actor;
  for (const Endpoint& sender : senders) {
    std::shared_ptr<const RouteRule> rule = route_rule(routing, receivers.size(), connection);
    for (std::size_t i = 0; i < receivers.size(); ++i)
      connect_one(sender, receivers[i], where, window, capacity, overload, rule,
                  static_cast<int>(i));
  }
}

std::shared_ptr<const RouteRule> FileParser::route_rule(const Routing& routing,
                                                        std::size_t receivers,
                                                        const std::string& connection) const {
  auto invalid = [&](const YamlEntry& entry, const std::string& problem) {
    return "invalid '" + entry.key + "' of the connection " + connection + ": " + problem;
  };
  auto compile = [&](const YamlEntry& entry) {
    const std::string text = scalar(entry, "an expression");
    try {
      return Expression::compile(text);
    } catch (const ExprError& e) {
      fail(value_location(entry), invalid(entry, e.what()));
    }
  };
  RouteRule::How how = RouteRule::How::hash;
  if (routing.partitioning) {
    try {
      how = RouteRule::how_named(scalar(*routing.partitioning, "hash or modulo"));
    } catch (const std::invalid_argument& e) {
      fail(value_location(*routing.partitioning), invalid(*routing.partitioning, e.what()));
    }
  }
  std::optional<Expression> broadcast_when;
  if (routing.broadcast_when) broadcast_when = compile(*routing.broadcast_when);
  return std::make_shared<const RouteRule>(
      compile(*routing.partition_by), static_cast<int>(receivers), how, std::move(broadcast_when));
}

std::string FileParser::target_input_name(const Endpoint& end) const {
  const ActorEntry& target = result_.workflow->actor(resolve_actor(end));
  return target.actor->inputs().empty() ? "in" : target.actor->inputs().front().name;
}

void FileParser::connect_one(const Endpoint& from, const Endpoint& to, const SourceLocation& where,
                             const YamlEntry* window, std::optional<std::uint64_t> capacity,
                             std::optional<Overload> overload,
                             std::shared_ptr<const RouteRule> route, int route_receiver) {
  Workflow& workflow = *result_.workflow;
  ActorId producer = resolve_actor(from);
  ActorId consumer = resolve_actor(to);
  const ActorEntry& source = workflow.actor(producer);
  const ActorEntry& target = workflow.actor(consumer);
  auto is = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  if (is(result_.outputs, from.actor))
    fail(from.actor_location, "'" + from.actor +
                                  "' is an output of the sub-workflow: connections go into it, "
                                  "not out of it");
  if (is(result_.inputs, to.actor))
    fail(to.actor_location, "'" + to.actor +
                                "' is an input of the sub-workflow: connections go out of it, "
                                "not into it");

  int out = 0;
  if (from.port) {
    out = source.actor->output_index(*from.port);
    if (out < 0)
      fail(from.port_location, "actor '" + from.actor + "' has no output port '" + *from.port +
                                   "' (outputs: " + join(source.actor->outputs()) + ")");
  } else if (source.actor->outputs().empty()) {
    fail(from.actor_location, "actor '" + from.actor + "' has no output port");
  }
  int in = 0;
  if (to.port) {
    in = target.actor->input_index(*to.port);
    if (in < 0)
      fail(to.port_location, "actor '" + to.actor + "' has no input port '" + *to.port +
                                 "' (inputs: " + join(target.actor->inputs()) + ")");
  } else if (target.actor->inputs().empty()) {
    fail(to.actor_location, "actor '" + to.actor + "' has no input port");
  }
  try {
    workflow.connect(Connection{{producer, out},
                                {consumer, in},
                                where,
                                capacity,
                                overload,
                                std::move(route),
                                route_receiver});
  } catch (const WorkflowError& e) {
    fail(where, e.what());
  }
  if (window) declare_window({consumer, in}, *window);
}

void FileParser::declare_window(PortAddress port, const YamlEntry& entry) {
  Workflow& workflow = *result_.workflow;
  std::optional<YamlEntry> expired_entry;
  PortWindow window{port, parse_window_spec(entry, file_, &expired_entry), std::nullopt,
                    key_location(entry)};
  if (expired_entry) {
    Endpoint end =
        parse_endpoint(expired_entry->value, 0, scalar(*expired_entry, "'actor' or 'actor.port'"),
                       value_location(*expired_entry));
    ActorId id = resolve_actor(end);
    const ActorEntry& handler = workflow.actor(id);
    if (std::find(result_.inputs.begin(), result_.inputs.end(), end.actor) != result_.inputs.end())
      fail(end.actor_location, "'" + end.actor +
                                   "' is an input of the sub-workflow: expired events cannot "
                                   "go into it");
    int input = 0;
    if (end.port) {
      input = handler.actor->input_index(*end.port);
      if (input < 0)
        fail(end.port_location, "actor '" + end.actor + "' has no input port '" + *end.port +
                                    "' (inputs: " + join(handler.actor->inputs()) + ")");
    } else if (handler.actor->inputs().empty()) {
      fail(end.actor_location, "actor '" + end.actor + "' has no input port");
    }
    window.expired_to = PortAddress{id, input};
  }
  try {
    workflow.declare_window(std::move(window));
  } catch (const WorkflowError& e) {
    fail(key_location(entry), e.what());
  }
}

}  // namespace cwf::loader_detail
