#include "runtime/execution/windowed_receiver.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "runtime/execution/actor_cell.hpp"

namespace cwf {

namespace {
constexpr Timestamp kMinTime = std::numeric_limits<Timestamp>::min();
}  // namespace

WindowedReceiver::WindowedReceiver(WindowSpec spec)
    : spec_(std::move(spec)),
      parts_(make_window_parts(spec_)),
      keys_(spec_.compile_group_by()),
      timeout_after_end_(spec_.timeout_after_end()),
      // Idle groups end only where there are keys to end (the loader refuses the rest).
      idle_after_(spec_.group_by.empty() || spec_.uses_waves() ? 0 : spec_.idle.value_or(0)),
      closed_through_(kMinTime),
      expire_fn_([this](Event&& e) {
        if (holding_) [[unlikely]]
          hold_expired(std::move(e));
        else
          expire(std::move(e));
      }) {}

[[gnu::noinline]] void WindowedReceiver::hold_expired(Event&& event) {
  held_expired_.push_back(std::move(event));
}

void WindowedReceiver::expire(Event&& event) {
  owner().send_expired(port(), std::move(event));
}
void WindowedReceiver::count_late() {
  owner().count_late();
}
void WindowedReceiver::wake_at(Timestamp time) {
  owner().request_wakeup(time);
}

std::size_t WindowedReceiver::make_group() {
  WindowGroup::WaveLeftFn left;
  if (spec_.uses_waves()) left = [this](const WaveTag& root) { wave_left(root); };
  auto group = std::make_unique<WindowGroup>(spec_, parts_, &live_, std::move(left));
  if (free_.empty()) {
    groups_.emplace_back().group = std::move(group);
    return groups_.size() - 1;
  }
  const std::size_t g = free_.back();
  free_.pop_back();
  GroupState& state = groups_[g];
  group->start_at(state.arrivals);
  state.group = std::move(group);
  return g;
}

std::size_t WindowedReceiver::group_of(const Event& event) {
  if (keys_.empty()) {
    if (groups_.empty()) make_group();
    return 0;
  }
  // A null key is a field the event does not have (or a division by zero): a typo in the
  // workflow would otherwise put every event in one group without a word.
  auto check = [this](const Value& part, std::size_t i) {
    if (part.is_null())
      throw std::runtime_error("key " + std::to_string(i + 1) + " of " +
                               std::to_string(keys_.size()) +
                               " is null (a field the event does not have?)");
  };
  Value key;
  std::size_t hash;
  if (keys_.size() == 1) {
    key = keys_[0].evaluate(event.token);
    hash = key.hash();
    if (std::size_t found = indexed_group(key, hash); found != GroupIndex::npos) return found;
    check(key, 0);
  } else {
    key_parts_.clear();
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      key_parts_.push_back(keys_[i].evaluate(event.token));
      check(key_parts_.back(), i);
    }
    std::span<const Value> parts(key_parts_);
    // As the array's own hash would be.
    hash = Value::hash_of_array(parts);
    std::size_t found = index_.find(hash, [&](std::size_t g) {
      std::span<const Value> known = groups_[g].key.as_array();
      return std::equal(known.begin(), known.end(), parts.begin(), parts.end());
    });
    if (found != GroupIndex::npos) return found;
    key = Value::array(parts);  // a new group: only now is the key built
  }
  const std::size_t g = make_group();
  GroupState& state = groups_[g];
  state.key = std::move(key);
  state.first_arrival = arrivals_;
  index_.insert(hash, g);
  return g;
}

std::size_t WindowedReceiver::wave_records() const {
  std::size_t n = 0;
  for (const GroupState& state : groups_)
    if (state.group) n += state.group->wave_records();
  return n;
}

