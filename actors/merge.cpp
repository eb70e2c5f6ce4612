#include "actors/merge.hpp"

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

namespace {
constexpr std::int64_t kMaxInputs = 1024;
}

Merge::Merge(int inputs) : Actor(kPorts) {
  for (int i = 0; i < inputs; ++i)
    add_family_input(kInput, std::to_string(i));
}

void Merge::fire(FiringContext& context) {
  for (const Event& event : context.window())
    context.emit(event.token);
}

ActorType merge_type() {
  return make_type(
      "merge", "Forwards the tokens of several input ports on one output.",
      {{"inputs", ParamType::integer, Value(2), "number of input ports, named in0, in1, ..."}},
      Merge::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::int64_t inputs = params.get_int("inputs");
        if (inputs < 1 || inputs > kMaxInputs)
          throw ParamError("inputs", "inputs must be between 1 and " + std::to_string(kMaxInputs));
        return std::make_unique<Merge>(static_cast<int>(inputs));
      });
}

}  // namespace cwf::actors
