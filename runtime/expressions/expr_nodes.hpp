// The compiled form of an expression: a tree of nodes evaluated per event.
//
// Evaluation avoids copies and allocation: `get` returns a reference either into the input (a path
// returns the field it found), into the node itself (a constant), or to the caller-provided
// `scratch` that the node filled. Only nodes that build strings, arrays or records allocate.
//
// The factories below fold constant subexpressions: a node whose operands are all constants is
// evaluated once while compiling and replaced by its value, so that errors in literal-only code
// are reported at compile time and nothing is recomputed per event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/expressions/expr_functions.hpp"
#include "runtime/expressions/expr_operators.hpp"
#include "runtime/expressions/slot_cache.hpp"
#include "runtime/values/value.hpp"

namespace cwf::expr {

// What paths read: the input value and the variables, in declaration order.
struct Context {
  const Value& input;
  std::span<const Value> variables;
};

class Node {
 public:
  Node(int column, KindSet kinds) : column_(column), kinds_(kinds) {}
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  virtual ~Node() = default;

  // The value of this node. The reference is valid while `ctx` and `scratch` are.
  virtual const Value& get(const Context& ctx, Value& scratch) const = 0;
  // The value when this node is a constant, else nullptr.
  virtual const Value* constant() const { return nullptr; }

  Value eval(const Context& ctx) const {
    Value scratch;
    const Value& result = get(ctx, scratch);
    if (&result == &scratch) return scratch;
    return result;
  }

  // 1-based source column this node's run-time errors are reported at.
  int column() const { return column_; }
  // The kinds this node may evaluate to, as far as the compiler knows.
  KindSet kinds() const { return kinds_; }

 private:
  int column_;
  KindSet kinds_;
};

using NodePtr = std::unique_ptr<Node>;

// A path: a root (the input, a variable, or any other node) followed by field and index steps.
// Field steps keep a SlotCache, so reading `/a/b` from records of one schema does no name lookup.
class PathNode final : public Node {
 public:
  static std::unique_ptr<PathNode> on_input(int column);
  static std::unique_ptr<PathNode> on_variable(std::size_t index, int column);
  static std::unique_ptr<PathNode> on_node(NodePtr base, int column);

  void add_field(std::string name);
  void add_index(NodePtr index, int column);

  const Value& get(const Context& ctx, Value& scratch) const override;

 private:
  enum class Root { input, variable, node };
  struct Step {
    std::string name;    // field steps
    NodePtr index;       // index steps
    SlotCache cache;     // field steps
    int column = 0;      // index steps: where a bad index is reported
    bool field = false;  //
    // Index steps with a constant int (`window[-4]`): read without evaluating the index.
    bool constant_int = false;
    std::int64_t constant_index = 0;
  };
  PathNode(Root root, std::size_t variable, NodePtr base, int column);
  [[gnu::noinline]] const Value& get_by_walking(const Context& ctx, Value& scratch) const;
  // Follows the steps from `root`; a value made along the way (a character of a string) is
  // kept in `scratch`.
  const Value& walk(const Value& root, const Context& ctx, Value& scratch) const;
  const Value* index_into(const Value& container, const Step& step, const Context& ctx,
                          Value& scratch) const;

  Root root_;
  std::size_t variable_;
  NodePtr base_;
  std::vector<Step> steps_;
  bool one_field_ = false;  // the steps are one field step (get reads it without walk)
};

NodePtr make_constant(Value value, int column);
// `base/name` and `base[index]`, extending `base` when it already is a path and folding constants.
// A field step on a constant that is not a record is a compile error (it usually is a division
// written without spaces, like `10/x`).
NodePtr make_field(NodePtr base, std::string name, int column);
NodePtr make_index(NodePtr base, NodePtr index, int column);
NodePtr make_arith(ArithOp op, NodePtr lhs, NodePtr rhs, int column);
NodePtr make_negate(NodePtr operand, int column);
NodePtr make_compare(CompareOp op, NodePtr lhs, NodePtr rhs, int column);
NodePtr make_not(NodePtr operand, int column);
NodePtr make_and(NodePtr lhs, NodePtr rhs, int column);
NodePtr make_or(NodePtr lhs, NodePtr rhs, int column);
NodePtr make_conditional(NodePtr condition, NodePtr then, NodePtr otherwise, int column);
NodePtr make_call(const FunctionInfo& function, std::vector<NodePtr> args, int column);
NodePtr make_array(std::vector<NodePtr> items, int column);
NodePtr make_record(const Schema* schema, std::vector<NodePtr> slots, int column);

}  // namespace cwf::expr
