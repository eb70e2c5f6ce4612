#include "actors/guards/event_guard.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::guards {

void EventGuard::save_state(SnapshotWriter& out, ActorContext&) {
  out.write_string(event_type_);
  out.write_u64(instances_.size());
  for (const auto& [binding, instance] : instances_) {
    out.write_value(binding);
    instance.positive.save(out);
    instance.negative.save(out);
    out.write_bool(instance.parked.has_value());
    out.write_bool(instance.parked.value_or(false));
    out.write_bool(instance.trigger_wanted);
    out.write_u64(instance.requested.size());
    for (const std::string& request : instance.requested)
      out.write_string(request);
  }
  out.write_u64(decided_.size());
  for (const auto& [binding, complement] : decided_) {
    out.write_value(binding);
    out.write_bool(complement);
  }
}

void EventGuard::restore_state(SnapshotReader& in, ActorContext&) {
  if (std::string saved = in.read_string("the event type"); saved != event_type_)
    in.reject("the guard of an event",
              "it was saved for '" + saved + "', this actor guards '" + event_type_ + "'");
  instances_.clear();
  for (std::size_t n = in.read_count("the undecided instances"); n > 0; --n) {
    Value binding = in.read_value("an instance's binding");
    Instance& instance = instances_[binding];
    instance.binding = binding;
    instance.positive = Guard::restore(in);
    instance.negative = Guard::restore(in);
    bool parked = in.read_bool("whether an attempt is parked");
    bool parked_complement = in.read_bool("which attempt is parked");
    if (parked) instance.parked = parked_complement;
    instance.trigger_wanted = in.read_bool("whether a trigger is wanted");
    for (std::size_t r = in.read_count("the requests sent"); r > 0; --r)
      instance.requested.insert(in.read_string("a request sent"));
  }
  decided_.clear();
  for (std::size_t n = in.read_count("the decided instances"); n > 0; --n) {
    Value binding = in.read_value("an instance's binding");
    decided_[std::move(binding)] = in.read_bool("whether the complement happened");
  }
}

}  // namespace cwf::guards
