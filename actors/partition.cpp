#include "actors/partition.hpp"

#include <stdexcept>

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

namespace {
constexpr std::int64_t kMaxOutputs = 1024;
}  // namespace

Partition::Partition(std::shared_ptr<const RouteRule> rule)
    : Actor(kPorts), rule_(std::move(rule)) {
  for (int i = 0; i < rule_->receivers(); ++i)
    add_family_output(kOutput, std::to_string(i));
}

void Partition::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    int output;
    try {
      output = rule_->choose(event.token);
    } catch (const ExprError& e) {
      context.report_error(e.what());
      continue;
    }
    if (output != RouteRule::kEveryReceiver) {
      context.emit(output, event.token);
      continue;
    }
    for (int each = 0; each < rule_->receivers(); ++each)
      context.emit(each, event.token);
  }
}

ActorType partition_type() {
  return make_type(
      "partition",
      "Sends each event to one of its outputs by a key: one key, one output, in order.",
      {{"by", ParamType::expression, std::nullopt,
        "the key, e.g. /car or [/xway, /dir]; an event for which it fails is counted as an "
        "error"},
       {"outputs", ParamType::integer, Value(2), "number of output ports, named out0, out1, ..."},
       {"how", ParamType::string, Value("hash"),
        "hash: by the key's hash; modulo: the key (a whole number) modulo the number of outputs, "
        "which spreads a few dense keys evenly"},
       {"broadcast_when", ParamType::expression, Value(),
        "events for which it holds go to every output, in their place among the others (e.g. "
        "/type == \"control\"); empty: none"}},
      Partition::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::int64_t outputs = params.get_int("outputs");
        if (outputs < 1 || outputs > kMaxOutputs)
          throw ParamError("outputs",
                           "outputs must be between 1 and " + std::to_string(kMaxOutputs));
        RouteRule::How how;
        try {
          how = RouteRule::how_named(params.get_string("how"));
        } catch (const std::invalid_argument& e) {
          throw ParamError("how", e.what());
        }
        std::optional<Expression> broadcast_when;
        if (is_set(params, "broadcast_when"))
          broadcast_when = compile_param(params, "broadcast_when");
        return std::make_unique<Partition>(std::make_shared<const RouteRule>(
            compile_param(params, "by"), static_cast<int>(outputs), how,
            std::move(broadcast_when)));
      });
}

}  // namespace cwf::actors
