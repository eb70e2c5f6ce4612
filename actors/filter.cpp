#include "actors/filter.hpp"

#include "actors/actor_type_util.hpp"
#include "actors/window_variables.hpp"

namespace cwf::actors {

Filter::Filter(Expression where) : Actor(kPorts), where_(std::move(where)) {}

void Filter::fire(FiringContext& context) {
  const WindowBinding binding(where_, context.window_info());
  for (const Event& event : context.window()) {
    try {
      if (where_.matches(event.token, binding.variables())) context.emit(event.token);
    } catch (const ExprError& e) {
      context.report_error(std::string("where: ") + e.what());
    }
  }
}

void Filter::adopt_parameter(std::string_view param, Actor& rebuilt) {
  if (param == "where") where_ = static_cast<Filter&>(rebuilt).where_;
}

ActorType filter_type() {
  return make_type(
      "filter", "Passes on the tokens for which an expression is true.",
      {{"where", ParamType::expression, std::nullopt,
        "the condition, e.g. /speed > 50 and /lane == 2; a token for which it "
        "fails (type error) is dropped and counted as an error",
        /*changeable=*/true}},
      Filter::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        return std::make_unique<Filter>(compile_param(params, "where", window_environment()));
      });
}

}  // namespace cwf::actors
