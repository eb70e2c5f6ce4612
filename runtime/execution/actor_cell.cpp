#include "runtime/execution/actor_cell.hpp"

#include "runtime/expressions/expr_error.hpp"

#include "runtime/execution/case_cancellations.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace cwf {

namespace {
// Per actor: the first problems are printed, the rest only counted (the summary lists them all).
constexpr std::uint64_t kProblemsShown = 10;
}  // namespace

ActorCell::ActorCell(ActorId id, std::string name, Actor& actor, ExecutionEnv& env,
                     std::uint32_t source_ordinal)
    : id_(id),
      name_(std::move(name)),
      actor_(actor),
      env_(env),
      time_keeper_(source_ordinal),
      receivers_(actor.inputs().size()),
      routes_(actor.outputs().size()),
      expired_routes_(actor.inputs().size()) {}

void ActorCell::set_receiver(int port, std::unique_ptr<Receiver> receiver) {
  receiver->attach(this, port);
  receiver->set_cancelled_cases(&cancelled_cases_);
  receivers_[static_cast<std::size_t>(port)] = std::move(receiver);
}

ActorCell::Route ActorCell::make_route(Receiver& target, QueueLimits limits) {
  Route route{&target, target.make_producer(this)};
  route.limits = limits;
  if (limits.capacity != QueueLimits::kUnbounded)
    route.check_at = limits.overload == Overload::sample ? limits.capacity / 2 : limits.capacity;
  route.random ^= (static_cast<std::uint64_t>(id_) << 32) + route.producer->index() + 1;
  link_to(target.owner());
  return route;
}

std::size_t ActorCell::add_route(int output_port, Receiver& target, QueueLimits limits,
                                 std::shared_ptr<const RouteRule> rule, int receiver) {
  const auto port = static_cast<std::size_t>(output_port);
  const std::size_t route = routes_[port].size();
  Route made = make_route(target, limits);
  const std::size_t index = made.producer->index();
  routes_[port].push_back(std::move(made));
  if (!rule) {
    if (routed(output_port)) routing_[port].plain.push_back(route);
    return index;
  }
  if (routing_.empty()) routing_.resize(routes_.size());
  PortRouting& routing = routing_[port];
  if (routing.groups.empty()) {
    // The routes added before the first rule get every event.
    for (std::size_t i = 0; i < route; ++i)
      routing.plain.push_back(i);
  }
  auto group = std::find_if(routing.groups.begin(), routing.groups.end(),
                            [&](const RouteGroup& g) { return g.rule == rule; });
  if (group == routing.groups.end()) {
    routing.groups.push_back(
        {rule, std::vector<std::size_t>(static_cast<std::size_t>(rule->receivers()), route)});
    group = routing.groups.end() - 1;
  }
  group->routes[static_cast<std::size_t>(receiver)] = route;
  return index;
}

void ActorCell::add_expired_route(int input_port, Receiver& target, QueueLimits limits) {
  expired_routes_[static_cast<std::size_t>(input_port)].push_back(make_route(target, limits));
}

void ActorCell::link_to(ActorCell& consumer) {
  if (std::find(consumers_.begin(), consumers_.end(), &consumer) != consumers_.end()) return;
  consumers_.push_back(&consumer);
  consumer.upstream_.push_back(this);
}

bool ActorCell::upstream_done() const {
  return std::all_of(upstream_.begin(), upstream_.end(),
                     [](const ActorCell* cell) { return cell->done(); });
}

bool ActorCell::input_has_ended() const {
  return env_.end_of_input.load(std::memory_order_acquire) &&
         std::all_of(upstream_inlets_.begin(), upstream_inlets_.end(),
                     [](const ActorCell* inlet) { return inlet->finished(); });
}

void ActorCell::end_own_input() {
  if (!finishing_ && !finished()) {
    // No window and no wave: the actor stamps what it emits with its own times.
    static const WaveTag kNoWave;
    Window none{{}, time_keeper_.input_time(), &kNoWave};
    time_keeper_.begin_firing(none);
    FiringContext context(*this, -1, none);
    try {
      actor_.end_of_input(context);
    } catch (const std::exception& e) {
      report(ProblemKind::failed, e.what());
    }
    try {
      end_firing();
    } catch (const std::exception& e) {
      report(ProblemKind::failed, e.what());
    }
  }
  done_.store(true, std::memory_order_release);
  // A consumer that found this cell not done yet went idle: it must look again.
  for (ActorCell* consumer : consumers_)
    consumer->notify();
}

void ActorCell::send_expired(int input_port, Event&& event) {
  stats_.expired.add();
  deliver_to(expired_routes_[static_cast<std::size_t>(input_port)], std::move(event));
}

