// A dependency workflow written in YAML:
//
//   dependencies:
//     - "~s_buy + s_book"
//     - "~c_buy + c_book·c_buy"
//   events:
//     s_book: {triggerable: true}
//     abort: {rejectable: false}
//
// Events are the ones the dependencies mention (in order of first appearance) plus any listed
// under `events:` with `free: true` (an event no dependency constrains; without it, a name no
// dependency mentions is taken for a typo). Errors are LoadErrors at the file, line and column
// of the mistake.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "actors/guards/event_expression.hpp"
#include "actors/guards/guard.hpp"

namespace cwf::guards {

struct EventAttributes {
  bool triggerable = false;  // the scheduler may make it happen on its own accord
  bool rejectable = true;    // the scheduler may refuse it (making its complement happen)
  bool free = false;         // declared although no dependency mentions it (guard T)
};

struct DependencySet {
  std::vector<EventExpr> dependencies;
  std::vector<std::string> texts;                     // as written
  std::vector<std::string> events;                    // event types, e.g. "c_buy[cid]"
  std::map<std::string, EventAttributes> attributes;  // by event type; absent: the defaults

  // Appends a parsed dependency and the events it mentions first. The one place events are
  // collected, for files and for inline dependencies alike.
  void add_dependency(EventExpr dependency, std::string text);
  // The workflow is instantiated per binding of the parameters, so every event type must name
  // the same ones: the message for the first event that does not, or "" when all agree.
  std::string parameters_mismatch() const;

  EventAttributes attributes_of(const std::string& event) const;
  // The guard of a literal in this workflow (conjunction over the dependencies mentioning it).
  // The guards of one set share one work limit, kWorkflowGuardSteps: throws GuardTooComplex
  // when computing them takes more.
  Guard guard(const Literal& literal) const;
  mutable std::uint64_t guard_steps_used = 0;  // by the guards computed so far
};

// Reads a file; throws LoadError.
DependencySet load_dependency_file(const std::string& path);
// The text of a dependency file; `file_for_errors` names it in LoadErrors.
DependencySet parse_dependency_text(std::string_view yaml, const std::string& file_for_errors);
// Reads the top-level map of a dependency file (or the same keys inlined elsewhere).
DependencySet read_dependency_set(const YAML::Node& root, const std::string& file);

// The event type's name without its parameters ("c_buy[cid]" → "c_buy") and the parameters.
std::string base_name(const std::string& event_type);
std::vector<std::string> parameters_of(const std::string& event_type);

}  // namespace cwf::guards