void WindowedReceiver::accept(Event&& event, std::size_t producer) {
  if (holding_) [[unlikely]]
    release_held();
  if (!spec_.uses_waves()) {
    // Punctuations are not data, never late, never expired; where progress is tracked their
    // time is how far the input got (nothing earlier comes), which closes windows as an event's
    // would.
    if (!event.wave.is_punctuation())
      queue(std::move(event));
    else if (tracks_progress_)
      advance_to(event.time);
    return;
  }
  // A progress mark is of no wave.
  if (event.wave.is_progress()) return;
  // Every event and punctuation is a leaf of its wave; only events are queued. The event is
  // queued before its wave may complete, so that its group knows the wave.
  WaveTag leaf = event.wave;
  if (!leaf.is_punctuation()) queue(std::move(event));
  if (waves_.add(leaf, producer)) wave_completed(leaf);
}

void WindowedReceiver::queue(Event&& event) {
  // Groups end in the order of arrival, before the event finds its group (it may be the first of
  // a new one): how arrivals are batched into drains differs between directors, that order not.
  if (idle_after_ > 0 && (!any_event_ || event.time > max_time_)) end_idle_groups(event.time);
  std::size_t g;
  try {
    g = group_of(event);
  } catch (const std::exception& e) {
    owner().report(ProblemKind::dropped, std::string("no group: group_by: ") + e.what(), &event);
    return;
  }
  GroupState& state = groups_[g];
  // An event behind the latest one is late for every window that the earlier events closed,
  // whether or not those windows were handed to the actor yet: how arrivals are grouped into
  // drains and firings differs between directors, the order of arrival does not.
  Timestamp late_before =
      event.time < max_time_ ? state.group->late_before(max_time_) : state.group->late_before();
  if (event.time < late_before) {
    count_late();
    return;
  }
  if (event.time < state.group->finished_below()) {
    expire(std::move(event));
    return;
  }
  if (!any_event_ || event.time > max_time_) max_time_ = event.time;
  any_event_ = true;
  if (idle_after_ > 0) {
    if (state.group->arrived() == state.arrivals || event.time > state.last_time)
      state.last_time = event.time;
    if (!state.idle_armed) {
      state.idle_armed = true;
      watch_idle({state.last_time, g});
    }
  }
  WaveRoot wave = event.wave.root();
  if (state.group->add(std::move(event), arrivals_++)) {
    QueuedWave& queued = queued_waves_[wave];
    ++queued.holding;
    if (std::find(queued.groups.begin(), queued.groups.end(), g) == queued.groups.end())
      queued.groups.push_back(g);
  }
  mark_dirty(g);
}

void WindowedReceiver::advance_to(Timestamp time) {
  if (any_event_ && time <= max_time_) return;
  // As an event of that time would: quiet groups end first, in arrival order.
  if (idle_after_ > 0) end_idle_groups(time);
  max_time_ = time;
  any_event_ = true;
}

void WindowedReceiver::mark_dirty(std::size_t g) {
  GroupState& state = groups_[g];
  if (!state.dirty) {
    state.dirty = true;
    dirty_.push_back(g);
  }
}

void WindowedReceiver::wave_completed(const WaveTag& tag) {
  WaveTag root(tag.root_time(), tag.root_sequence());
  auto it = queued_waves_.find(tag.root());
  if (it != queued_waves_.end())
    for (std::size_t g : it->second.groups) {
      groups_[g].group->wave_complete(root);
      mark_dirty(g);
    }
  if (it == queued_waves_.end() || it->second.holding == 0) {
    waves_.forget(root);
    if (it != queued_waves_.end()) queued_waves_.erase(it);
  }
}

void WindowedReceiver::wave_left(const WaveTag& root) {
  auto it = queued_waves_.find(root.root());
  if (it == queued_waves_.end() || --it->second.holding > 0) return;
  if (waves_.complete(root)) {
    waves_.forget(root);
    queued_waves_.erase(it);
  }
}

