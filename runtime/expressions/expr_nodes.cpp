#include "runtime/expressions/expr_nodes.hpp"

#include <array>
#include <stdexcept>
#include <utility>

#include "runtime/expressions/expr_error.hpp"

namespace cwf::expr {

namespace {

// At namespace scope, not a local static: reading it takes no initialization guard (paths return
// it for every missing field). Nothing evaluates an expression before main.
const Value kNullValue;

const Value& null_value() {
  return kNullValue;
}

// What comparisons and logic return: nothing is written to the caller's scratch value.
const Value kTrueValue(true);
const Value kFalseValue(false);
const Value& bool_value(bool b) {
  return b ? kTrueValue : kFalseValue;
}

// ---- Constants and folding ----

class ConstantNode final : public Node {
 public:
  ConstantNode(Value value, int column)
      : Node(column, kind_bit(value.kind())), value_(std::move(value)) {}
  const Value& get(const Context&, Value&) const override { return value_; }
  const Value* constant() const override { return &value_; }

 private:
  Value value_;
};

// Evaluates a node whose operands are all constants and replaces it by its value. Errors that the
// evaluation throws surface as compile errors at the node's column.
NodePtr fold(NodePtr node) {
  Context ctx{null_value(), {}};
  int column = node->column();
  return make_constant(node->eval(ctx), column);
}

bool all_constant(const std::vector<NodePtr>& nodes) {
  for (const NodePtr& n : nodes)
    if (!n->constant()) return false;
  return true;
}

// ---- Operators ----

template <ArithOp Op>
class ArithNode final : public Node {
 public:
  ArithNode(NodePtr lhs, NodePtr rhs, int column, KindSet kinds)
      : Node(column, kinds), lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}

  const Value& get(const Context& ctx, Value& scratch) const override {
    Value ls, rs;
    const Value& a = lhs_->get(ctx, ls);
    const Value& b = rhs_->get(ctx, rs);
    if (a.is_int() && b.is_int() && int_arith(Op, a.as_int(), b.as_int(), scratch)) return scratch;
    scratch = arith(Op, a, b, column());
    return scratch;
  }

 private:
  NodePtr lhs_, rhs_;
};

class NegateNode final : public Node {
 public:
  NegateNode(NodePtr operand, int column)
      : Node(column, static_cast<KindSet>(operand->kinds() & (kNumberKinds | kNullKind))),
        operand_(std::move(operand)) {}

  const Value& get(const Context& ctx, Value& scratch) const override {
    Value tmp;
    scratch = negate(operand_->get(ctx, tmp), column());
    return scratch;
  }

 private:
  NodePtr operand_;
};

class CompareNode final : public Node {
 public:
  CompareNode(CompareOp op, NodePtr lhs, NodePtr rhs, int column)
      : Node(column, kBoolKind), op_(op), lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}

  const Value& get(const Context& ctx, Value& scratch) const override {
    Value rs;  // the left operand may use `scratch`: what is returned is a constant
    return bool_value(compare_holds(op_, lhs_->get(ctx, scratch), rhs_->get(ctx, rs), column()));
  }

 private:
  CompareOp op_;
  NodePtr lhs_, rhs_;
};

// A comparison with a constant, the common shape of filters (`/speed > 50`): one operand to
// evaluate and no second virtual call. The operands keep their written order, so that an error
// message shows `30 < 'n/a'` as written.
template <bool ConstantOnLeft>
class CompareConstantNode final : public Node {
 public:
  CompareConstantNode(CompareOp op, NodePtr operand, Value constant, int column)
      : Node(column, kBoolKind),
        op_(op),
        operand_(std::move(operand)),
        constant_(std::move(constant)) {}

  const Value& get(const Context& ctx, Value& scratch) const override {
    const Value& operand = operand_->get(ctx, scratch);
    return bool_value(ConstantOnLeft ? compare_holds(op_, constant_, operand, column())
                                     : compare_holds(op_, operand, constant_, column()));
  }

 private:
  CompareOp op_;
  NodePtr operand_;
  Value constant_;
};

class NotNode final : public Node {
 public:
  NotNode(NodePtr operand, int column) : Node(column, kBoolKind), operand_(std::move(operand)) {}

  const Value& get(const Context& ctx, Value& scratch) const override {
    return bool_value(!operand_->get(ctx, scratch).truthy());
  }

 private:
  NodePtr operand_;
};

// `and` (IsOr false) and `or` (IsOr true); the right operand is evaluated only when needed.
template <bool IsOr>
class LogicNode final : public Node {
 public:
  LogicNode(NodePtr lhs, NodePtr rhs, int column)
      : Node(column, kBoolKind), lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}

  const Value& get(const Context& ctx, Value& scratch) const override {
    // Each operand's truth is taken before the next may reuse `scratch`.
    if (lhs_->get(ctx, scratch).truthy() == IsOr) return bool_value(IsOr);
    return bool_value(rhs_->get(ctx, scratch).truthy());
  }

 private:
  NodePtr lhs_, rhs_;
};

