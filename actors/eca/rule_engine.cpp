#include "actors/eca/rule_engine.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

#include "actors/eca/occurrence.hpp"

namespace cwf::eca {

RuleEngine::RuleEngine(RuleSet rules, std::string broker_name)
    : rules_(std::move(rules)),
      broker_name_(std::move(broker_name)),
      graph_(std::make_shared<DetectorGraph>()),
      brokers_(Value::array(std::span<const Value>(rules_.brokers))) {
  std::vector<int> nodes;
  for (const Rule& rule : rules_.rules)
    nodes.push_back(graph_->add(*rule.event));
  rules_of_node_.resize(graph_->size());
  logged_node_.resize(graph_->size(), false);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    rules_of_node_[static_cast<std::size_t>(nodes[i])].push_back(i);
    logged_node_[static_cast<std::size_t>(nodes[i])] = true;
    random_.emplace_back(rules_.rules[i].seed);
  }
  DetectorOptions options;
  options.site = rules_.site;
  options.broker = broker_name_;
  detector_ = std::make_unique<EventDetector>(graph_, options);
  ids_ = &site_ids(rules_.site);
}

std::int64_t RuleEngine::pending(std::string_view broker) const {
  auto it = pending_.find(broker);
  return it == pending_.end() ? 0 : it->second;
}

void RuleEngine::process(const Value& occurrence, const Sinks& sinks) {
  if (sinks.history) sinks.history(occurrence);
  queue_.push_back(occurrence);
  raised_for_input_ = 0;
  recent_rules_.clear();
  while (!queue_.empty()) {
    if (raised_for_input_ > kMaxRaisedPerInput) {
      std::string chain;
      for (std::size_t rule : recent_rules_)
        chain += (chain.empty() ? "'" : " -> '") + rules_.rules[rule].name + "'";
      if (sinks.error)
        sinks.error("rules raised more than " + std::to_string(kMaxRaisedPerInput) +
                    " events for one " + std::string(occurrence_type(occurrence)) +
                    " (a cycle of rules?); dropped " + std::to_string(queue_.size()) +
                    " raised events; last rules: " + chain);
      queue_.clear();
      break;
    }
    Value next = std::move(queue_.front());
    queue_.pop_front();
    cycle(next, sinks);
  }
}

void RuleEngine::cycle(const Value& occurrence, const Sinks& sinks) {
  const Value& request = field(occurrence, kRequest);
  std::string_view type = occurrence_type(occurrence);
  if (!request.is_null() && !type.starts_with("REQ(")) {
    // A reply or exception ends the request: its broker has one pending request less.
    auto it = request_broker_.find(request);
    if (it != request_broker_.end()) {
      --pending_[it->second];
      request_broker_.erase(it);
    }
  }
  std::vector<std::pair<std::size_t, Value>> to_fire;
  detector_->process(occurrence, [&](int node, const Value& detected) {
    // The occurrence itself was logged when it came in or was raised; composites are logged when
    // a rule is attached to them.
    bool is_input = graph_->node(node).op == EventOp::primitive;
    if (!is_input && logged_node_[static_cast<std::size_t>(node)] && sinks.history)
      sinks.history(detected);
    for (std::size_t rule : rules_of_node_[static_cast<std::size_t>(node)])
      to_fire.emplace_back(rule, detected);
  });
  for (auto& [rule, event] : to_fire) {
    try {
      Value set = condition_set(rule, event);
      if (set.is_null()) continue;
      if (keep_fired_) fired_.push_back({rules_.rules[rule].name, event, set});
      act(rule, event, set, sinks);
    } catch (const std::exception& e) {
      if (sinks.error) sinks.error("rule '" + rules_.rules[rule].name + "': " + e.what());
    }
  }
}

Value RuleEngine::condition_set(std::size_t rule_index, const Value& event) {
  const Rule& rule = rules_.rules[rule_index];
  Value set = Value::array({Value(true)});
  if (rule.condition) {
    Value result = rule.condition->evaluate(event, {event, brokers_});
    if (result.is_array()) {
      if (result.as_array().empty()) return Value();
      set = result;
    } else {
      if (!result.truthy()) return Value();
      set = Value::array({result});
    }
  }
  if (rule.assign != AssignStrategy::none)
    return assign(rule_index, event, rule.condition ? &set : nullptr);
  return set;
}

