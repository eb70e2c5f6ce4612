#include "actors/eca/rule_set.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

#include "actors/eca/occurrence.hpp"
#include "runtime/loading/load_error.hpp"
#include "runtime/loading/yaml_file_reader.hpp"
#include "runtime/loading/yaml_value.hpp"
#include "runtime/values/did_you_mean.hpp"

namespace cwf::eca {

const ExprEnvironment& condition_environment() {
  static const ExprEnvironment env{"event", "brokers"};
  return env;
}
const ExprEnvironment& where_environment() {
  static const ExprEnvironment env{"broker", "event"};
  return env;
}
const ExprEnvironment& params_environment() {
  static const ExprEnvironment env{"event", "set"};
  return env;
}

namespace {

class RuleParser : public YamlFileReader {
 public:
  using YamlFileReader::YamlFileReader;

  RuleSet parse(const YAML::Node& root) {
    if (!root.IsMap()) fail(root, "expected a map with 'rules' (and optionally 'site', 'brokers')");
    RuleSet set;
    bool has_rules = false;
    for (const YamlEntry& entry : yaml_map_entries(root, file_)) {
      if (entry.key == "site") {
        set.site = scalar(entry, "a site name");
      } else if (entry.key == "brokers") {
        set.brokers = brokers(entry);
      } else if (entry.key == "rules") {
        has_rules = true;
        if (!entry.value.IsSequence()) fail_at(entry, "expected a list of rules");
        for (const YAML::Node& rule_node : entry.value)
          set.rules.push_back(rule(rule_node, set.rules.size()));
      } else {
        unknown(entry, {"site", "brokers", "rules"}, "in the rules file");
      }
    }
    if (!has_rules) fail(root, "the rules file has no 'rules'");
    return set;
  }

 private:
  using YamlFileReader::fail;
  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
    fail(yaml_location(node, file_, SourceLocation{file_, 0, 0}), message);
  }
  [[noreturn]] void fail_at(const YamlEntry& entry, const std::string& message) const {
    fail(value_location(entry, file_), message);
  }
  [[noreturn]] void unknown(const YamlEntry& entry, const std::vector<std::string>& known,
                            const std::string& where) const {
    std::string message = "unknown key '" + entry.key + "' " + where;
    if (auto hint = did_you_mean(entry.key, known))
      message += "; did you mean '" + *hint + "'?";
    else {
      message += " (expected";
      for (const auto& k : known)
        message += " " + k;
      message += ")";
    }
    throw LoadError(key_location(entry, file_), message);
  }
  Expression expression(const YamlEntry& entry, const ExprEnvironment& env) const {
    std::string text = scalar(entry, "an expression");
    try {
      return Expression::compile(text, env);
    } catch (const ExprError& e) {
      fail_at(entry, "invalid '" + entry.key + "' expression: " + e.what());
    }
  }
  EventExprPtr event(const YamlEntry& entry) const {
    std::string text = scalar(entry, "an event expression");
    try {
      return parse_event_expression(text);
    } catch (const EventSyntaxError& e) {
      fail_at(entry, "invalid event '" + text + "': " + e.what());
    }
  }

  std::vector<Value> brokers(const YamlEntry& entry) const {
    if (!entry.value.IsSequence()) fail_at(entry, "expected a list of brokers");
    std::vector<Value> out;
    for (const YAML::Node& node : entry.value) {
      Value broker = yaml_to_value(node, file_);
      const Value* name = broker.field("name");
      const Value* services = broker.field("services");
      if (!name || !name->is_string() || !services || !services->is_array())
        fail(node, "expected a broker as {name: NAME, services: [SERVICE, ...], ...}");
      out.push_back(std::move(broker));
    }
    return out;
  }

  RaiseAction raise_action(const YAML::Node& node) const {
    RaiseAction action;
    YAML::Node type_node = node;
    if (node.IsMap()) {
      bool has_type = false;
      for (const YamlEntry& e : yaml_map_entries(node, file_)) {
        if (e.key == "type") {
          type_node.reset(e.value);
          has_type = true;
        } else if (e.key == "params")
          action.params = expression(e, params_environment());
        else
          unknown(e, {"type", "params"}, "in 'raise'");
      }
      if (!has_type) fail(node, "'raise' needs a 'type', e.g. {type: REQ(LogClaim)}");
    }
    if (!type_node.IsScalar()) fail(node, "expected an event type to raise, e.g. REQ(LogClaim)");
    action.type = type_node.Scalar();
    action.location = yaml_location(type_node, file_, SourceLocation{file_, 0, 0});
    PrimitiveType primitive;
    if (!parse_primitive_type(action.type, primitive))
      fail(type_node,
           "expected a primitive event type to raise (REQ(Service), "
           "RPL(Service.Outcome), EXC(Service.Exception) or TIME(name)), got '" +
               action.type + "'");
    return action;
  }

