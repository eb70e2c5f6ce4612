// Every registered actor type documents its ports (ActorType::inputs/outputs, what `cwf actors`
// and the docs show) and its actors declare them (Actor::inputs/outputs, what connections are
// checked against). The two must agree for every type of every library.
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
    {"interval_join", {{"upper", "10 min"}, {"key", "/id"}}},
};

// Port names; a documented name with a placeholder (`to_<neighbour>`) stands for ports made from
// parameters, none with the samples here.
std::vector<std::string> names(std::span<const PortSpec> ports) {
  std::vector<std::string> out;
  for (const PortSpec& p : ports)
    if (p.name.find('<') == std::string::npos) out.push_back(p.name);
  return out;
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
    EXPECT_EQ(names(actor->inputs()), names(type->inputs));
    EXPECT_EQ(names(actor->outputs()), names(type->outputs));
  }
  EXPECT_TRUE(unbuildable.empty()) << ::testing::PrintToString(unbuildable);
}

}  // namespace
}  // namespace cwf::cli