void ActorCell::send(int port, Event&& event) {
  stats_.events_out.add();
  const bool routed_port = routed(port);
  if (routed_port) [[unlikely]]
    pick_routes(port, event);
  if (send_hooks_.load(std::memory_order_relaxed)) [[unlikely]]
    before_send(port, event);
  if (routed_port) [[unlikely]] {
    send_routed(port, std::move(event));
    return;
  }
  deliver_to(routes_[static_cast<std::size_t>(port)], std::move(event));
}

void ActorCell::pick_routes(int port, const Event& event) {
  // A retraction record goes where the output it retracts went: the key is the retracted one's.
  const Value* keyed = &event.token;
  if (retracting_ && event.token.is_record())
    if (const Value* retracted = event.token.field("retracted")) keyed = retracted;
  for (RouteGroup& group : routing_[static_cast<std::size_t>(port)].groups) {
    try {
      group.picked = group.rule->choose(*keyed);
    } catch (const ExprError& e) {
      report(ProblemKind::rejected,
             "cannot pick a replica (" + group.rule->describe() + "): " + e.what(), &event);
      group.picked = RouteGroup::kNone;
    }
  }
}

bool ActorCell::goes_into(int port, const Receiver* into) const {
  const PortRouting& routing = routing_[static_cast<std::size_t>(port)];
  const std::vector<Route>& routes = routes_[static_cast<std::size_t>(port)];
  for (std::size_t route : routing.plain)
    if (routes[route].target == into) return true;
  for (const RouteGroup& group : routing.groups)
    for (std::size_t i = 0; i < group.routes.size(); ++i)
      if (group.gets(i) && routes[group.routes[i]].target == into) return true;
  return false;
}

void ActorCell::send_routed(int port, Event&& event) {
  std::vector<Route>& routes = routes_[static_cast<std::size_t>(port)];
  const PortRouting& routing = routing_[static_cast<std::size_t>(port)];
  for (std::size_t route : routing.plain) {
    Event copy = event;
    deliver_one(routes[route], std::move(copy));
  }
  for (std::size_t g = 0; g < routing.groups.size(); ++g) {
    const RouteGroup& group = routing.groups[g];
    if (punctuates_ || group.picked == RouteRule::kEveryReceiver) {
      for (std::size_t i = 0; i < group.routes.size(); ++i) {
        Route& route = routes[group.routes[i]];
        if (group.gets(i)) {
          Event copy = event;
          deliver_one(route, std::move(copy));
        } else {
          deliver_one(route, Event{Value(), event.time, event.wave.as_punctuation()});
        }
      }
    } else if (group.picked >= 0) {
      // The common case: one receiver, and the event is not needed after it.
      Route& route = routes[group.routes[static_cast<std::size_t>(group.picked)]];
      if (g + 1 == routing.groups.size()) {
        deliver_one(route, std::move(event));
        return;
      }
      Event copy = event;
      deliver_one(route, std::move(copy));
    }
  }
}

// Out of line, so that send() stays small enough to be inlined into every emit.
void ActorCell::before_send(int port, const Event& event) {
  if (remember_ > 0 && !retracting_) {
    if (remembered_.size() == remember_) remembered_.pop_front();
    remembered_.push_back({port, event});
  }
  // Only while a view watches: a cell that merely remembers takes no lock per event. A view of
  // one connection from a port with routes of a rule sees what its key sent there.
  if (!watched_.load(std::memory_order_relaxed) || event.wave.is_punctuation()) return;
  std::lock_guard lock(watchers_mutex_);
  for (const Watch& watch : watchers_)
    if (watch.port == port && (!watch.into || !routed(port) || goes_into(port, watch.into)))
      watch.watcher->seen(event);
}

void ActorCell::request_change(std::function<void()> apply) {
  {
    std::lock_guard lock(changes_mutex_);
    changes_.push_back(std::move(apply));
    changes_pending_.store(true, std::memory_order_release);
  }
  wake();
}

void ActorCell::apply_changes() {
  std::vector<std::function<void()>> changes;
  {
    std::lock_guard lock(changes_mutex_);
    changes.swap(changes_);
    changes_pending_.store(false, std::memory_order_relaxed);
  }
  for (auto& apply : changes)
    apply();
}

void ActorCell::watch(int output_port, std::shared_ptr<OutputWatcher> watcher,
                      const Receiver* into) {
  std::lock_guard lock(watchers_mutex_);
  watchers_.push_back({output_port, into, std::move(watcher)});
  update_send_hooks();
}

void ActorCell::unwatch(const OutputWatcher& watcher) {
  std::lock_guard lock(watchers_mutex_);
  std::erase_if(watchers_, [&](const Watch& entry) { return entry.watcher.get() == &watcher; });
  update_send_hooks();
}