namespace {

// Whether `broker` (a record of the rules' broker list) is in the condition's set, which names
// brokers by record or by name.
bool in_set(const Value& broker, const Value& set) {
  const Value* name = broker.field("name");
  for (const Value& member : set.as_array()) {
    const Value* n = member.is_record() ? member.field("name") : &member;
    if (n && name && *n == *name) return true;
  }
  return false;
}

// True when the condition's set consists of brokers (records with a name, or names).
bool is_broker_set(const Value& set) {
  for (const Value& member : set.as_array()) {
    const Value* n = member.is_record() ? member.field("name") : &member;
    if (!n || !n->is_string()) return false;
  }
  return !set.as_array().empty();
}

}  // namespace

Value RuleEngine::assign(std::size_t rule_index, const Value& event, const Value* candidates) {
  const Rule& rule = rules_.rules[rule_index];
  const Value& service = field(event, kService);
  // The condition returns the candidate processing entities (§4.2): when it is a set of brokers,
  // the strategy chooses among them; any other set only says that the condition holds.
  if (candidates && !is_broker_set(*candidates)) candidates = nullptr;
  std::vector<const Value*> eligible;
  for (const Value& broker : rules_.brokers) {
    if (candidates && !in_set(broker, *candidates)) continue;
    bool offers = false;
    for (const Value& s : broker.field("services")->as_array())
      offers = offers || s == service;
    if (!offers) continue;
    if (rule.where) {
      std::array<Value, 2> vars{broker, event};
      if (!rule.where->matches(event, Variables(vars))) continue;
    }
    eligible.push_back(&broker);
  }
  if (eligible.empty()) return Value();
  const Value* chosen = eligible.front();
  if (rule.assign == AssignStrategy::random) {
    chosen = eligible[random_[rule_index]() % eligible.size()];
  } else if (rule.assign == AssignStrategy::load) {
    // The fewest pending requests; ties go to the broker listed first.
    std::int64_t fewest = std::numeric_limits<std::int64_t>::max();
    for (const Value* b : eligible) {
      std::int64_t load = pending(b->field("name")->as_string());
      if (load < fewest) {
        fewest = load;
        chosen = b;
      }
    }
  }
  return Value::array({*chosen});
}

Value RuleEngine::raised(const RaiseAction& action, const Value& event, const Value& set) {
  OccurrenceSpec spec;
  spec.type = action.type;
  spec.site = rules_.site;
  spec.id = next_occurrence_id(*ids_);
  spec.time = occurrence_time(event);
  if (action.type.starts_with("REQ("))
    spec.request = Value(rules_.site + ":" + std::to_string(spec.id));
  spec.instance = field(event, kInstance);
  spec.broker = Value(broker_name_);
  spec.params =
      action.params ? action.params->evaluate(event, {event, set}) : field(event, kParams);
  return make_occurrence(std::move(spec));
}

void RuleEngine::act(std::size_t rule_index, const Value& event, const Value& set,
                     const Sinks& sinks) {
  const Rule& rule = rules_.rules[rule_index];
  for (const RaiseAction& action : rule.raise) {
    Value occurrence = raised(action, event, set);
    if (sinks.history) sinks.history(occurrence);
    queue_.push_back(std::move(occurrence));
    ++raised_for_input_;
    if (recent_rules_.empty() || recent_rules_.back() != rule_index) {
      recent_rules_.push_back(rule_index);
      if (recent_rules_.size() > 6) recent_rules_.pop_front();
    }
  }
  if (rule.notify && !set.as_array().empty()) {
    const Value& target = set.as_array().front();
    const Value* name = target.is_record() ? target.field("name") : &target;
    if (!name || !name->is_string())
      throw std::invalid_argument(
          "'notify' needs a broker (a name or a record with a name) "
          "first in the condition's set, got " +
          target.to_json());
    std::string broker(name->as_string());
    const Value& request = field(event, kRequest);
    if (!request.is_null() && request_broker_.emplace(request, broker).second) ++pending_[broker];
    if (sinks.notify) sinks.notify(with_field(event, kAssigned, Value(broker)));
  }
}

}  // namespace cwf::eca
