// The built-in functions of the expression language (len, sum, lower, ...).
//
// Each function is a plain C++ function over already-evaluated arguments; the compiler checks the
// argument count, and the implementation checks kinds and throws ExprError at the call's column.
// `if` is not in this table: it evaluates lazily and is compiled to a conditional node instead.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "runtime/expressions/expr_operators.hpp"
#include "runtime/values/value.hpp"

namespace cwf::expr {

// The evaluated arguments of one call, as pointers so that no Value has to be copied.
class Args {
 public:
  Args(const Value* const* items, std::size_t size) : items_(items), size_(size) {}
  std::size_t size() const { return size_; }
  const Value& operator[](std::size_t i) const { return *items_[i]; }

 private:
  const Value* const* items_;
  std::size_t size_;
};

using FunctionImpl = Value (*)(Args args, int column);

struct FunctionInfo {
  std::string_view name;
  int min_args;
  int max_args;  // -1: any number
  KindSet result;
  FunctionImpl impl;
};

// nullptr when there is no such function.
const FunctionInfo* find_function(std::string_view name);
std::span<const FunctionInfo> builtin_functions();

}  // namespace cwf::expr