void ActorCell::update_send_hooks() {
  watched_.store(!watchers_.empty(), std::memory_order_relaxed);
  send_hooks_.store(remember_ > 0 || !watchers_.empty(), std::memory_order_relaxed);
}

// Flattened: the queue's enqueue is inlined (left to itself the compiler stopped doing so once
// the bounded-queue check came in, which cost about 10% of a pass-through stage). The last route
// takes the event itself and every other one a copy, with no per-route test for which is which:
// on the common single route that is one capacity check and one enqueue.
[[gnu::flatten]] void ActorCell::deliver_to(std::vector<Route>& routes, Event&& event) {
  if (routes.size() == 1) [[likely]] {
    deliver_one(routes.front(), std::move(event));
    return;
  }
  if (routes.empty()) return;
  Route* const last = &routes.back();
  for (Route* route = routes.data(); route != last; ++route) {
    Event copy = event;
    deliver_one(*route, std::move(copy));
  }
  deliver_one(*last, std::move(event));
}

inline void ActorCell::deliver_one(Route& route, Event&& event) {
  if (route.sent - route.taken_seen >= route.check_at) [[unlikely]]
    if (!admit(route, event)) return;
  ++route.sent;
  route.target->enqueue(std::move(event), *route.producer);
  if (!route.needs_wakeup) {
    route.needs_wakeup = true;
    routes_to_wake_.push_back(&route);
  }
}

bool ActorCell::admit(Route& route, Event& event) {
  route.taken_seen = route.producer->taken();
  const std::uint64_t waiting = route.sent - route.taken_seen;
  // Punctuations are never shed: a wave window downstream counts on every one of them.
  if (waiting < route.check_at || event.wave.is_punctuation()) return true;
  const std::uint64_t capacity = route.limits.capacity;
  switch (route.limits.overload) {
    case Overload::block:
      // This firing's outputs still go (a firing is not cut in half); the next one waits.
      output_full_ = true;
      return true;
    case Overload::drop_newest:
      shed(route, std::move(event));
      return false;
    case Overload::drop_oldest: {
      Event oldest;
      if (route.target->take_oldest(*route.producer, oldest)) {
        --route.sent;
        if (oldest.wave.is_punctuation()) {
          ++route.sent;  // not shed: it goes to the back instead (it only marks a leaf as done)
          route.target->enqueue(std::move(oldest), *route.producer);
        } else {
          shed(route, std::move(oldest));
        }
      }
      return true;
    }
    case Overload::sample:
      if (waiting < capacity) {
        // Random early drop: kept with a probability that falls linearly from 1 at half the
        // capacity to 0 at the capacity (xorshift64: the same run sheds the same events).
        route.random ^= route.random << 13;
        route.random ^= route.random >> 7;
        route.random ^= route.random << 17;
        if (route.random % (capacity - route.check_at) < capacity - waiting) return true;
      }
      shed(route, std::move(event));
      return false;
  }
  return true;
}

void ActorCell::shed(Route& route, Event&& event) {
  constexpr std::uint64_t kShownPerRoute = 3;
  if (route.shed++ < kShownPerRoute) {
    std::string message = "the connection to '" + route.target->owner().name() +
                          "' is full (capacity " + std::to_string(route.limits.capacity) +
                          ", overload: " + std::string(overload_name(route.limits.overload)) + ")";
    report(ProblemKind::dropped, message, &event);
  } else {
    count_quietly(ProblemKind::dropped, 1);
  }
  if (!punctuates_) return;
  ++route.sent;
  route.target->enqueue(Event{Value(), event.time, event.wave.as_punctuation()}, *route.producer);
  if (!route.needs_wakeup) {
    route.needs_wakeup = true;
    routes_to_wake_.push_back(&route);
  }
}

bool ActorCell::output_blocked() {
  bool blocked = false;
  auto look = [&blocked](std::vector<Route>& routes) {
    for (Route& route : routes) {
      if (route.limits.overload != Overload::block ||
          route.limits.capacity == QueueLimits::kUnbounded)
        continue;
      route.taken_seen = route.producer->taken();
      if (route.sent - route.taken_seen < route.limits.capacity) continue;
      // Woken once no more than half the capacity waits: room for a good many firings at once.
      if (route.producer->wake_when_taken(route.sent - route.limits.capacity / 2)) blocked = true;
    }
  };
  for (auto& routes : routes_)
    look(routes);
  for (auto& routes : expired_routes_)
    look(routes);
  output_full_ = blocked;
  return blocked;
}

