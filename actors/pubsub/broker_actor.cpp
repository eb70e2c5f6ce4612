#include "actors/pubsub/broker_actor.hpp"

#include <algorithm>

#include "actors/actor_type_util.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::pubsub {

namespace {

// `{client: filter, ...}`, a parameter written as a YAML map.
std::vector<std::pair<std::string, Filter>> read_presets(const Params& params,
                                                         std::string_view name) {
  std::vector<std::pair<std::string, Filter>> out;
  if (!actors::is_set(params, name)) return out;
  const Value& map = params.get(name);
  if (!map.is_record())
    throw ParamError(std::string(name),
                     "expected a map from client names to filters, e.g. {alice: [[price, \"<\", "
                     "10]]}, got " +
                         map.to_json());
  auto clients = map.schema()->fields();
  auto filters = map.slots();
  for (std::size_t i = 0; i < clients.size(); ++i) {
    try {
      out.emplace_back(clients[i], Filter::parse(filters[i]));
    } catch (const FilterError& e) {
      throw ParamError(std::string(name), clients[i] + ": " + e.what());
    }
  }
  return out;
}

bool valid_port_suffix(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

}  // namespace

BrokerActor::BrokerActor(std::vector<std::string> neighbours)
    : Actor(kPorts),
      broker_(static_cast<int>(neighbours.size())),
      neighbours_(std::move(neighbours)),
      subscribe_(input_index("subscribe")),
      unsubscribe_(input_index("unsubscribe")),
      advertise_(input_index("advertise")),
      unadvertise_(input_index("unadvertise")),
      publish_(input_index("publish")),
      ops_(input_index("ops")),
      peers_(input_index("peers")),
      deliveries_(output_index("deliveries")),
      rejected_(output_index("rejected")) {
  for (const std::string& n : neighbours_)
    neighbour_ports_.push_back(add_family_output(kToNeighbour, n));
}

void BrokerActor::preset(const std::vector<std::pair<std::string, Filter>>& subscriptions,
                         const std::vector<std::pair<std::string, Filter>>& advertisements) {
  for (const auto& [publisher, filter] : advertisements)
    broker_.advertise({publisher, ""}, filter, out_);
  for (const auto& [subscriber, filter] : subscriptions)
    broker_.subscribe({subscriber, ""}, filter, out_);
  out_.clear();  // no neighbours: nothing to send
}

void BrokerActor::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    try {
      handle(context, event.token);
    } catch (const FilterError& e) {
      context.report_error(e.what());
    }
    flush(context);
  }
}

void BrokerActor::save_state(SnapshotWriter& out, ActorContext&) {
  broker_.save(out);
}

void BrokerActor::restore_state(SnapshotReader& in, ActorContext&) {
  broker_.restore(in);
}

void BrokerActor::handle(FiringContext& context, const Value& token) {
  using Kind = ClientOperation::Kind;
  int port = context.port();
  if (port == peers_) {
    std::string from;
    BrokerMessage message = read_overlay_record(token, from);
    auto at = std::find(neighbours_.begin(), neighbours_.end(), from);
    if (at == neighbours_.end())
      throw FilterError("peers: a message from '" + from + "', which is not a neighbour of '" +
                        context.name() + "'");
    if (!broker_.receive(static_cast<Hop>(at - neighbours_.begin()), message, out_))
      throw FilterError("peers: broker '" + from +
                        "' sent a message that does not fit the routing state: " + token.to_json());
    return;
  }
  if (port == ops_) return apply(context, read_any_client_operation(token));
  Kind kind = port == subscribe_     ? Kind::subscribe
              : port == unsubscribe_ ? Kind::unsubscribe
              : port == advertise_   ? Kind::advertise
              : port == unadvertise_ ? Kind::unadvertise
                                     : Kind::publish;
  apply(context, read_client_operation(kind, token));
}

void BrokerActor::apply(FiringContext& context, const ClientOperation& op) {
  using Kind = ClientOperation::Kind;
  auto who = [&] { return op.key.client + (op.key.id.empty() ? "" : " (id " + op.key.id + ")"); };
  switch (op.kind) {
    case Kind::subscribe:
      if (!broker_.subscribe(op.key, op.filter, out_))
        throw FilterError("subscribe: subscriber '" + op.key.client +
                          "' is attached to another broker of the overlay");
      return;
    case Kind::unsubscribe:
      if (!broker_.unsubscribe(op.key, out_))
        throw FilterError("unsubscribe: no subscription of " + who());
      return;
    case Kind::advertise:
      if (!broker_.advertise(op.key, op.filter, out_))
        throw FilterError("advertise: publisher '" + op.key.client +
                          "' is attached to another broker of the overlay");
      return;
    case Kind::unadvertise:
      if (!broker_.unadvertise(op.key, out_))
        throw FilterError("unadvertise: no advertisement of " + who());
      return;
    case Kind::publish:
      if (!broker_.publish(op.publication, out_)) {
        if (context.connected(rejected_)) context.emit(rejected_, op.publication);
        throw FilterError("publish: no advertisement made at this broker matches " +
                          op.publication.to_json());
      }
      return;
  }
}

void BrokerActor::flush(FiringContext& context) {
  for (const Forward& f : out_.forwards)
    context.emit(neighbour_ports_[f.neighbour], overlay_record(f.message, context.name()));
  for (const Delivery& d : out_.deliveries)
    context.emit(deliveries_, delivery_record(d));
  out_.clear();
}

ActorType broker_type() {
  return actors::make_type(
      "broker",
      "A content-based publish/subscribe broker; with neighbours, one node of a broker overlay.",
      {{"neighbours", ParamType::strings, Value::array(std::vector<Value>{}),
        "names of the neighbour broker actors; each gets an output port to_<name>, to be "
        "connected to that broker's `peers` input (the overlay must be a tree)"},
       {"subscriptions", ParamType::any, Value(),
        "subscriptions the broker starts with, {subscriber: filter, ...}; without neighbours only"},
       {"advertisements", ParamType::any, Value(),
        "advertisements the broker starts with, {publisher: filter, ...}; without neighbours "
        "only"}},
      BrokerActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::vector<std::string> neighbours = params.get_strings("neighbours");
        for (std::size_t i = 0; i < neighbours.size(); ++i) {
          if (!valid_port_suffix(neighbours[i]))
            throw ParamError("neighbours", "'" + neighbours[i] +
                                               "' is not an actor name (letters, digits, _ and -)");
          for (std::size_t j = 0; j < i; ++j)
            if (neighbours[j] == neighbours[i])
              throw ParamError("neighbours", "'" + neighbours[i] + "' is listed twice");
        }
        auto subscriptions = read_presets(params, "subscriptions");
        auto advertisements = read_presets(params, "advertisements");
        for (const char* preset : {"subscriptions", "advertisements"})
          if (!neighbours.empty() && actors::is_set(params, preset))
            throw ParamError(preset, "only a broker without neighbours starts with " +
                                         std::string(preset) +
                                         "; in an overlay, send them to its ports");
        auto broker = std::make_unique<BrokerActor>(std::move(neighbours));
        broker->preset(subscriptions, advertisements);
        return broker;
      });
}

}  // namespace cwf::pubsub
