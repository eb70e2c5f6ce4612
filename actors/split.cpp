#include "actors/split.hpp"

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

Split::Split(std::optional<Expression> path) : Actor(kPorts), path_(std::move(path)) {}

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
    for (const Value& item : array->as_array())
      context.emit(item);
  }
}

ActorType split_type() {
  return make_type(
      "split",
      "Emits one event per element of an array token; the events are sub-waves of the token's.",
      {{"path", ParamType::expression, Value(),
        "expression selecting the array in the token, e.g. /items; not set: the token itself. "
        "A token where it is not an array is dropped and counted as an error"}},
      Split::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::optional<Expression> path;
        if (is_set(params, "path")) path = compile_param(params, "path");
        return std::make_unique<Split>(std::move(path));
      });
}

}  // namespace cwf::actors
