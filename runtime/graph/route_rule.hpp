// Which of N receivers an event goes to: the rule of a connection with `partition_by` into an
// actor with `parallelism: N` (docs/workflow-yaml.md, "Replicas"), applied by the sending actor's
// cell as it emits, and by the `partition` actor of the library.
//  - the key `by` picks one receiver: by its hash (the events of one key always take the same
//    receiver, in the order they came), or with `modulo`, the key (a whole number) modulo N, which
//    spreads a few dense keys evenly where a hash of so few keys does not;
//  - an event for which `broadcast_when` holds goes to every receiver, in its place among the
//    others.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtime/expressions/expression.hpp"
#include "runtime/values/value.hpp"

namespace cwf {

class RouteRule {
 public:
  static constexpr int kEveryReceiver = -1;
  enum class How { hash, modulo };

  RouteRule(Expression by, int receivers, How how = How::hash,
            std::optional<Expression> broadcast_when = std::nullopt);
  // `hash` or `modulo`; throws std::invalid_argument saying so for anything else.
  static How how_named(std::string_view name);

  int receivers() const { return receivers_; }
  // "partition_by /k", with ", modulo" and ", broadcast_when ..." when set (graph edge labels).
  std::string describe() const;
  // What the connection to `receiver` carries: "partition_by /k: 2 of 4".
  std::string describe(int receiver) const;
  // The receiver of `token`, or kEveryReceiver. Throws ExprError when the key (or
  // broadcast_when) fails to evaluate, the message saying which of the two.
  int choose(const Value& token) const;
  // The receiver for `key` by its hash: the same in every process of one build.
  static int by_hash(const Value& key, int receivers);
  // The receiver for a whole-number `key` (modulo). Throws ExprError for another value.
  static int by_number(const Value& key, int receivers);

 private:
  Expression by_;
  int receivers_;
  How how_;
  std::optional<Expression> broadcast_when_;
};

}  // namespace cwf
