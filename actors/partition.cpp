#include "actors/partition.hpp"

#include "actors/actor_type_util.hpp"
#include "runtime/values/mix64.hpp"

namespace cwf::actors {

namespace {
constexpr std::int64_t kMaxOutputs = 1024;
}  // namespace

Partition::Partition(Expression by, int outputs, How how, std::optional<Expression> broadcast_when)
    : Actor(kPorts),
      by_(std::move(by)),
      outputs_(outputs),
      how_(how),
      broadcast_when_(std::move(broadcast_when)) {
  for (int i = 0; i < outputs; ++i)
    add_family_output(kOutput, std::to_string(i));
}

int Partition::output_for(const Value& key, int outputs) {
  // Mixed: small integer keys hash to themselves and would go round the outputs in turn.
  return static_cast<int>(mix64(key.hash()) % static_cast<std::uint64_t>(outputs));
}

int Partition::output_for_number(const Value& key, int outputs) {
  if (!key.is_int())
    throw ExprError("with how: modulo the key must be a whole number, got " + key.to_json(), 0);
  const std::int64_t n = outputs;
  return static_cast<int>(((key.as_int() % n) + n) % n);
}

void Partition::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    try {
      if (broadcast_when_ && broadcast_when_->evaluate(event.token).truthy()) {
        for (int output = 0; output < outputs_; ++output)
          context.emit(output, event.token);
        continue;
      }
    } catch (const ExprError& e) {
      context.report_error(std::string("broadcast_when: ") + e.what());
      continue;
    }
    try {
      Value key = by_.evaluate(event.token);
      context.emit(
          how_ == How::modulo ? output_for_number(key, outputs_) : output_for(key, outputs_),
          event.token);
    } catch (const ExprError& e) {
      context.report_error(std::string("by: ") + e.what());
    }
  }
}

ActorType partition_type() {
  return make_type(
      "partition",
      "Sends each event to one of its outputs by the hash of a key: one key, one output, in "
      "order.",
      {{"by", ParamType::expression, std::nullopt,
        "the key, e.g. /car or [/xway, /dir]; an event for which it fails is counted as an "
        "error"},
       {"outputs", ParamType::integer, Value(2), "number of output ports, named out0, out1, ..."},
       {"how", ParamType::string, Value("hash"),
        "hash: by the key's hash; modulo: the key (a whole number) modulo the number of outputs, "
        "which spreads a few dense keys evenly"},
       {"broadcast_when", ParamType::expression, Value(),
        "events for which it holds go to every "
        "output, in their place among the others (e.g. /type == \"control\"); empty: none"}},
      Partition::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::int64_t outputs = params.get_int("outputs");
        if (outputs < 1 || outputs > kMaxOutputs)
          throw ParamError("outputs",
                           "outputs must be between 1 and " + std::to_string(kMaxOutputs));
        const std::string how = params.get_string("how");
        if (how != "hash" && how != "modulo")
          throw ParamError("how", "expected hash or modulo, got '" + how + "'");
        std::optional<Expression> broadcast_when;
        if (is_set(params, "broadcast_when"))
          broadcast_when = compile_param(params, "broadcast_when");
        return std::make_unique<Partition>(
            compile_param(params, "by"), static_cast<int>(outputs),
            how == "modulo" ? Partition::How::modulo : Partition::How::hash,
            std::move(broadcast_when));
      });
}

}  // namespace cwf::actors
