#include "actors/eca/broker_actor.hpp"
#include "actors/eca/site_ids_snapshot.hpp"

#include "actors/actor_type_util.hpp"
#include "actors/eca/occurrence_io.hpp"
#include "runtime/time/duration.hpp"

namespace cwf::eca {

void BrokerActor::save_state(SnapshotWriter& out, ActorContext&) {
  save_site_ids(out, *ids_);
}

void BrokerActor::restore_state(SnapshotReader& in, ActorContext&) {
  apply_site_ids(*ids_, read_site_ids(in));
}

BrokerActor::BrokerActor(std::string name, std::string site,
                         std::map<std::string, ServiceBehaviour> services)
    : Actor(kPorts),
      name_(std::move(name)),
      site_(std::move(site)),
      services_(services.begin(), services.end()),
      ids_(&site_ids(site_)) {}

void BrokerActor::fire(FiringContext& context) {
  for_each_occurrence(context, [&](const Value& request) {
    const Value& assigned = field(request, kAssigned);
    if (!assigned.is_string() || assigned.as_string() != name_) return;
    if (!occurrence_type(request).starts_with("REQ(")) return;
    std::string_view service = field(request, kService).as_string();
    auto it = services_.find(service);
    if (it == services_.end()) {
      context.report_error(name_ + " does not offer service '" + std::string(service) + "'");
      return;
    }
    const ServiceBehaviour& behaviour = it->second;
    bool failed = behaviour.exception_if && behaviour.exception_if->matches(request);
    OccurrenceSpec reply;
    reply.type = primitive_type_name(failed ? "EXC" : "RPL", service,
                                     failed ? behaviour.exception : behaviour.reply);
    reply.site = site_;
    reply.id = next_occurrence_id(*ids_);
    reply.time = occurrence_time(request) + behaviour.delay;
    reply.request = field(request, kRequest);
    reply.instance = field(request, kInstance);
    reply.broker = Value(name_);
    reply.params = behaviour.params ? behaviour.params->evaluate(request) : field(request, kParams);
    emit_occurrence(context, 0, make_occurrence(std::move(reply)));
  });
}

namespace {

std::map<std::string, ServiceBehaviour> parse_services(const Value& services) {
  if (!services.is_record() || services.slots().empty())
    throw ParamError("services",
                     "expected a map from service name to {reply, delay, params, "
                     "exception_if, exception}");
  std::map<std::string, ServiceBehaviour> out;
  for (std::size_t i = 0; i < services.slots().size(); ++i) {
    const std::string& name = services.schema()->fields()[i];
    const Value& spec = services.slots()[i];
    ServiceBehaviour b;
    auto where = [&](const std::string& key) { return "service '" + name + "', '" + key + "': "; };
    if (spec.is_record()) {
      for (std::size_t k = 0; k < spec.slots().size(); ++k) {
        const std::string& key = spec.schema()->fields()[k];
        const Value& v = spec.slots()[k];
        try {
          if (key == "reply" || key == "exception") {
            if (!v.is_string()) throw ParamError("services", where(key) + "expected a name");
            (key == "reply" ? b.reply : b.exception) = std::string(v.as_string());
          } else if (key == "delay") {
            // A number is seconds; out of range it would overflow the conversion (undefined
            // behaviour), and a negative delay would answer before the request.
            constexpr double kMaxSeconds = 1e9;  // about 31 years
            if (v.is_number()) {
              double seconds = v.as_double();
              if (!(seconds >= 0 && seconds <= kMaxSeconds))
                throw ParamError(
                    "services",
                    where(key) + "expected a delay between 0 and 1e9 seconds, got " + v.to_text());
              b.delay = static_cast<Duration>(seconds * 1e9);
            } else {
              b.delay = parse_duration(v.to_text());  // rejects a negative duration itself
            }
          } else if (key == "params" || key == "exception_if") {
            if (!v.is_string()) throw ParamError("services", where(key) + "expected an expression");
            (key == "params" ? b.params : b.exception_if) = Expression::compile(v.as_string());
          } else {
            throw ParamError("services", where(key) +
                                             "unknown key (expected reply, delay, params, "
                                             "exception_if, exception)");
          }
        } catch (const ExprError& e) {
          throw ParamError("services", where(key) + e.what());
        } catch (const std::invalid_argument& e) {
          throw ParamError("services", where(key) + e.what());
        }
      }
    } else if (!spec.is_null()) {
      throw ParamError("services", "service '" + name + "': expected a map or nothing");
    }
    out.emplace(name, std::move(b));
  }
  return out;
}

}  // namespace

ActorType broker_actor_type() {
  return actors::make_type(
      "eca_broker",
      "A simulated processing entity: answers the requests assigned to it with a reply after a "
      "simulated delay.",
      {{"name", ParamType::string, std::nullopt, "the broker's id, as in the rules' brokers"},
       {"site", ParamType::string, Value("s1"), "the site of its replies"},
       {"services", ParamType::any, std::nullopt,
        "service -> {reply: Outcome (Done), delay: 5 min, params: EXPR, exception_if: EXPR, "
        "exception: Name}"}},
      BrokerActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        return std::make_unique<BrokerActor>(params.get_string("name"), params.get_string("site"),
                                             parse_services(params.get("services")));
      });
}

}  // namespace cwf::eca
