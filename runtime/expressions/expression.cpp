#include "runtime/expressions/expression.hpp"

#include "runtime/expressions/expr_lexer.hpp"
#include "runtime/expressions/expr_nodes.hpp"
#include "runtime/expressions/expr_parser.hpp"

namespace cwf {

ExprError::ExprError(std::string message_text, int column_number)
    : message(std::move(message_text)), column(column_number) {
  what_ = column > 0 ? "column " + std::to_string(column) + ": " + message : message;
}

// ---- ExprEnvironment ----

ExprEnvironment::ExprEnvironment(std::initializer_list<std::string_view> variables) {
  for (std::string_view name : variables)
    declare(name);
}

std::size_t ExprEnvironment::declare(std::string_view name) {
  if (int existing = index_of(name); existing >= 0) return static_cast<std::size_t>(existing);
  bool valid = !name.empty() && expr::is_identifier_start(name.front());
  for (char c : name)
    valid = valid && expr::is_identifier_char(c);
  if (!valid || name == "and" || name == "or" || name == "not" || name == "true" ||
      name == "false" || name == "null")
    throw ExprError("'" + std::string(name) + "' cannot be a variable name", 0);
  variables_.emplace_back(name);
  return variables_.size() - 1;
}

int ExprEnvironment::index_of(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < variables_.size(); ++i)
    if (variables_[i] == name) return static_cast<int>(i);
  return -1;
}

// ---- Expression ----

namespace {
std::shared_ptr<const expr::Node> null_node() {
  static const std::shared_ptr<const expr::Node> node = expr::make_constant(Value(), 1);
  return node;
}
}  // namespace

Expression::Expression() : root_(null_node()), source_("null") {}

Expression::Expression(std::shared_ptr<const expr::Node> root, std::string source,
                       std::size_t variables_needed)
    : root_(std::move(root)), source_(std::move(source)), variables_needed_(variables_needed) {}

Expression Expression::compile(std::string_view source, const ExprEnvironment& env) {
  expr::ParseResult parsed = expr::parse(source, env);
  return Expression(std::shared_ptr<const expr::Node>(std::move(parsed.root)), std::string(source),
                    parsed.variables_needed);
}

void Expression::check_variables(const Variables& vars) const {
  if (vars.size() < variables_needed_)
    throw ExprError("expression '" + source_ + "' needs " + std::to_string(variables_needed_) +
                        " variable values but was given " + std::to_string(vars.size()),
                    0);
}

Value Expression::evaluate(const Value& input) const {
  return evaluate(input, Variables());
}

Value Expression::evaluate(const Value& input, const Variables& vars) const {
  check_variables(vars);
  return root_->eval(expr::Context{input, vars});
}

bool Expression::matches(const Value& input) const {
  return matches(input, Variables());
}

bool Expression::matches(const Value& input, const Variables& vars) const {
  check_variables(vars);
  Value scratch;
  return root_->get(expr::Context{input, vars}, scratch).truthy();
}

bool Expression::is_constant() const noexcept {
  return root_->constant() != nullptr;
}

}  // namespace cwf