WindowProgress WindowedReceiver::progress() const {
  WindowProgress p;
  p.closed_through = closed_through_;
  p.max_time = max_time_;
  p.end_of_input = end_of_input_;
  return p;
}

WindowedReceiver::Ready WindowedReceiver::ready_entry(std::size_t g) const {
  const GroupState& state = groups_[g];
  // The windows a group's end closes come out when it ended, whenever they are formed.
  if (state.ready_by_end) return {state.ended_at, 2 * state.ended_before, state.first_arrival, g};
  const std::uint64_t last = state.group->window_last_arrival();
  return {state.group->window_time(), last == WindowGroup::kNoArrival ? last : 2 * last + 1,
          state.first_arrival, g};
}

std::optional<Timestamp> WindowedReceiver::evaluate(std::size_t g) {
  GroupState& state = groups_[g];
  state.dirty = false;
  if (!state.group) return std::nullopt;  // ended
  if (state.ready) return std::nullopt;   // its window stays as it is until the actor is done
  Timestamp deadline;
  bool ready;
  if (state.ending) {
    // First what the group had complete before it ended, then, as if the input ended when it
    // went quiet, every window up to then.
    ready = state.group->evaluate(state.before_end, &deadline, expire_fn_);
    state.ready_by_end = !ready;
    if (!ready) {
      if (!state.end_reached) state.group->hide_empty_windows();
      state.end_reached = true;
      WindowProgress end;
      end.end_of_input = true;
      end.closed_through = std::numeric_limits<Timestamp>::max();
      end.max_time = state.ended_at;
      ready = state.group->evaluate(end, &deadline, expire_fn_);
    }
  } else {
    ready = state.group->evaluate(progress(), &deadline, expire_fn_);
  }
  if (ready) {
    state.ready = true;
    ready_.push(ready_entry(g));
  } else if (state.ending) {
    free_group(g);
  } else if (deadline != std::numeric_limits<Timestamp>::max()) {
    if (state.armed == deadline) return deadline;  // its entry is still there
    state.armed = deadline;
    deadlines_.push({deadline, ++state.version, g});
    return deadline;
  }
  return std::nullopt;
}

void WindowedReceiver::advance(Timestamp now, bool end_of_input) {
  if (holding_) [[unlikely]]
    release_held();
  end_of_input_ = end_of_input;
  if (any_event_ && (!offset_known_ || max_time_ != offset_learned_for_)) {
    // The cell drains, then advances with the same `now`: new events arrived at `now`.
    clock_offset_ = now - max_time_;
    offset_learned_for_ = max_time_;
    offset_known_ = true;
  }
  // How far event time has got by the clock, less the timeout. Before the port's first event
  // the clock tells nothing about the event time of its stream (stamped from its own data, it
  // may be anywhere): nothing closes by the clock until that event relates the two.
  Timestamp event_now = now - clock_offset_;
  Timestamp by_clock = !offset_known_ || event_now < kMinTime + timeout_after_end_
                           ? kMinTime
                           : event_now - timeout_after_end_;
  Timestamp closed = std::max(any_event_ ? max_time_ : kMinTime, by_clock);
  if (end_of_input) closed = std::numeric_limits<Timestamp>::max();
  settle(closed);
}

void WindowedReceiver::settle(Timestamp closed) {
  close_through(closed);
  if (end_of_input_) {
    // Everything still incomplete (partial token or wave windows) closes now.
    for (std::size_t g = 0; g < groups_.size(); ++g)
      evaluate(g);
  } else {
    wake_at_next_deadline();
  }
}