class ConditionalNode final : public Node {
 public:
  ConditionalNode(NodePtr condition, NodePtr then, NodePtr otherwise, int column)
      : Node(column, static_cast<KindSet>(then->kinds() | otherwise->kinds())),
        condition_(std::move(condition)),
        then_(std::move(then)),
        otherwise_(std::move(otherwise)) {}

  const Value& get(const Context& ctx, Value& scratch) const override {
    const bool chosen = condition_->get(ctx, scratch).truthy();  // taken before the branch runs
    return (chosen ? then_ : otherwise_)->get(ctx, scratch);
  }

 private:
  NodePtr condition_, then_, otherwise_;
};

class CallNode final : public Node {
 public:
  CallNode(const FunctionInfo& function, std::vector<NodePtr> args, int column)
      : Node(column, function.result), function_(function), args_(std::move(args)) {}

  const Value& get(const Context& ctx, Value& scratch) const override {
    constexpr std::size_t kInline = 4;
    std::size_t n = args_.size();
    if (n <= kInline) {
      std::array<Value, kInline> values;
      std::array<const Value*, kInline> pointers;
      for (std::size_t i = 0; i < n; ++i)
        pointers[i] = &args_[i]->get(ctx, values[i]);
      scratch = call(Args(pointers.data(), n));
      return scratch;
    }
    std::vector<Value> values(n);
    std::vector<const Value*> pointers(n);
    for (std::size_t i = 0; i < n; ++i)
      pointers[i] = &args_[i]->get(ctx, values[i]);
    scratch = call(Args(pointers.data(), n));
    return scratch;
  }

 private:
  Value call(Args args) const {
    try {
      return function_.impl(args, column());
    } catch (const TypeError& e) {
      throw ExprError(std::string(function_.name) + "(): " + e.what(), column());
    }
  }

  const FunctionInfo& function_;
  std::vector<NodePtr> args_;
};

class ArrayNode final : public Node {
 public:
  ArrayNode(std::vector<NodePtr> items, int column)
      : Node(column, kArrayKind), items_(std::move(items)) {}

  const Value& get(const Context& ctx, Value& scratch) const override {
    scratch = Value::array_made(items_.size(), [&](std::size_t i) { return items_[i]->eval(ctx); });
    return scratch;
  }

 private:
  std::vector<NodePtr> items_;
};

class RecordNode final : public Node {
 public:
  RecordNode(const Schema* schema, std::vector<NodePtr> slots, int column)
      : Node(column, kRecordKind), schema_(schema), slots_(std::move(slots)) {
    // record_made makes one slot per field of the schema.
    if (slots_.size() != schema_->size())
      throw std::logic_error("record: slot count does not match schema");
  }

  const Value& get(const Context& ctx, Value& scratch) const override {
    scratch = Value::record_made(schema_, [&](std::size_t i) { return slots_[i]->eval(ctx); });
    return scratch;
  }

 private:
  const Schema* schema_;
  std::vector<NodePtr> slots_;
};

}  // namespace

// ---- Paths ----

PathNode::PathNode(Root root, std::size_t variable, NodePtr base, int column)
    : Node(column, kAnyKind), root_(root), variable_(variable), base_(std::move(base)) {}

std::unique_ptr<PathNode> PathNode::on_input(int column) {
  return std::unique_ptr<PathNode>(new PathNode(Root::input, 0, nullptr, column));
}

std::unique_ptr<PathNode> PathNode::on_variable(std::size_t index, int column) {
  return std::unique_ptr<PathNode>(new PathNode(Root::variable, index, nullptr, column));
}

std::unique_ptr<PathNode> PathNode::on_node(NodePtr base, int column) {
  return std::unique_ptr<PathNode>(new PathNode(Root::node, 0, std::move(base), column));
}

void PathNode::add_field(std::string name) {
  Step step;
  step.name = std::move(name);
  step.field = true;
  steps_.push_back(std::move(step));
  one_field_ = steps_.size() == 1;
}

void PathNode::add_index(NodePtr index, int column) {
  Step step;
  // A constant string key on a record can use the slot cache like a field step does.
  if (const Value* key = index->constant(); key && key->is_string()) step.name = key->as_string();
  if (const Value* key = index->constant(); key && key->is_int()) {
    step.constant_int = true;
    step.constant_index = key->as_int();
  }
  step.index = std::move(index);
  step.column = column;
  steps_.push_back(std::move(step));
  one_field_ = false;
}

