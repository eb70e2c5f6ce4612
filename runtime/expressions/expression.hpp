// The expression language used by filters, maps, group-by keys, sentries, conditions and
// predicates. The grammar, type rules and functions are described in docs/expressions.md.
//
//   ExprEnvironment env{"window"};
//   Expression e = Expression::compile("len(window) > 2 and /speed >= 50", env);
//   Value v = e.evaluate(event, vars);   // vars[0] is `window`
//
// An expression is compiled once into a tree of nodes and then evaluated per event: record fields
// are read through slots cached per schema, and evaluating to a scalar allocates nothing.
// A compiled Expression is immutable apart from those caches, which are thread-safe, so one
// Expression may be evaluated from several threads at once. Copies share the compiled tree.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/expressions/expr_error.hpp"
#include "runtime/values/value.hpp"

namespace cwf {

namespace expr {
class Node;
}

// The names of the variables an expression may use besides the input (`window`, `event`, ...).
// A variable's index is its position in declaration order; the values passed to evaluate follow
// the same order. Names must be identifiers other than and, or, not, true, false and null.
class ExprEnvironment {
 public:
  ExprEnvironment() = default;
  ExprEnvironment(std::initializer_list<std::string_view> variables);

  // Declares a variable and returns its index; declaring a name again returns the same index.
  // Throws ExprError (column 0) for a name that is not a valid variable name.
  std::size_t declare(std::string_view name);
  // Index of a declared variable, or -1.
  int index_of(std::string_view name) const noexcept;
  std::span<const std::string> variables() const noexcept { return variables_; }
  std::size_t size() const noexcept { return variables_.size(); }

 private:
  std::vector<std::string> variables_;
};

// Values of the variables, indexed like the ExprEnvironment the expression was compiled with.
using Variables = std::span<const Value>;

class Expression {
 public:
  // An expression that evaluates to null.
  Expression();

  // Throws ExprError naming the 1-based column of the problem, e.g.
  // "column 7: expected ')' but found 'x'".
  static Expression compile(std::string_view source, const ExprEnvironment& env = {});

  // `input` is what `/...` paths read. Throws ExprError on a run-time error (a type error such as
  // "a" * 2, or integer overflow), with the column of the operator or function at fault.
  Value evaluate(const Value& input) const;
  Value evaluate(const Value& input, const Variables& vars) const;
  Value evaluate(const Value& input, std::initializer_list<Value> vars) const {
    return evaluate(input, Variables(vars.begin(), vars.size()));
  }

  // Whether the result is truthy (see Value::truthy), without copying it: for filters and guards.
  bool matches(const Value& input) const;
  bool matches(const Value& input, const Variables& vars) const;

  const std::string& source() const noexcept { return source_; }
  // True when the expression reads neither the input nor any variable (it was folded to a value).
  bool is_constant() const noexcept;
  // How many variables evaluate needs: one more than the highest index the expression uses.
  std::size_t variables_needed() const noexcept { return variables_needed_; }

 private:
  Expression(std::shared_ptr<const expr::Node> root, std::string source,
             std::size_t variables_needed);
  void check_variables(const Variables& vars) const;

  std::shared_ptr<const expr::Node> root_;
  std::string source_;
  std::size_t variables_needed_ = 0;
};

}  // namespace cwf
