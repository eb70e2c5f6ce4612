// Recursive-descent parser from expression source to a tree of evaluation nodes.
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/expressions/expr_nodes.hpp"
#include "runtime/expressions/expression.hpp"

namespace cwf::expr {

struct ParseResult {
  NodePtr root;
  std::size_t variables_needed = 0;  // one more than the highest variable index used
};

// Throws ExprError with the column of the first problem.
ParseResult parse(std::string_view source, const ExprEnvironment& env);

}  // namespace cwf::expr
