// Every registered actor type documents its ports (ActorType::ports, what `cwf actors` and the
// docs show) and its actors declare them (Actor::inputs/outputs, what connections are checked
// against). Both come from one declaration (the actor class's kPorts); this checks, for every type
// of every library, that the actors it builds declare exactly those ports: the fixed ones in
// order, and for each family of ports made from parameters (`to_<neighbour>`) members only, at
// least one with the sample parameters here.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "cli/registries.hpp"

namespace cwf::cli {
namespace {

// A value of the parameter's type, for required parameters the test must supply.
Value sample(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::boolean:
      return false;
    case ParamType::integer:
      return 1;
    case ParamType::real:
      return 1.0;
    case ParamType::duration:
      return std::int64_t{1000000000};
    case ParamType::expression:
      return "/x";
    case ParamType::strings:
      return Value::array({Value("x")});
    case ParamType::any:
      return Value::record({});
    case ParamType::string:
      break;
  }
  return "x";
}

const std::string kExamples = std::string(CWF_SOURCE_DIR) + "/workflows/";

// Required parameters whose generic sample the factory would refuse: taken from shipped
// workflows.
const std::map<std::string, std::map<std::string, Value>> kSpecific = {
    {"aggregate", {{"function", "count"}}},
    {"csv_source", {{"path", kExamples + "examples/data/sensors.csv"}}},
    {"jsonl_source", {{"path", kExamples + "examples/patterns/data/orders.jsonl"}}},
    {"lr_source", {{"path", kExamples + "examples/patterns/data/orders.jsonl"}}},
    {"eca_broker", {{"services", Value::record({{"HIC", Value::record({})}})}}},
    {"eca_detector", {{"events", Value::array({Value("CON(RPL(SW1.Done), RPL(SW2.Done))")})}}},
    {"eca_raise", {{"event", "REQ(HIC)"}}},
    {"eca_rules", {{"rules", kExamples + "examples/hic/rules.yaml"}}},
    {"eca_time_events", {{"every", std::int64_t{1000000000}}}},
    {"gsm", {{"model", kExamples + "gsm/design_to_order.yaml"}}},
    {"gsm_pubsub", {{"model", kExamples + "gsm/design_to_order.yaml"}}},
    {"guard_scheduler", {{"file", kExamples + "examples/guards/buy_ticket_book_car.deps.yaml"}}},
    {"nats_subscribe", {{"subject", "x"}}},
    {"tcp_source", {{"listen", "127.0.0.1:0"}}},
    {"tcp_sink", {{"listen", "127.0.0.1:0"}}},
    {"websocket_source", {{"listen", "127.0.0.1:0"}}},
    {"websocket_sink", {{"listen", "127.0.0.1:0"}}},
    {"http_source", {{"listen", "127.0.0.1:0"}}},
    {"http_sink", {{"url", "http://127.0.0.1:9/"}}},
    {"interval_join", {{"upper", "10 min"}, {"key", "/id"}}},
    {"correlate", {{"timeout", "30 s"}, {"key", "/id"}}},
    {"catalog_match",
     {{"catalog", kExamples + "sky_annotation/data/catalog.jsonl"}, {"radius", 0.1}}},
    // Parameters that make members of the type's port families.
    {"broker", {{"neighbours", Value::array({Value("b2"), Value("b3")})}}},
    {"merge", {{"inputs", 3}}},
};

// The families of `declared` that none of `actual` is a member of.
std::vector<std::string> families_without_members(const std::vector<PortSpec>& declared,
                                                  std::span<const PortSpec> actual) {
  std::vector<std::string> empty;
  for (const PortSpec& family : declared) {
    if (!is_port_family(family)) continue;
    bool has_member = false;
    for (const PortSpec& port : actual)
      has_member = has_member || is_family_member(family, port.name);
    if (!has_member) empty.push_back(family.name);
  }
  return empty;
}

TEST(ActorPorts, EveryTypeDeclaresThePortsItDocuments) {
  std::vector<std::string> unbuildable;
  for (const ActorType* type : actor_registry().list()) {
    SCOPED_TRACE(type->name);
    std::map<std::string, Value> values;
    for (const ParamSpec& spec : type->params)
      if (!spec.default_value) values[spec.name] = sample(spec);
    if (auto it = kSpecific.find(type->name); it != kSpecific.end())
      for (const auto& [name, value] : it->second)
        values[name] = value;
    std::unique_ptr<Actor> actor;
    try {
      actor = type->factory(Params(values, {}, ::testing::TempDir()));
    } catch (const std::exception& e) {
      unbuildable.push_back(type->name + ": " + e.what());
      continue;
    }
    EXPECT_EQ(type->ports.mismatch(actor->inputs(), actor->outputs()), "");
    EXPECT_EQ(families_without_members(type->ports.inputs, actor->inputs()),
              std::vector<std::string>{});
    EXPECT_EQ(families_without_members(type->ports.outputs, actor->outputs()),
              std::vector<std::string>{});
  }
  EXPECT_TRUE(unbuildable.empty()) << ::testing::PrintToString(unbuildable);
}

}  // namespace
}  // namespace cwf::cli