void ActorCell::end_firing() {
  time_keeper_.end_firing([this](int p, Event&& e) { send(p, std::move(e)); });
  const WaveTag* wave = time_keeper_.input_wave();
  if (!punctuates_ || !wave) return;
  std::uint32_t children = time_keeper_.children();
  if (children == 0) {
    // The end-of-input firing has no wave to tell about.
    if (!wave->empty()) send_punctuation(Event{Value(), time_keeper_.input_time(), *wave});
    return;
  }
  // The children t.1 ... t.n of a firing are numbered across all output ports: a consumer on one
  // port gets a punctuation for each child that went to another, so that it can still tell when
  // the wave is complete.
  const std::vector<int>& ports = time_keeper_.child_ports();
  if (ports.empty()) return;
  for (std::size_t port = 0; port < routes_.size(); ++port) {
    if (routes_[port].empty()) continue;
    for (std::uint32_t i = 1; i <= children; ++i) {
      // A deferred child (-1) tells the other ports when it is sent (emit_deferred).
      if (ports[i - 1] < 0 || ports[i - 1] == static_cast<int>(port)) continue;
      Event gap{Value(), time_keeper_.input_time(), wave->child(i, i == children).as_punctuation()};
      deliver_to(routes_[port], std::move(gap));
    }
  }
}

WaveTag ActorCell::defer_output() {
  return time_keeper_.defer([this](int p, Event&& e) { send(p, std::move(e)); });
}

void ActorCell::emit_deferred(int port, Event&& event) {
  time_keeper_.flush_before_explicit([this](int p, Event&& e) { send(p, std::move(e)); });
  // As end_firing does for a firing's children: the other ports learn that this child went
  // elsewhere.
  if (punctuates_ && time_keeper_.tracks_ports()) {
    for (std::size_t other = 0; other < routes_.size(); ++other) {
      if (static_cast<int>(other) == port || routes_[other].empty()) continue;
      deliver_to(routes_[other], Event{Value(), event.time, event.wave.as_punctuation()});
    }
  }
  send(port, std::move(event));
}

void ActorCell::drop_deferred(const WaveTag& tag, Timestamp time) {
  if (punctuates_) send_punctuation(Event{Value(), time, tag});
}

void ActorCell::send_punctuation(const Event& of) {
  for (auto& routes : routes_) {
    Event punctuation{Value(), of.time,
                      of.wave.is_punctuation() ? of.wave : of.wave.as_punctuation()};
    deliver_to(routes, std::move(punctuation));
  }
}

void ActorCell::set_sends_progress() {
  sends_progress_ = true;
  for (auto& r : receivers_)
    if (r) r->track_progress();
}

void ActorCell::send_progress() {
  // Only once every ready window was fired on: a window still waiting may be earlier.
  Timestamp inputs = std::numeric_limits<Timestamp>::max();
  bool any = false;
  for (auto& r : receivers_) {
    if (!r) continue;
    if (r->has_window()) return;
    inputs = std::min(inputs, r->progress_time());
    any = true;
  }
  if (!any || inputs == kNoProgress) return;
  Timestamp progress = actor_.output_progress(inputs);
  if (progress == kNoProgress || progress <= progress_sent_) return;
  progress_sent_ = progress;
  for (auto& routes : routes_)
    if (!routes.empty()) deliver_to(routes, Event{Value(), progress, WaveTag::progress()});
}

void ActorCell::wake_consumers() {
  for (Route* route : routes_to_wake_) {
    route->needs_wakeup = false;
    route->target->owner().notify();
  }
  routes_to_wake_.clear();
}

void ActorCell::count(ProblemKind kind, std::uint64_t n) {
  switch (kind) {
    case ProblemKind::rejected:
      stats_.rejected.add(n);
      break;
    case ProblemKind::failed:
      stats_.failed.add(n);
      break;
    case ProblemKind::dropped:
      stats_.dropped.add(n);
      break;
    case ProblemKind::lost:
      stats_.lost.add(n);
      break;
    case ProblemKind::warning:
      stats_.warnings.add(n);
      break;
  }
}

void ActorCell::count_late(std::uint64_t n) {
  stats_.late.add(n);
  if (env_.parent) env_.parent->count_late(n);
}

void ActorCell::count_quietly(ProblemKind kind, std::uint64_t n) {
  count(kind, n);
  if (env_.parent) env_.parent->count_quietly(kind, n);
}

std::optional<std::string> ActorCell::origin_of(const Event& event) const {
  if (event.wave.empty()) return std::nullopt;
  std::uint64_t sequence = event.wave.root_sequence();
  auto ordinal = static_cast<std::size_t>(TimeKeeper::source_ordinal_of(sequence));
  if (ordinal >= env_.origins.size() || !env_.origins[ordinal]) return std::nullopt;
  return env_.origins[ordinal]->describe(sequence);
}

void ActorCell::report(ProblemKind kind, std::string_view message, const Event* event,
                       std::uint64_t n) {
  if (!event && firing_window_ && !firing_window_->events.empty())
    event = &firing_window_->events.front();
  report_from_inside({}, kind, message, event, n);
}

