#include "actors/split.hpp"

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

Split::Split(std::optional<Expression> path, std::optional<Expression> each)
    : Actor(kPorts), path_(std::move(path)), each_(std::move(each)) {}

const ExprEnvironment& Split::each_environment() {
  static const ExprEnvironment env{"element", "index"};
  return env;
}

void Split::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    Value selected;
    const Value* array = &event.token;
    if (path_) {
      try {
        selected = path_->evaluate(event.token);
      } catch (const ExprError& e) {
        context.report_error(std::string("path: ") + e.what());
        continue;
      }
      array = &selected;
    }
    if (!array->is_array()) {
      context.report_error("split: expected an array, got " +
                           std::string(kind_name(array->kind())));
      continue;
    }
    const auto& elements = array->as_array();
    for (std::size_t i = 0; i < elements.size(); ++i) {
      if (!each_) {
        context.emit(elements[i]);
        continue;
      }
      Value vars[2] = {elements[i], Value(static_cast<std::int64_t>(i))};
      try {
        context.emit(each_->evaluate(event.token, Variables(vars, 2)));
      } catch (const ExprError& e) {
        // Counted; the other elements still go on, and the wave ends at the last one made.
        context.report_error(std::string("each: ") + e.what());
      }
    }
  }
}

ActorType split_type() {
  return make_type(
      "split",
      "Emits one event per element of an array token; the events are sub-waves of the token's.",
      {{"path", ParamType::expression, Value(),
        "expression selecting the array in the token, e.g. /items; not set: the token itself. "
        "A token where it is not an array is dropped and counted as an error"},
       {"each", ParamType::expression, Value(),
        "what each element becomes, over the token (/), `element` and its 0-based `index`, e.g. "
        "{order: /order, item: element}; not set: the element itself"}},
      Split::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::optional<Expression> path;
        if (is_set(params, "path")) path = compile_param(params, "path");
        std::optional<Expression> each;
        if (is_set(params, "each")) each = compile_param(params, "each", Split::each_environment());
        return std::make_unique<Split>(std::move(path), std::move(each));
      });
}

}  // namespace cwf::actors