const Value* PathNode::index_into(const Value& container, const Step& step, const Context& ctx,
                                  Value& scratch) const {
  Value tmp;
  const Value& index = step.index->get(ctx, tmp);
  if (index.is_null()) return nullptr;
  if (container.is_array()) {
    if (!index.is_int())
      throw ExprError("array index must be an int, got " + std::string(kind_name(index.kind())),
                      step.column);
    auto items = container.as_array();
    auto size = static_cast<std::int64_t>(items.size());
    std::int64_t i = index.as_int();
    if (i < 0) i += size;
    if (i < 0 || i >= size) return nullptr;
    return &items[static_cast<std::size_t>(i)];
  }
  if (container.is_record()) {
    if (!index.is_string())
      throw ExprError("record index must be a string, got " + std::string(kind_name(index.kind())),
                      step.column);
    const Schema* schema = container.schema();
    int slot =
        step.name.empty() ? schema->slot(index.as_string()) : step.cache.slot(schema, step.name);
    return slot < 0 ? nullptr : &container.slots()[static_cast<std::size_t>(slot)];
  }
  if (container.is_string()) {
    if (!index.is_int())
      throw ExprError("string index must be an int, got " + std::string(kind_name(index.kind())),
                      step.column);
    std::string_view text = container.as_string();
    auto size = static_cast<std::int64_t>(text.size());
    std::int64_t i = index.as_int();
    if (i < 0) i += size;
    if (i < 0 || i >= size) return nullptr;
    // A new value; `container` may be `scratch` itself, so build it before assigning.
    Value character(text.substr(static_cast<std::size_t>(i), 1));
    scratch = std::move(character);
    return &scratch;
  }
  return nullptr;  // bool and numbers have no elements
}

const Value& PathNode::get(const Context& ctx, Value& scratch) const {
  if (one_field_ && root_ != Root::node) [[likely]] {
    // `/name` or `var/name`, most paths: one slot read, without the walk over the steps. The
    // rest is another function, so that this one needs no stack frame.
    const Value& root = root_ == Root::input ? ctx.input : ctx.variables[variable_];
    if (!root.is_record()) return null_value();
    const Step& step = steps_.front();
    const int slot = step.cache.slot(root.schema(), step.name);
    return slot < 0 ? null_value() : root.slots()[static_cast<std::size_t>(slot)];
  }
  return get_by_walking(ctx, scratch);
}

const Value& PathNode::get_by_walking(const Context& ctx, Value& scratch) const {
  switch (root_) {
    case Root::input:
      return walk(ctx.input, ctx, scratch);
    case Root::variable:
      return walk(ctx.variables[variable_], ctx, scratch);
    case Root::node:
      break;
  }
  // The base value dies with this frame, so a result taken from it goes out through `scratch`.
  Value base;
  const Value& result = walk(base_->get(ctx, base), ctx, scratch);
  if (&result != &scratch) scratch = result;
  return scratch;
}

const Value& PathNode::walk(const Value& root, const Context& ctx, Value& scratch) const {
  const Value* current = &root;
  for (const Step& step : steps_) {
    if (step.field) {
      if (!current->is_record()) return null_value();
      int slot = step.cache.slot(current->schema(), step.name);
      if (slot < 0) return null_value();
      current = &current->slots()[static_cast<std::size_t>(slot)];
    } else if (step.constant_int && current->is_array()) {
      std::span<const Value> items = current->as_array();
      const auto size = static_cast<std::int64_t>(items.size());
      const std::int64_t i =
          step.constant_index < 0 ? step.constant_index + size : step.constant_index;
      if (i < 0 || i >= size) return null_value();
      current = &items[static_cast<std::size_t>(i)];
    } else {
      if (current->is_null()) return null_value();
      current = index_into(*current, step, ctx, scratch);
      if (current == nullptr) return null_value();
    }
  }
  return *current;
}

// ---- Factories ----

NodePtr make_constant(Value value, int column) {
  return std::make_unique<ConstantNode>(std::move(value), column);
}

NodePtr make_field(NodePtr base, std::string name, int column) {
  if (auto* path = dynamic_cast<PathNode*>(base.get())) {
    path->add_field(std::move(name));
    return base;
  }
  if (const Value* value = base->constant()) {
    if (!value->is_record())
      throw ExprError("cannot read field '" + name + "' of " +
                          std::string(kind_name(value->kind())) +
                          "; to divide, put spaces around '/'",
                      column);
    const Value* field = value->field(name);
    return make_constant(field ? *field : Value(), column);
  }
  auto path = PathNode::on_node(std::move(base), column);
  path->add_field(std::move(name));
  return path;
}

NodePtr make_index(NodePtr base, NodePtr index, int column) {
  bool constant = base->constant() && index->constant();
  if (auto* path = dynamic_cast<PathNode*>(base.get())) {
    path->add_index(std::move(index), column);
    return base;
  }
  auto path = PathNode::on_node(std::move(base), column);
  path->add_index(std::move(index), column);
  if (constant) return fold(std::move(path));
  return path;
}

