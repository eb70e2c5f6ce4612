// A GSM artifact type as written in its YAML model: data attributes, the stage tree with guards
// and milestones, and the incoming event types. Status attributes are numbered once here: the
// stages first (attribute i is stage i), then the milestones (attribute stages + j is milestone
// j), so that rules, the dependency graph and instance bitsets all share one index.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actors/gsm/condition_info.hpp"
#include "runtime/graph/workflow.hpp"

namespace cwf::gsm {

enum class DataType : std::uint8_t { string, integer, real, boolean, any };

std::string_view data_type_name(DataType type);
std::optional<DataType> parse_data_type(std::string_view name);

struct DataAttribute {
  std::string name;
  DataType type = DataType::any;
  SourceLocation location;
};

// What a sentry waits for: nothing (`if φ` alone), an incoming event type, or a status event
// `+s` / `-s` (status attribute s became true / false in this B-step).
struct Trigger {
  enum class Kind : std::uint8_t { none, external, status };
  Kind kind = Kind::none;
  int event = -1;      // external: index into Model::events
  int attribute = -1;  // status: the status attribute
  bool value = true;   // status: + (true) or - (false)
};

// `on ξ if φ`, `on ξ` or `if φ`.
struct Sentry {
  std::string text;         // as written
  Trigger trigger;          //
  int condition = -1;       // φ: index into Model::conditions, -1 when there is none
  SourceLocation location;  // of the sentry text in the model file
};

struct Guard {
  std::string name;  // as written, or <stage>.g<k> for guards given as a list
  Sentry sentry;
};

struct Milestone {
  std::string name;  // qualified: STAGE:milestone
  int stage = -1;    // owner
  Sentry achieving;
  std::optional<Sentry> invalidating;
  SourceLocation location;
};

struct Stage {
  std::string name;
  std::string task;  // atomic stages: the task invoked when the stage opens
  int parent = -1;   // -1 at top level
  std::vector<int> children;
  std::vector<Guard> guards;
  std::vector<int> milestones;
  SourceLocation location;
  bool atomic() const { return children.empty(); }
};

struct EventType {
  std::string name;  // R:NewOrder, T:EngineeringDesign, ...
  // Data attributes the event may carry; all of them when `updates_all`.
  std::vector<int> updates;
  bool updates_all = true;
  bool creates = false;  // may create an instance (see Model::creating_events_declared)
  SourceLocation location;
};

struct Model {
  std::string name;
  std::string file;
  std::vector<DataAttribute> data;
  std::vector<Stage> stages;  // parents before their children
  std::vector<Milestone> milestones;
  std::vector<EventType> events;
  std::vector<ConditionInfo> conditions;  // of every sentry that has one
  bool events_declared = false;           // an `events:` section lists every event type
  bool creating_events_declared = false;  // some event has `creates: true`

  std::size_t status_count() const { return stages.size() + milestones.size(); }
  bool is_stage(int attribute) const { return attribute < static_cast<int>(stages.size()); }
  int milestone_attribute(int milestone) const {
    return static_cast<int>(stages.size()) + milestone;
  }
  const Milestone& milestone_of(int attribute) const {
    return milestones[static_cast<std::size_t>(attribute) - stages.size()];
  }
  const std::string& status_name(int attribute) const;
  std::optional<int> find_status(std::string_view name) const;
  std::optional<int> find_event(std::string_view name) const;
  std::optional<int> find_data(std::string_view name) const;
  std::vector<std::string> status_names() const;
  // Whether an instance of this model may be created by an event of this type.
  bool may_create(int event) const {
    return !creating_events_declared || events[static_cast<std::size_t>(event)].creates;
  }
};

}  // namespace cwf::gsm
