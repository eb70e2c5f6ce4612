#include "actors/eca/rules_actor.hpp"

#include "actors/actor_type_util.hpp"
#include "actors/eca/occurrence_io.hpp"
#include "runtime/loading/load_error.hpp"

namespace cwf::eca {

void RulesActor::save_state(SnapshotWriter& out, ActorContext&) {
  engine_.save(out);
}

void RulesActor::restore_state(SnapshotReader& in, ActorContext&) {
  engine_.restore(in);
}

namespace {
constexpr int kNotify = 0, kHistory = 1;
}

RulesActor::RulesActor(RuleSet rules, std::string name)
    : Actor(kPorts), engine_(std::move(rules), std::move(name)) {}

void RulesActor::fire(FiringContext& context) {
  auto send = [&](int port) {
    return
        [&context, port](const Value& occurrence) { emit_occurrence(context, port, occurrence); };
  };
  RuleEngine::Sinks sinks{send(kHistory), send(kNotify), [&context](const std::string& message) {
                            context.report_error(message);
                          }};
  for_each_occurrence(context,
                      [&](const Value& occurrence) { engine_.process(occurrence, sinks); });
}

ActorType rules_actor_type() {
  return actors::make_type(
      "eca_rules",
      "ECA rules over composite events (EVE): fires the rules of a rules file after each "
      "detection cycle, raises events and assigns requests to brokers.",
      {{"rules", ParamType::any, std::nullopt,
        "the rules file (YAML: site, brokers, rules; see docs/eca.md), relative to the "
        "workflow file's folder, or the same map written here"},
       {"name", ParamType::string, Value("EVE"), "broker id of the occurrences it raises"}},
      RulesActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        const Value& given = params.get("rules");
        RuleSet rules;
        if (given.is_string()) {
          rules = load_rule_set(params.path("rules"));
        } else if (given.is_record()) {
          // Written inline: JSON is YAML, so the rules file's parser reads the map as it is;
          // mistakes are reported at the parameter.
          try {
            rules = parse_rule_set(given.to_json(), "rules");
          } catch (const LoadError& e) {
            throw ParamError("rules", e.message());
          }
        } else {
          throw ParamError("rules", "expected a rules file name or a map with 'rules'");
        }
        return std::make_unique<RulesActor>(std::move(rules), params.get_string("name"));
      });
}

}  // namespace cwf::eca
