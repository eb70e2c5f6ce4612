// The EVE server's rule execution (§4.2, §5.1): rules are attached to the nodes of one detector
// graph; a detection cycle puts the rules of every node it detects on a to-fire list, and they fire
// only after the cycle has ended. A rule whose condition holds runs its action: it raises events
// (detected in later cycles, in the order raised) and notifies the assigned broker.
//
// Everything the engine sees or produces is reported: `history` gets every occurrence processed
// (incoming and raised) and every composite occurrence a rule is attached to; `notify` gets the
// requests sent to brokers (with `assigned`).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "actors/eca/event_detector.hpp"
#include "actors/eca/rule_set.hpp"

namespace cwf::eca {

class RuleEngine {
 public:
  struct Sinks {
    std::function<void(const Value&)> history;
    std::function<void(const Value&)> notify;
    // A rule whose condition or parameters fail on an occurrence (a type error): the rule does
    // not fire for it; the other rules and the raised events go on.
    std::function<void(const std::string&)> error;
  };
  // A rule that fired, for tests and the `fired` trace: rule name and triggering occurrence.
  struct Firing {
    std::string rule;
    Value event;
    Value set;
  };

  // At most this many events are raised because of one input occurrence: rules that raise each
  // other's events (A raises B, B raises A) would otherwise never end. Past it the rest of the
  // chain is dropped and reported as an error.
  static constexpr std::size_t kMaxRaisedPerInput = 10'000;

  explicit RuleEngine(RuleSet rules, std::string broker_name = "EVE");

  // Detects `occurrence` and everything the fired rules raise because of it.
  void process(const Value& occurrence, const Sinks& sinks);

  // Pending requests per broker (load-based assignment).
  std::int64_t pending(std::string_view broker) const;
  const std::vector<Firing>& fired() const { return fired_; }

  // Checkpoints, between inputs (nothing raised is waiting): the detector, each rule's random
  // generator, the pending requests per broker and which broker each open request went to, the
  // site's next occurrence id. restore() refuses state of another rule set (SnapshotError).
  void save(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);
  void keep_fired(bool on) { keep_fired_ = on; }

 private:
  void cycle(const Value& occurrence, const Sinks& sinks);
  // The condition's set; null when it does not hold.
  Value condition_set(std::size_t rule_index, const Value& event);
  // `candidates`: the condition's set, or null when the rule has no condition.
  Value assign(std::size_t rule_index, const Value& event, const Value* candidates);
  void act(std::size_t rule_index, const Value& event, const Value& set, const Sinks& sinks);
  Value raised(const RaiseAction& action, const Value& event, const Value& set);

  RuleSet rules_;
  std::string broker_name_;
  std::shared_ptr<DetectorGraph> graph_;
  Value brokers_;  // rules_.brokers as the conditions' `brokers` variable, built once
  std::unique_ptr<EventDetector> detector_;
  std::vector<std::vector<std::size_t>> rules_of_node_;
  std::vector<bool> logged_node_;
  std::vector<std::mt19937_64> random_;  // per rule, seeded
  std::map<std::string, std::int64_t, std::less<>> pending_;
  std::map<Value, std::string> request_broker_;
  std::deque<Value> queue_;  // raised, not yet detected
  std::size_t raised_for_input_ = 0;
  std::deque<std::size_t>
      recent_rules_;  // the last rules that raised (indexes), for the cycle error
  std::atomic<std::int64_t>* ids_ = nullptr;
  std::vector<Firing> fired_;
  bool keep_fired_ = false;
};

}  // namespace cwf::eca
