#include "actors/net/push_inbox.hpp"

#include "actors/actor_type_util.hpp"

namespace cwf::net {

void PushInbox::push(DecodedLine line, const PeerName& peer) {
  pending_.fetch_add(1, std::memory_order_relaxed);
  queue_.enqueue({std::move(line), peer});
}

bool PushInbox::wait_for_room(std::function<void()> resume) {
  std::lock_guard lock(room_mutex_);
  has_waiting_.store(true);
  if (!full()) {
    has_waiting_.store(!resumes_.empty());
    return false;
  }
  resumes_.push_back(std::move(resume));
  return true;
}

PushInbox::Emitted PushInbox::emit(FiringContext& context, const PushSourceOptions& options,
                                   std::int64_t room, int out_port, int errors_port,
                                   const std::string& what) {
  if (std::uint64_t refused = refused_.exchange(0))
    context.report_warning(what + ": " + std::to_string(refused) +
                           " connection(s) refused: the most allowed were open");
  Emitted emitted;
  Item item;
  while (emitted.taken < options.batch && emitted.records < room && queue_.try_dequeue(item)) {
    ++emitted.taken;
    pending_.fetch_sub(1);  // seq_cst: see has_waiting_
    DecodedLine& line = item.line;
    if (!line.error.empty()) {
      context.report_error(what + ": " + *item.peer + ": " + line.error);
      if (context.connected(errors_port))
        context.emit(errors_port, Value::record({{"peer", Value(*item.peer)},
                                                 {"text", Value(line.text)},
                                                 {"error", Value(line.error)}}));
      continue;
    }
    if (options.time) {
      Timestamp time;
      std::string error;
      if (!actors::to_timestamp(options.time->evaluate(line.record), options.time_unit, time,
                                error)) {
        context.report_error(what + ": time: " + error);
        continue;
      }
      context.set_output_time(time);
    }
    context.emit(out_port, std::move(line.record));
    ++emitted.records;
  }
  // Room again: the readers that waited for it read on.
  if (!full() && has_waiting_.load()) {
    std::vector<std::function<void()>> resumes;
    {
      std::lock_guard lock(room_mutex_);
      resumes.swap(resumes_);
      has_waiting_.store(false);
    }
    for (auto& resume : resumes)
      resume();
  }
  return emitted;
}

}  // namespace cwf::net
