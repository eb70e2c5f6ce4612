// GSM mapped onto publish/subscribe (000 ch. 4-5; 003 §4-7): a compiled model becomes a set of
// workflow units (WFUs) that only talk through content-based publications. Per status attribute s
// there are three units: S+s and S-s evaluate the super rule whose consequent is +s / -s, and the
// gateway S_s owns s; per data attribute d (latestIncEvent included) one unit S_d owns d; the
// source S_source stamps each external event with a logical time t; the sink(s) S_sink complete a
// step once every unit taking part in it reported `visited`.
//
// The mapping decides which units take part in a step of event type e:
// - BLM (baseline): every unit in every step, the source publishes every data attribute, one sink.
//   Units: 3·|I_s| + |I_d| + 2.
// - CAM (context-aware): a rule unit when its node is in e's ePDG, a gateway when one of its rule
//   units is, a data unit when e updates its attribute; one sink per event type. Units:
//   3·|I_s| + |I_d| + 1 + |E| (some of which may never take part).
//
// Unit numbering: 0 is the source, then S+s, S-s, S_s for each status attribute s, then S_d for
// each data attribute (latestIncEvent last), then the sink(s).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "actors/gsm/compiled_model.hpp"
#include "actors/pubsub/filter.hpp"

namespace cwf::gsm {

enum class WfuMapping : std::uint8_t { blm, cam };

std::string_view wfu_mapping_name(WfuMapping mapping);
// "blm" / "cam"; throws std::invalid_argument otherwise.
WfuMapping parse_wfu_mapping(std::string_view name);

enum class WfuKind : std::uint8_t { source, rule, gateway, data, sink };

struct WfuUnitSpec {
  WfuUnitSpec(WfuKind k, std::string n) : kind(k), name(std::move(n)) {}
  WfuKind kind = WfuKind::source;
  std::string name;      // "source", "+RA", "-ED:cp", "RA", "data:design", "sink:R:NewOrder"
  int attribute = -1;    // rule, gateway: the status attribute; data: the data index
  bool polarity = true;  // rule: + or -
  int super_rule = -1;   // rule: WfuPlan::super_rules index, -1 when no rule has this γ
  int sink_event = -1;   // CAM sinks: their event type; -1: every event type
  // Rule units: the gateways and data units whose values it reads (subscribed to), which of them
  // it reads at step t (the antecedents) and which at their previous version (its consequent's
  // and its prerequisite's gateways), and the rule units whose toggles trigger it.
  std::vector<int> reads_values;
  std::vector<bool> reads_now;       // per reads_values entry
  std::vector<bool> reads_previous;  // per reads_values entry
  std::vector<int> reads_toggles;
  std::vector<pubsub::Filter> subscriptions;
  std::vector<pubsub::Filter> advertisements;
};

class WfuPlan {
 public:
  static std::shared_ptr<const WfuPlan> build(std::shared_ptr<const CompiledModel> compiled,
                                              WfuMapping mapping);

  const CompiledModel& compiled() const { return *compiled_; }
  const std::shared_ptr<const CompiledModel>& compiled_ptr() const { return compiled_; }
  WfuMapping mapping() const { return mapping_; }
  const std::vector<WfuUnitSpec>& units() const { return units_; }
  const std::vector<SuperRule>& super_rules() const { return super_rules_; }

  int status_count() const { return status_count_; }
  // Data attributes including latestIncEvent (the last one).
  int data_count() const { return data_count_; }
  int latest_event_data() const { return data_count_ - 1; }

  int source() const { return 0; }
  int rule_unit(int attribute, bool polarity) const {
    return 1 + 3 * attribute + (polarity ? 0 : 1);
  }
  int gateway(int attribute) const { return 1 + 3 * attribute + 2; }
  int data_unit(int data) const { return 1 + 3 * status_count_ + data; }
  // The sink that completes steps of this event type.
  int sink(int event) const { return first_sink_ + (mapping_ == WfuMapping::blm ? 0 : event); }
  int first_sink() const { return first_sink_; }

  // Whether a unit takes part in steps of this event type (sinks: those they complete).
  bool takes_part(int event, int unit) const {
    return participation_[static_cast<std::size_t>(event) * units_.size() +
                          static_cast<std::size_t>(unit)];
  }
  // How many units other than the source and the sinks take part: the `visited` a sink waits for.
  int expected_visited(int event) const {
    return expected_visited_[static_cast<std::size_t>(event)];
  }
  // Whether the event type may carry this data attribute (latestIncEvent: always).
  bool updates(int event, int data) const;
  // Units that take part in at least one event type's steps.
  int units_ever_taking_part() const;

 private:
  void add_units();
  void compute_participation();
  void add_subscriptions();

  std::shared_ptr<const CompiledModel> compiled_;
  WfuMapping mapping_ = WfuMapping::blm;
  std::vector<SuperRule> super_rules_;
  std::vector<WfuUnitSpec> units_;
  int status_count_ = 0;
  int data_count_ = 0;
  int first_sink_ = 0;
  std::vector<bool> participation_;  // event-major
  std::vector<int> expected_visited_;
};

}  // namespace cwf::gsm