void ActorCell::report_from_inside(const std::string& inner, ProblemKind kind,
                                   std::string_view message, const Event* event, std::uint64_t n) {
  ProblemSite site{name_, type_, location_, inner};
  if (env_.parent) {
    // Counted here too, so that the inner run's own summary (and a nested composite's) sees it.
    std::string chain = describe_site(site) + (inner.empty() ? "" : ", in " + inner);
    env_.parent->report_from_inside(chain, kind, message, event, n);
    std::lock_guard lock(report_mutex_);
    count(kind, n);
    return;
  }
  std::lock_guard lock(report_mutex_);
  count(kind, n);
  if (problems_shown_++ < kProblemsShown) {
    std::string text =
        format_problem(site, kind, message, event, event ? origin_of(*event) : std::nullopt, n);
    std::fputs(text.c_str(), stderr);
  } else if (problems_shown_ == kProblemsShown + 1) {
    std::fprintf(stderr, "cwf: %s: further problems are counted, not shown (see the summary)\n",
                 describe_site({name_, type_, location_, {}}).c_str());
  }
}

std::size_t ActorCell::queue_length() const {
  std::size_t n = 0;
  for (const auto& r : receivers_)
    if (r) n += r->published_buffered() + r->inbox_size();
  return n;
}

std::size_t ActorCell::inbox_length() const {
  std::size_t n = 0;
  for (const auto& r : receivers_)
    if (r) n += r->inbox_size();
  return n;
}

void ActorCell::initialize() {
  ActorContext context(*this);
  actor_.initialize(context);
}

void ActorCell::wrapup() {
  ActorContext context(*this);
  actor_.wrapup(context);
}

void ActorCell::finish() {
  finishing_ = true;
}

ActorCell::CycleResult ActorCell::run(std::uint32_t max_firings) {
  state_.fetch_and(static_cast<std::uint8_t>(~kNotified), std::memory_order_acq_rel);
  if (changes_pending_.load(std::memory_order_acquire)) [[unlikely]]
    apply_changes();
  CycleResult result;
  try {
    result = is_source() ? run_source(max_firings) : run_windows(max_firings);
  } catch (const std::exception& e) {
    // Outside an actor's own code (a window operator, the time keeper): reported, never fatal.
    report(ProblemKind::failed, e.what());
  }
  // Consumers learn of the last outputs before anyone can see this cell finished, so a run
  // cannot be judged quiescent while they are still in flight.
  wake_consumers();
  // An inlet ends after the run's end of input: the actors it feeds look again (end_own_input).
  if (finishing_ && !finished() && actor_.fed_by_other_processes())
    for (ActorCell* consumer : consumers_)
      consumer->notify();
  if (finishing_) finished_.store(true, std::memory_order_release);
  bool holds_events = false;
  for (auto& r : receivers_)
    if (r) {
      r->publish_buffered();
      holds_events |= r->buffered() > 0;
    }
  // Only a window that holds events: an empty time window on a cycle would otherwise move the
  // clock from one empty window to the next for ever.
  cycle_window_deadline_.store(
      !inputs_can_end_ && holds_events && !finishing_ && !is_source() ? wake_at_ : kNever,
      std::memory_order_release);
  return result;
}

// Calls the actor's prefire/fire/postfire on `context` and stamps its outputs; returns
// {fired, keep going}. Exceptions from the actor are reported and count as a fired window.
std::pair<bool, bool> ActorCell::fire_once(FiringContext& context) {
  bool fired = false, keep_going = true;
  try {
    if (actor_.prefire(context)) {
      fired = true;
      actor_.fire(context);
      stats_.firings.add();
      keep_going = actor_.postfire(context);
    }
    end_firing();
  } catch (const std::exception& e) {
    report(ProblemKind::failed, e.what());
    try {
      end_firing();
    } catch (const std::exception& again) {
      report(ProblemKind::failed, again.what());
    }
  }
  return {fired, keep_going};
}