  Rule rule(const YAML::Node& node, std::size_t index) const {
    if (!node.IsMap()) fail(node, "expected a rule as a map with 'on' and an action");
    Rule rule;
    rule.name = "rule " + std::to_string(index + 1);
    rule.location = yaml_location(node, file_);
    std::optional<std::string> assign;
    const YamlEntry* assign_entry = nullptr;
    auto entries = yaml_map_entries(node, file_);
    for (const YamlEntry& e : entries) {
      if (e.key == "name")
        rule.name = scalar(e, "a name");
      else if (e.key == "on")
        rule.event = event(e);
      else if (e.key == "if")
        rule.condition = expression(e, condition_environment());
      else if (e.key == "assign") {
        assign = scalar(e, "random, load or responsibility");
        assign_entry = &e;
      } else if (e.key == "where")
        rule.where = expression(e, where_environment());
      else if (e.key == "seed") {
        auto seed = parse_yaml_int(scalar(e, "an int"));
        if (!seed) fail_at(e, "expected an int for 'seed', got '" + e.value.Scalar() + "'");
        rule.seed = static_cast<std::uint64_t>(*seed);
      } else if (e.key == "raise") {
        if (e.value.IsSequence())
          for (const YAML::Node& r : e.value)
            rule.raise.push_back(raise_action(r));
        else
          rule.raise.push_back(raise_action(e.value));
      } else if (e.key == "notify") {
        auto on = parse_yaml_bool(scalar(e, "true or false"));
        if (!on) fail_at(e, "expected true or false for 'notify'");
        rule.notify = *on;
      } else {
        unknown(e, {"name", "on", "if", "assign", "where", "seed", "raise", "notify"},
                "in rule '" + rule.name + "'");
      }
    }
    if (!rule.event) fail(node, "rule '" + rule.name + "' has no 'on' event");
    if (assign) {
      if (*assign == "random")
        rule.assign = AssignStrategy::random;
      else if (*assign == "load")
        rule.assign = AssignStrategy::load;
      else if (*assign == "responsibility")
        rule.assign = AssignStrategy::responsibility;
      else
        fail_at(*assign_entry, "unknown assignment strategy '" + *assign +
                                   "' (expected random, load or responsibility)");
      rule.notify = true;
    }
    if (rule.assign == AssignStrategy::responsibility && !rule.where)
      fail(node, "rule '" + rule.name + "': responsibility-based assignment needs 'where'");
    // A rule raising its own primitive event with no condition would raise it forever: each
    // raised occurrence fires the rule again.
    if (rule.event->op == EventOp::primitive && !rule.condition)
      for (const RaiseAction& action : rule.raise)
        if (action.type == rule.event->to_string())
          throw LoadError(action.location, "rule '" + rule.name + "' raises its own event " +
                                               action.type +
                                               " unconditionally: it would fire forever");
    // Without a strategy the broker to notify can only come from the condition's set.
    if (rule.notify && rule.assign == AssignStrategy::none && !rule.condition)
      fail(node, "rule '" + rule.name +
                     "': 'notify' needs 'assign' or an 'if' returning the broker to notify");
    if (rule.raise.empty() && !rule.notify)
      fail(node, "rule '" + rule.name + "' does nothing: give 'raise', 'assign' or 'notify'");
    return rule;
  }
};

}  // namespace

RuleSet parse_rule_set(const std::string& yaml_text, const std::string& file_for_errors) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw LoadError(yaml_location(e.mark, file_for_errors), e.msg);
  }
  return RuleParser(file_for_errors).parse(root);
}

RuleSet load_rule_set(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(SourceLocation{path, 0, 0}, "cannot open the rules file");
  std::stringstream text;
  text << in.rdbuf();
  return parse_rule_set(text.str(), path);
}

}  // namespace cwf::eca
