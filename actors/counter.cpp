#include "actors/counter.hpp"

#include "actors/actor_type_util.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

Counter::Counter() : Actor(kPorts) {}

void Counter::initialize(ActorContext&) {
  count_ = 0;
}

void Counter::fire(FiringContext& context) {
  count_ += static_cast<std::int64_t>(context.window().size());
  context.emit(Value(count_));
}

void Counter::save_state(SnapshotWriter& out, ActorContext&) {
  out.write_i64(count_);
}

void Counter::restore_state(SnapshotReader& in, ActorContext&) {
  count_ = in.read_i64("the count");
}

ActorType counter_type() {
  return make_type("counter",
                   "Counts the events it receives and emits the running count as an int: 1, 2, "
                   "3, ... (one output per window; a window of n events adds n).",
                   {}, Counter::kPorts, [](const Params&) -> std::unique_ptr<Actor> {
                     return std::make_unique<Counter>();
                   });
}

}  // namespace cwf::actors