ActorCell::CycleResult ActorCell::run_source(std::uint32_t max_firings) {
  CycleResult result;
  waits_for_input_ = false;
  while (result.firings < max_firings) {
    if (finishing_) return result;
    // An inlet goes on after a stop until the processes feeding it have drained (they stop
    // too, docs/architecture.md "Processes").
    if (env_.stop_sources.load(std::memory_order_relaxed) && !actor_.fed_by_other_processes()) {
      finish();
      return result;
    }
    // Held back by a full connection: a consumer wakes the source once it has room.
    if (output_full_ && output_blocked()) return result;
    // Held for a checkpoint: the director wakes every source once it is written.
    if (env_.hold_sources.load(std::memory_order_relaxed)) return result;
    Timestamp now = env_.clock->now();
    // Woken from outside (ExternalWake): input arrived, whatever time it asked for. Cleared
    // before the firing, so that a wake during it makes the source fire again.
    const bool woken = external_ && external_->woken.load(std::memory_order_acquire) &&
                       external_->woken.exchange(false, std::memory_order_acq_rel);
    if (fire_again_at_ != kNever) {
      if (now < fire_again_at_ && !woken) return result;  // the director's timer wakes us
      fire_again_at_ = kNever;
    }
    time_keeper_.begin_source_firing(now);
    static const Window kNoWindow{};
    FiringContext context(*this, -1, kNoWindow);
    auto [fired, keep_going] = fire_once(context);
    (void)fired;
    ++result.firings;
    if (!keep_going) {
      finish();
      return result;
    }
    if (awaiting_input_) {
      awaiting_input_ = false;
      // Nothing to read: it waits for its wake (one that came meanwhile left the cell notified,
      // so the director runs it again) or for the time it asked for.
      waits_for_input_ = true;
      return result;
    }
  }
  // Out of turn: it may fire again now unless it asked for a time still to come (a paced source
  // behind its schedule asked for one already past).
  result.has_more_work = fire_again_at_ == kNever || fire_again_at_ <= env_.clock->now();
  return result;
}

ExternalWake ActorCell::external_wake() {
  if (!external_) external_ = std::make_shared<ExternalWake::State>();
  asked_for_external_wake_ = true;
  return ExternalWake(external_);
}

void ActorCell::prepare_external_wake() {
  // Made before the director starts (a threaded director runs sources from then on): one
  // asked for while the source runs is the same, armed already, and none is made concurrently.
  if (!external_) external_ = std::make_shared<ExternalWake::State>();
}

void ActorCell::arm_external_wake(bool armed) {
  if (!external_) return;
  std::lock_guard lock(external_->mutex);
  external_->cell = armed ? this : nullptr;
}

void ExternalWake::wake() const {
  if (!state_) return;
  state_->woken.store(true, std::memory_order_release);
  std::lock_guard lock(state_->mutex);  // the run does not end (disarm) during notify()
  if (state_->cell) state_->cell->notify();
}

// The single-input case is inlined into the firing loop; the scan is out of line.
inline Receiver* ActorCell::earliest_ready_receiver() {
  if (receivers_.size() == 1) return receivers_[0]->has_window() ? receivers_[0].get() : nullptr;
  return earliest_of_receivers();
}

Receiver* ActorCell::earliest_of_receivers() {
  Receiver* best = nullptr;
  Timestamp best_time = 0;
  for (auto& r : receivers_) {
    if (!r || !r->has_window()) continue;
    Timestamp t = r->front_window().time;
    if (!best || t < best_time) {
      best = r.get();
      best_time = t;
    }
  }
  return best;
}

void ActorCell::set_fire_again_at(Timestamp t) {
  if (is_source())
    fire_again_at_ = t;
  else if (!requests_closed_)
    requested_firings_.push(t);
}

ActorCell::CycleResult ActorCell::run_requested_firings(Timestamp now, bool end_of_input,
                                                        std::uint32_t max_firings) {
  CycleResult result;
  // At the end of input no event can come any more: the times asked for are due at once (as the
  // windows waiting for a deadline close at once), and no new ones are taken, so that an actor
  // that keeps asking cannot keep the run alive. Not while the actor awaits work from outside
  // the workflow (await_outside): that can still come, and its times (a reply's deadline) keep
  // their meaning.
  if (end_of_input && awaits_outside()) end_of_input = false;
  if (end_of_input) requests_closed_ = true;
  // A firing without a window at `time`: port -1, its outputs start new waves.
  auto fire_at = [this](Timestamp time) {
    Window at;
    at.time = time;
    time_keeper_.begin_firing(at);
    FiringContext context(*this, -1, at);
    auto [fired, keep_going] = fire_once(context);
    (void)fired;
    if (!keep_going) finish();
  };
  // Woken from outside (ExternalWake): a firing without a window, at the clock's time, in which
  // the actor takes what came. Cleared before it, so that a wake during it fires it again.
  if (external_ && external_->woken.load(std::memory_order_acquire) &&
      external_->woken.exchange(false, std::memory_order_acq_rel) && !finishing_) {
    ++result.firings;
    fire_at(now);
  }
  while (!requested_firings_.empty() && (requested_firings_.top() <= now || end_of_input) &&
         result.firings < max_firings && !finishing_) {
    if (output_full_ && output_blocked()) return result;  // a consumer wakes us
    Timestamp time = requested_firings_.top();
    requested_firings_.pop();
    ++result.firings;
    fire_at(time);
  }
  result.has_more_work = !requested_firings_.empty() &&
                         (requested_firings_.top() <= now || end_of_input) && !finishing_;
  return result;
}