void WindowedReceiver::end_idle_groups(Timestamp latest) {
  if (latest < kMinTime + idle_after_) return;
  // Quiet: the group's latest event is `idle_after_` or more behind the port's latest.
  const Timestamp quiet_through = latest - idle_after_;
  // The marks due, in the order of (time, group) whichever structure holds them: the order in
  // which groups end decides which freed slots later groups take.
  due_marks_.clear();
  for (; !idle_fifo_.empty() && idle_fifo_.front().time <= quiet_through; idle_fifo_.pop_front())
    due_marks_.push_back(idle_fifo_.front());
  for (; !idle_marks_.empty() && idle_marks_.top().time <= quiet_through; idle_marks_.pop())
    due_marks_.push_back(idle_marks_.top());
  if (due_marks_.size() > 1) std::sort(due_marks_.begin(), due_marks_.end(), std::less<>());
  for (const IdleMark& mark : due_marks_) {
    const std::size_t g = mark.group;
    GroupState& state = groups_[g];
    if (state.last_time > quiet_through) {
      watch_idle({state.last_time, g});  // it had events since: checked again later
      continue;
    }
    state.idle_armed = false;
    state.ending = true;
    state.ended_at = latest;
    state.ended_before = arrivals_;
    state.before_end = progress();
    if (any_event_) state.before_end.closed_through = std::max(closed_through_, max_time_);
    // The key is the group's own from now on: its next event belongs to a new group.
    index_.erase(state.key.hash(), g);
    mark_dirty(g);
  }
}

void WindowedReceiver::watch_idle(IdleMark mark) {
  if (idle_fifo_.empty() || mark.time >= idle_fifo_.back().time)
    idle_fifo_.push_back(mark);
  else
    idle_marks_.push(mark);
}

void WindowedReceiver::free_group(std::size_t g) {
  GroupState& state = groups_[g];
  state.group->expire_rest(expire_fn_);
  state.arrivals = state.group->arrived();
  state.group.reset();
  state.key = Value();
  state.ending = false;
  state.ended_at = 0;
  state.ended_before = 0;
  state.first_arrival = 0;
  state.before_end = {};
  state.ready_by_end = false;
  state.end_reached = false;
  state.last_time = 0;
  state.armed = kNoDeadline;
  ++state.version;  // its deadlines are stale
  free_.push_back(g);
}

void WindowedReceiver::close_through(Timestamp closed) {
  closed_through_ = std::max(closed_through_, closed);
  // Evaluated from a second list, kept between calls so that neither list allocates again.
  evaluating_.swap(dirty_);
  for (std::size_t g : evaluating_)
    evaluate(g);
  evaluating_.clear();
  while (!deadlines_.empty()) {
    const Deadline& d = deadlines_.top();
    GroupState& state = groups_[d.group];
    if (d.version != state.version || state.ready) {
      if (d.version == state.version) state.armed = kNoDeadline;
      deadlines_.pop();
      continue;
    }
    if (d.time > closed_through_) break;
    std::size_t g = d.group;
    state.armed = kNoDeadline;
    deadlines_.pop();
    evaluate(g);
  }
}

void WindowedReceiver::ask_wake_at(Timestamp time) {
  if (holding_)
    held_wake_ = std::min(held_wake_, time);
  else
    wake_at(time);
}

void WindowedReceiver::wake_at_next_deadline() {
  while (!deadlines_.empty()) {
    const Deadline& d = deadlines_.top();
    GroupState& state = groups_[d.group];
    if (d.version == state.version && !state.ready) break;
    if (d.version == state.version) state.armed = kNoDeadline;
    deadlines_.pop();
  }
  if (!deadlines_.empty()) ask_wake_at(due_on_clock(deadlines_.top().time));
}

Timestamp WindowedReceiver::due_on_clock(Timestamp deadline) const {
  constexpr Timestamp kMax = std::numeric_limits<Timestamp>::max();
  Timestamp due = deadline > kMax - timeout_after_end_ ? kMax : deadline + timeout_after_end_;
  // Back on the clock: the deadline in event time plus the offset learned at arrival.
  if (due == kMax) return kMax;
  if (clock_offset_ > 0 && due > kMax - clock_offset_) return kMax;
  return due + clock_offset_;
}

