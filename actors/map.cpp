#include "actors/map.hpp"

#include "actors/actor_type_util.hpp"
#include "actors/window_variables.hpp"

namespace cwf::actors {

Map::Map(Expression expression) : Actor(kPorts), expression_(std::move(expression)) {}

void Map::fire(FiringContext& context) {
  const WindowBinding binding(expression_, context.window_info());
  for (const Event& event : context.window()) {
    try {
      context.emit(expression_.evaluate(event.token, binding.variables()));
    } catch (const ExprError& e) {
      context.report_error(std::string("expression: ") + e.what());
    }
  }
}

ActorType map_type() {
  return make_type(
      "map", "Emits the value of an expression over each token.",
      {{"expression", ParamType::expression, std::nullopt,
        "the new token, e.g. {id: /id, kmh: /speed * 3.6}; a token for which it "
        "fails is dropped and counted as an error"}},
      Map::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        return std::make_unique<Map>(compile_param(params, "expression", window_environment()));
      });
}

}  // namespace cwf::actors