ActorCell::CycleResult ActorCell::run_windows(std::uint32_t max_firings) {
  // Held back by a full connection, it takes nothing in either, so that its own inputs fill up
  // and hold back their producers in turn: back-pressure reaches the sources. A consumer with
  // room again wakes it. (An actor that stopped still takes in, to drop what arrives.)
  if (output_full_ && !finishing_ && !finished() && output_blocked()) return {};
  Timestamp now = env_.clock->now();
  if (wake_at_ <= now) wake_at_ = kNever;
  bool end_of_input = input_has_ended();
  // What the actor asked to be fired at comes before the windows: its time has come.
  CycleResult result = run_requested_firings(now, end_of_input, max_firings);
  if (result.has_more_work || (output_full_ && output_blocked())) return result;
  // Held back by the actor itself: its ExternalWake runs it again. (After the times it asked
  // for, which would otherwise stay due and keep the director running it.)
  if (actor_.may_hold_back_input() && actor_.holds_back_input() && !finishing_) [[unlikely]]
    return result;
  // Read before draining: what an upstream actor sent before it was done is then in the inbox.
  const bool upstream_finished = end_of_input && upstream_done();
  bool input_ended = upstream_finished && !done_.load(std::memory_order_relaxed);
  // The windows close for good once nothing can reach them any more: at the run's end of input
  // only when an actor upstream never ends (a cycle), else once everything upstream is done.
  const bool windows_end = end_of_input && (!inputs_can_end_ || upstream_finished);
  for (auto& r : receivers_)
    if (r) stats_.events_in.add(r->drain(env_.cells_fire_one_at_a_time));
  // After the drain: whatever a cancellation caused (a punctuation completing a wave, say) was
  // sent after it was made, so it is applied before the actor fires on anything just drained.
  if (env_.cancellations && env_.cancellations->count() != cancellations_seen_)
    apply_cancellations();
  for (auto& r : receivers_) {
    if (!r) continue;
    r->advance(now, windows_end);
    if (finishing_ || finished()) {
      if (std::size_t left = r->buffered()) count_quietly(ProblemKind::dropped, left);
      while (r->has_window())
        r->finish_window(false, true);
    }
  }
  while (result.firings < max_firings && !finishing_) {
    if (output_full_ && output_blocked()) return result;  // a consumer wakes us
    if (actor_.may_hold_back_input() && actor_.holds_back_input()) [[unlikely]]
      break;
    Receiver* receiver = earliest_ready_receiver();
    if (!receiver) break;
    Window window = receiver->front_window();
    ++result.firings;
    if (window.events.size() == 1 && window.events[0].wave.is_punctuation() &&
        !(window.events[0].wave.is_progress() && actor_.takes_progress())) {
      // Not data: the actor does not fire; a wave's punctuation goes on to wave windows
      // downstream. A progress mark stops here: this cell tells its own progress (send_progress).
      if (punctuates_ && !window.events[0].wave.is_progress()) send_punctuation(window.events[0]);
      receiver->finish_window(false, true);
      continue;
    }
    time_keeper_.begin_firing(window);
    FiringContext context(*this, receiver->port(), window);
    firing_window_ = &window;
    auto [fired, keep_going] = fire_once(context);
    firing_window_ = nullptr;
    receiver->finish_window(fired, fired && context.consumed());
    if (!keep_going) finish();
  }
  // More to do: windows left after the grant, or events the bounded drain left in an inbox.
  for (auto& r : receivers_)
    if (r && (r->has_window() || r->inbox_size() > 0)) result.has_more_work = true;
  if (sends_progress_ && !finishing_) send_progress();
  // An actor awaiting work from outside ends its input once that came back (its wake fires it).
  if (input_ended && !result.has_more_work && !awaits_outside()) end_own_input();
  return result;
}

void ActorCell::apply_cancellations() {
  const CaseCancellations& registry = *env_.cancellations;
  for (std::size_t count = registry.count(); cancellations_seen_ < count;) {
    const CaseCancellations::Entry& entry = registry.entry(cancellations_seen_++);
    const CancellationScope& scope = registry.scope(entry.scope);
    if (!scope.reaches[id_]) continue;
    cancelled_cases_.push_back(&entry.what);
    std::size_t removed = 0;
    for (auto& r : receivers_)
      if (r) removed += r->cancel(entry.what);
    stats_.cancelled.add(removed);
    retract(entry.what, scope.retracts[id_]);
  }
}