std::size_t WindowedReceiver::cancel(const CaseId& cancelled) {
  auto belongs = [&cancelled](const Event& event) { return cancelled.matches(event); };
  std::size_t removed = 0;
  bool unready = false;
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    if (!groups_[g].group) continue;
    std::size_t n = groups_[g].group->remove_case(belongs);
    if (n == 0) continue;
    removed += n;
    unready |= groups_[g].ready;
    groups_[g].ready = false;
    mark_dirty(g);  // evaluated again by the next advance()
  }
  if (unready) {
    // Keep the windows that are still ready, in their order.
    std::vector<Ready> kept;
    for (; !ready_.empty(); ready_.pop())
      if (groups_[ready_.top().group].ready) kept.push_back(ready_.top());
    for (const Ready& r : kept)
      ready_.push(r);
  }
  return removed;
}

void WindowedReceiver::reshape(const WindowSpec& spec) {
  if (std::optional<std::string> why = reshape_refusal(spec_, spec))
    throw std::invalid_argument(*why);
  // Windows not handed out are formed again, first, in the order in which they were ready.
  std::vector<std::size_t> again;
  for (; !ready_.empty(); ready_.pop()) {
    std::size_t g = ready_.top().group;
    groups_[g].ready = false;
    groups_[g].group->drop_ready();
    again.push_back(g);
  }
  adopt_shape(spec);
  std::vector<std::size_t> rest = std::move(dirty_);
  dirty_.clear();
  for (GroupState& state : groups_)
    state.dirty = false;
  for (std::size_t g : again)
    mark_dirty(g);
  for (std::size_t g : rest)
    mark_dirty(g);
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (groups_[g].group) mark_dirty(g);
  settle(closed_through_);
}

void WindowedReceiver::release_held() {
  holding_ = false;
  std::vector<Event> expired = std::move(held_expired_);
  held_expired_.clear();
  for (Event& event : expired)
    expire(std::move(event));
  if (held_wake_ != kNoDeadline) wake_at(held_wake_);
  held_wake_ = kNoDeadline;
}

void WindowedReceiver::adopt_shape(const WindowSpec& to) {
  spec_.size = to.size;
  spec_.step = to.step;
  spec_.timeout = to.timeout;
  timeout_after_end_ = spec_.timeout_after_end();
  WindowParts old = std::move(parts_);  // the groups use it until they adopt the new parts
  parts_ = make_window_parts(spec_);
  for (GroupState& state : groups_) {
    if (state.group) state.group->reshape(parts_);
    state.armed = kNoDeadline;
    ++state.version;  // deadlines armed by the old shape are stale
  }
  deadlines_ = {};
}

Window WindowedReceiver::front_window() {
  if (holding_) [[unlikely]]
    release_held();
  std::size_t g = ready_.top().group;
  const WindowGroup& group = *groups_[g].group;
  // The key stays where it is while the actor fires: groups are made only as events are queued.
  const Value* key = keys_.empty() ? nullptr : &groups_[g].key;
  Window window{group.window_events(),    group.window_time(), group.window_wave(),      g, key,
                group.window_first_seq(), group.window_seqs(), group.window_contiguous()};
  window.interval = group.window_interval();
  return window;
}

void WindowedReceiver::finish_window(bool, bool consumed) {
  if (holding_) [[unlikely]]
    release_held();
  std::size_t g = ready_.top().group;
  ready_.pop();
  GroupState& state = groups_[g];
  state.ready = false;
  state.group->finish(consumed && spec_.delete_used, expire_fn_);
  // The group's next window may wait for a deadline that advance() (before this firing) could
  // not know: a window after one that closed by its formation timeout must time out as well,
  // not only when the next event comes. The other groups' deadlines were asked for already.
  std::optional<Timestamp> deadline = evaluate(g);
  if (deadline && !end_of_input_) wake_at(due_on_clock(*deadline));
}

}  // namespace cwf