NodePtr make_arith(ArithOp op, NodePtr lhs, NodePtr rhs, int column) {
  check_arith_kinds(op, lhs->kinds(), rhs->kinds(), column);
  KindSet kinds = arith_kinds(op, lhs->kinds(), rhs->kinds());
  bool constant = lhs->constant() && rhs->constant();
  NodePtr node;
  switch (op) {
    case ArithOp::add:
      node =
          std::make_unique<ArithNode<ArithOp::add>>(std::move(lhs), std::move(rhs), column, kinds);
      break;
    case ArithOp::sub:
      node =
          std::make_unique<ArithNode<ArithOp::sub>>(std::move(lhs), std::move(rhs), column, kinds);
      break;
    case ArithOp::mul:
      node =
          std::make_unique<ArithNode<ArithOp::mul>>(std::move(lhs), std::move(rhs), column, kinds);
      break;
    case ArithOp::div:
      node =
          std::make_unique<ArithNode<ArithOp::div>>(std::move(lhs), std::move(rhs), column, kinds);
      break;
    case ArithOp::mod:
      node =
          std::make_unique<ArithNode<ArithOp::mod>>(std::move(lhs), std::move(rhs), column, kinds);
      break;
  }
  return constant ? fold(std::move(node)) : std::move(node);
}

NodePtr make_negate(NodePtr operand, int column) {
  check_negate_kinds(operand->kinds(), column);
  bool constant = operand->constant() != nullptr;
  NodePtr node = std::make_unique<NegateNode>(std::move(operand), column);
  return constant ? fold(std::move(node)) : std::move(node);
}

NodePtr make_compare(CompareOp op, NodePtr lhs, NodePtr rhs, int column) {
  bool constant = lhs->constant() && rhs->constant();
  // Constants are folded below, with their values in any error message; a literal null is
  // rejected either way.
  if (!constant || lhs->kinds() == kNullKind || rhs->kinds() == kNullKind)
    check_compare_kinds(op, lhs->kinds(), rhs->kinds(), column);
  if (!constant && rhs->constant())
    return std::make_unique<CompareConstantNode<false>>(op, std::move(lhs), *rhs->constant(),
                                                        column);
  if (!constant && lhs->constant())
    return std::make_unique<CompareConstantNode<true>>(op, std::move(rhs), *lhs->constant(),
                                                       column);
  NodePtr node = std::make_unique<CompareNode>(op, std::move(lhs), std::move(rhs), column);
  return constant ? fold(std::move(node)) : std::move(node);
}

NodePtr make_not(NodePtr operand, int column) {
  bool constant = operand->constant() != nullptr;
  NodePtr node = std::make_unique<NotNode>(std::move(operand), column);
  return constant ? fold(std::move(node)) : std::move(node);
}

NodePtr make_and(NodePtr lhs, NodePtr rhs, int column) {
  if (const Value* left = lhs->constant(); left && !left->truthy())
    return make_constant(Value(false), column);
  bool constant = lhs->constant() && rhs->constant();
  NodePtr node = std::make_unique<LogicNode<false>>(std::move(lhs), std::move(rhs), column);
  return constant ? fold(std::move(node)) : std::move(node);
}

NodePtr make_or(NodePtr lhs, NodePtr rhs, int column) {
  if (const Value* left = lhs->constant(); left && left->truthy())
    return make_constant(Value(true), column);
  bool constant = lhs->constant() && rhs->constant();
  NodePtr node = std::make_unique<LogicNode<true>>(std::move(lhs), std::move(rhs), column);
  return constant ? fold(std::move(node)) : std::move(node);
}

NodePtr make_conditional(NodePtr condition, NodePtr then, NodePtr otherwise, int column) {
  if (const Value* c = condition->constant())
    return c->truthy() ? std::move(then) : std::move(otherwise);
  return std::make_unique<ConditionalNode>(std::move(condition), std::move(then),
                                           std::move(otherwise), column);
}

NodePtr make_call(const FunctionInfo& function, std::vector<NodePtr> args, int column) {
  bool constant = all_constant(args);
  NodePtr node = std::make_unique<CallNode>(function, std::move(args), column);
  return constant ? fold(std::move(node)) : std::move(node);
}

NodePtr make_array(std::vector<NodePtr> items, int column) {
  bool constant = all_constant(items);
  NodePtr node = std::make_unique<ArrayNode>(std::move(items), column);
  return constant ? fold(std::move(node)) : std::move(node);
}

NodePtr make_record(const Schema* schema, std::vector<NodePtr> slots, int column) {
  bool constant = all_constant(slots);
  NodePtr node = std::make_unique<RecordNode>(schema, std::move(slots), column);
  return constant ? fold(std::move(node)) : std::move(node);
}

}  // namespace cwf::expr