void ActorCell::retract(const CaseId& cancelled, bool retract_outputs) {
  // A firing with no window, like a requested one: what it emits starts new waves.
  Window none;
  none.time = time_keeper_.input_time();
  time_keeper_.begin_firing(none);
  FiringContext context(*this, -1, none);
  try {
    actor_.retract(cancelled, context);
    if (retract_outputs) {
      // Oldest first, each stamped with the time of the output it retracts.
      retracting_ = true;
      std::erase_if(remembered_, [&](Output& output) {
        if (!cancelled.matches(output.event)) return false;
        time_keeper_.set_output_time(output.event.time);
        emit(output.port, Value::record({{"retracted", std::move(output.event.token)}}));
        stats_.retractions.add();
        return true;
      });
      retracting_ = false;
    }
    end_firing();
  } catch (const std::exception& e) {
    retracting_ = false;
    report(ProblemKind::failed, e.what());
  }
}

// ---- contexts ----

const std::string& ActorContext::name() const {
  return cell_->name();
}
const std::string& ActorContext::workflow_name() const {
  return cell_->env().workflow_name;
}
Clock& ActorContext::clock() const {
  return *cell_->env().clock;
}
ActorStats& ActorContext::stats() const {
  return cell_->stats();
}
void ActorContext::count_late(std::uint64_t events) const {
  cell_->count_late(events);
}
void ActorContext::report_error(std::string_view message) const {
  cell_->report(ProblemKind::rejected, message);
}

void ActorContext::report_warning(std::string_view message) const {
  cell_->report(ProblemKind::warning, message);
}

void ActorContext::report_loss(std::uint64_t events, std::string_view message) const {
  cell_->report(ProblemKind::lost, message, nullptr, events);
}

void ActorContext::report_dropped(std::uint64_t events, std::string_view message) const {
  cell_->report(ProblemKind::dropped, message, nullptr, events);
}

Duration ActorContext::time_to_finish(Duration wanted) const {
  std::int64_t by = cell_->env().finish_by_ns.load(std::memory_order_relaxed);
  if (by == std::numeric_limits<std::int64_t>::max()) return wanted;
  std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now().time_since_epoch())
                         .count();
  return std::min(wanted, std::max<Duration>(by - now, kSecond));
}

bool ActorContext::resuming() const {
  return cell_->env().resuming;
}

bool ActorContext::takes_checkpoints() const {
  return cell_->env().takes_checkpoints;
}

void ActorContext::set_input_name(std::string name) const {
  cell_->input_origin().set_name(std::move(name));
}

void ActorContext::note_input_line(std::uint64_t line) const {
  cell_->note_input_line(line);
}

void FiringContext::emit(int output_port, Value token) {
  cell_->emit(output_port, std::move(token));
}

Value FiringContext::take(std::size_t i) const {
  if (i >= window_.events.size())
    throw std::out_of_range("take: the window has no event " + std::to_string(i));
  if (window_.owned.empty()) return window_.events[i].token;
  return std::move(window_.owned[i].token);
}

bool ActorContext::connected(int output_port) const {
  return cell_->route_count(output_port) > 0;
}

const WaveTag& FiringContext::wave() const {
  static const WaveTag none;
  return window_.wave ? *window_.wave : none;
}

void FiringContext::set_output_time(Timestamp time) {
  cell_->time_keeper().set_output_time(time);
}

void FiringContext::emit_event(int output_port, Event event) {
  cell_->time_keeper().flush_before_explicit(
      [this](int p, Event&& e) { cell_->send(p, std::move(e)); });
  cell_->send(output_port, std::move(event));
}

WaveTag FiringContext::defer() {
  return cell_->defer_output();
}

void FiringContext::emit_deferred(int output_port, Value token, const WaveTag& tag) {
  cell_->emit_deferred(output_port,
                       Event{std::move(token), cell_->time_keeper().output_time(), tag});
}

void FiringContext::drop_deferred(const WaveTag& tag) {
  cell_->drop_deferred(tag, cell_->time_keeper().output_time());
}

void FiringContext::fire_again_at(Timestamp time) {
  cell_->set_fire_again_at(time);
}

void FiringContext::await_input() {
  cell_->await_input();
}

void ActorContext::await_outside(bool awaiting) const {
  if (cell_->is_source()) throw std::logic_error("a source waits with await_input");
  cell_->await_outside(awaiting);
}

ExternalWake ActorContext::external_wake() const {
  return cell_->external_wake();
}

bool ActorContext::can_await_input() const {
  return cell_->env().parent == nullptr &&
         dynamic_cast<const VirtualClock*>(cell_->env().clock) == nullptr;
}

std::size_t ActorContext::declare_cancellation_scope(const std::vector<std::string>& reaches,
                                                     const std::vector<std::string>& retracts,
                                                     std::size_t remember) const {
  CaseCancellations* registry = cell_->env().cancellations;
  if (!registry) throw std::logic_error("this workflow cannot cancel cases");
  return registry->declare_scope(reaches, retracts, remember);
}

void FiringContext::cancel_case(CaseId what, std::size_t scope) const {
  cell_->env().cancellations->cancel(std::move(what), scope);
}

}  // namespace cwf
