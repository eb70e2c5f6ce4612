#include "actors/tap.hpp"

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

Tap::Tap(std::optional<Expression> where) : Actor(kPorts), where_(std::move(where)) {}

void Tap::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    context.emit(kOut, event.token);
    bool copy = true;
    if (where_) {
      try {
        copy = where_->matches(event.token);
      } catch (const ExprError& e) {
        context.report_error(std::string("where: ") + e.what());
        copy = false;
      }
    }
    if (copy) context.emit(kTap, event.token);
  }
}

void Tap::adopt_parameter(std::string_view param, Actor& rebuilt) {
  if (param == "where") where_ = static_cast<Tap&>(rebuilt).where_;
}

ActorType tap_type() {
  return make_type(
      "tap",
      "Passes tokens through unchanged and copies those matching a condition to a second "
      "output: a view of the data at that point of the workflow.",
      {{"where", ParamType::expression, Value(),
        "which tokens to copy to `tap`; not set: all. A token for which it fails is still "
        "passed on `out`, not copied, and counted as an error",
        /*changeable=*/true}},
      Tap::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::optional<Expression> where;
        if (is_set(params, "where")) where = compile_param(params, "where");
        return std::make_unique<Tap>(std::move(where));
      });
}

}  // namespace cwf::actors
