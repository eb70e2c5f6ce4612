// ECA rules (EVE §4.2) as written in a rules file:
//
//   site: s1                    # site of the occurrences the rules raise (default s1)
//   brokers:                    # processing entities for task assignment
//     - {name: DBCL, services: [LogClaim], region: north}
//   rules:
//     - name: R1
//       on: CON(RPL(CntrlCoverage.OK), CON(RPL(SW1.Done), RPL(SW2.Done)))
//       if: "/params/amount > 300"          # optional condition (expression language)
//       raise: {type: REQ(LogClaim), params: "{claim: event/params/claim}"}
//     - name: assign-log
//       on: REQ(LogClaim)
//       assign: load                        # random | load | responsibility
//       where: "broker/region == event/params/region"
//
// A condition returns a set: an `if` that gives an array holds when the array is not empty and
// passes it on as `set`; any other value holds when truthy (set = [value]). `assign` computes the
// eligible brokers (offering the event's service, and satisfying `where`), picks one by its
// strategy and notifies it (the event goes out with `assigned` set).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "actors/eca/event_expression.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/graph/workflow.hpp"
#include "runtime/values/value.hpp"

namespace cwf::eca {

enum class AssignStrategy { none, random, load, responsibility };

struct RaiseAction {
  std::string type;                  // a primitive type, e.g. REQ(LogClaim)
  std::optional<Expression> params;  // not set: the triggering occurrence's params
  SourceLocation location;           // of the type, for load errors
};

struct Rule {
  std::string name;
  EventExprPtr event;
  std::optional<Expression> condition;  // `if`: variables event, brokers
  AssignStrategy assign = AssignStrategy::none;
  std::optional<Expression> where;  // responsibility: variables broker, event
  std::uint64_t seed = 1;           // random assignment
  std::vector<RaiseAction> raise;   // params: variables event, set
  bool notify = false;              // send the event to the assigned broker
  SourceLocation location;
};

struct RuleSet {
  std::string site = "s1";
  std::vector<Value> brokers;  // records with at least `name` and `services`
  std::vector<Rule> rules;
};

// Environments of the rule expressions, in variable order.
const ExprEnvironment& condition_environment();  // event, brokers
const ExprEnvironment& where_environment();      // broker, event
const ExprEnvironment& params_environment();     // event, set

// Throws LoadError at the file, line and column of the mistake.
RuleSet load_rule_set(const std::string& path);
RuleSet parse_rule_set(const std::string& yaml_text, const std::string& file_for_errors);

}  // namespace cwf::eca
