#include "actors/expression_actor.hpp"

#include <algorithm>
#include <vector>

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

const ExprEnvironment& expression_actor_environment() {
  static const ExprEnvironment env = [] {
    ExprEnvironment e{"window", "event"};
    declare_window_variables(e);
    return e;
  }();
  return env;
}

ExpressionActor::ExpressionActor(std::optional<Expression> when, Expression emit)
    : Actor(kPorts),
      when_(std::move(when)),
      emit_(std::move(emit)),
      variables_needed_(std::max(emit_.variables_needed(), when_ ? when_->variables_needed() : 0)) {
}

ExpressionActor::~ExpressionActor() {
  // Bound here only if a way out of prefire or fire missed unbind(): the borrowed tokens must
  // not be released with the array.
  unbind();
}

void ExpressionActor::bind(FiringContext& context) {
  vars_[1] = context.window().empty() ? Value() : context.window().back().token;
  if (variables_needed_ > 2)
    bind_window_variables(context.window_info(), std::span<Value, kWindowVariables>(vars_ + 2, 3));
  // `window` borrows the tokens of the window's events, which stay in the receiver until the
  // firing is over: no reference counts written (each a cache miss on an event that may not be
  // read at all), one allocation. Made last, so that nothing that may throw comes after it;
  // ended by unbind() on every way out of prefire and fire.
  token_refs_.clear();
  for (const Event& event : context.window())
    token_refs_.push_back(&event.token);
  vars_[0] = Value::borrowing_array(token_refs_);
}

void ExpressionActor::unbind() noexcept {
  if (vars_[0].is_array()) vars_[0].end_borrow();  // bound: `window` is the borrowing array
  for (Value& v : vars_)
    v = Value();
}

bool ExpressionActor::prefire(FiringContext& context) {
  bind(context);
  bool holds = false;
  try {
    holds = !when_ || when_->matches(vars_[1], Variables(vars_, variables_needed_));
  } catch (const ExprError& e) {
    context.report_error(std::string("when: ") + e.what());
  } catch (...) {
    unbind();
    throw;
  }
  if (!holds) unbind();  // else fire() comes next
  return holds;
}

void ExpressionActor::fire(FiringContext& context) {
  try {
    Value result = emit_.evaluate(vars_[1], Variables(vars_, variables_needed_));
    if (!result.is_null()) context.emit(std::move(result));
  } catch (const ExprError& e) {
    context.report_error(std::string("emit: ") + e.what());
  } catch (...) {
    unbind();  // an emitted window takes its references before the events may go
    throw;
  }
  unbind();
}

ActorType expression_actor_type() {
  return make_type(
      "expression",
      "Fires on a whole window: if the precondition `when` holds, emits the value of `emit`; "
      "otherwise declines the window, which a delete-used window then keeps.",
      {{"when", ParamType::expression, Value(),
        "precondition over `window` (the tokens, an array), `event` (the last token, also "
        "`/`), window_start, window_end (the window's bounds, ns) and group (its key), e.g. "
        "len(window) >= 2; not set: every window is accepted. A window for which it "
        "is false or fails is declined (not fired on, its events not deleted)"},
       {"emit", ParamType::expression, std::nullopt,
        "the token emitted for an accepted window, e.g. {item: /item, count: len(window)}; a "
        "null value emits nothing; a window for which it fails emits nothing and counts as an "
        "error"}},
      ExpressionActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::optional<Expression> when;
        if (is_set(params, "when"))
          when = compile_param(params, "when", expression_actor_environment());
        return std::make_unique<ExpressionActor>(
            std::move(when), compile_param(params, "emit", expression_actor_environment()));
      });
}

}  // namespace cwf::actors
