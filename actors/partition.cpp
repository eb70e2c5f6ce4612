#include "actors/partition.hpp"

#include "actors/actor_type_util.hpp"
#include "runtime/values/mix64.hpp"

namespace cwf::actors {

namespace {
constexpr std::int64_t kMaxOutputs = 1024;
}  // namespace

Partition::Partition(Expression by, int outputs)
    : Actor(kPorts), by_(std::move(by)), outputs_(outputs) {
  for (int i = 0; i < outputs; ++i)
    add_family_output(kOutput, std::to_string(i));
}

int Partition::output_for(const Value& key, int outputs) {
  // Mixed: small integer keys hash to themselves and would go round the outputs in turn.
  return static_cast<int>(mix64(key.hash()) % static_cast<std::uint64_t>(outputs));
}

void Partition::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    try {
      context.emit(output_for(by_.evaluate(event.token), outputs_), event.token);
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
       {"outputs", ParamType::integer, Value(2), "number of output ports, named out0, out1, ..."}},
      Partition::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::int64_t outputs = params.get_int("outputs");
        if (outputs < 1 || outputs > kMaxOutputs)
          throw ParamError("outputs",
                           "outputs must be between 1 and " + std::to_string(kMaxOutputs));
        return std::make_unique<Partition>(compile_param(params, "by"), static_cast<int>(outputs));
      });
}

}  // namespace cwf::actors
