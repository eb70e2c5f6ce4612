#include "runtime/execution/execution.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "runtime/execution/windowed_receiver.hpp"
#include "runtime/graph/cycle_edges.hpp"

namespace cwf {

namespace {
// The two kinds of input port.
std::unique_ptr<Receiver> make_receiver(const PortWindow* window) {
  if (window) return std::make_unique<WindowedReceiver>(window->spec);
  return std::make_unique<FifoReceiver>();
}
}  // namespace

Execution::Execution(Workflow& workflow, Clock& clock)
    : workflow_(workflow), downstream_(workflow.size()) {
  env_.clock = &clock;
  env_.workflow_name = workflow.name();
  // Every actor numbers the waves it starts in a space of its own (a source for each token; any
  // actor when it fires on an empty window): sources first, so that a source's ordinal indexes
  // env_.origins.
  std::uint32_t sources = 0;
  for (ActorId id = 0; id < workflow.size(); ++id)
    if (workflow.actor(id).actor->is_source()) ++sources;
  std::uint32_t next_source = 0, next_other = sources;
  for (ActorId id = 0; id < workflow.size(); ++id) {
    ActorEntry& entry = workflow.actor(id);
    std::uint32_t ordinal = entry.actor->is_source() ? next_source++ : next_other++;
    ordinals_.push_back(ordinal);
    cells_.push_back(std::make_unique<ActorCell>(id, entry.name, *entry.actor, env_, ordinal));
    std::string location;
    if (!entry.location.file.empty())
      location = entry.location.file + ":" + std::to_string(entry.location.line);
    cells_.back()->set_declaration(entry.type, std::move(location));
    if (entry.actor->is_source()) env_.origins.push_back(&cells_.back()->input_origin());
  }
  // Each input port gets the receiver its declaration asks for: the window operator declared on
  // it, else a FIFO queue. Every connection into the port feeds that one receiver; unconnected
  // ports get a (forever empty) one too, so that cells need no null checks.
  for (ActorId id = 0; id < cells_.size(); ++id)
    for (int port = 0; port < static_cast<int>(workflow.actor(id).actor->inputs().size()); ++port)
      cells_[id]->set_receiver(port, make_receiver(workflow.window({id, port})));
  std::vector<ActorCell*> cells;
  for (auto& cell : cells_)
    cells.push_back(cell.get());
  cancellations_ = std::make_unique<CaseCancellations>(std::move(cells));
  env_.cancellations = cancellations_.get();
  std::map<Receiver*, std::uint64_t> intake_limits;
  // Every connection is bounded as declared (QueueLimits), except one per cycle.
  const CycleEdges cycle_edges = find_cycle_edges(workflow);
  auto limit = [&](Receiver& receiver, const QueueLimits& limits) {
    // A FIFO queue takes in no more than the largest capacity of the connections into it.
    auto& largest = intake_limits[&receiver];
    largest = std::max(largest, limits.capacity);
    return limits;
  };
  std::vector<std::size_t> producer_of_connection;
  for (std::size_t i = 0; i < workflow.connections().size(); ++i) {
    const Connection& c = workflow.connections()[i];
    Receiver& receiver = *cells_[c.to.actor]->receiver(c.to.port);
    QueueLimits limits =
        cycle_edges.connections[i] ? ActorCell::kUnboundedQueue : workflow.limits_of(c);
    producer_of_connection.push_back(cells_[c.from.actor]->add_route(
        c.from.port, receiver, limit(receiver, limits), c.route, c.route_receiver));
    auto& down = downstream_[c.from.actor];
    if (std::find(down.begin(), down.end(), c.to.actor) == down.end()) down.push_back(c.to.actor);
  }
  // Wave punctuations flow from every cell that may drop part of a wave to the wave windows
  // downstream, through FIFO receivers of plain actors: a fixpoint over the connections.
  for (bool changed = true; changed;) {
    changed = false;
    for (const Connection& c : workflow.connections()) {
      ActorCell& consumer = *cells_[c.to.actor];
      Receiver& receiver = *consumer.receiver(c.to.port);
      bool needed = receiver.wants_punctuation() ||
                    (receiver.forwards_punctuation() && consumer.punctuates());
      if (needed && !cells_[c.from.actor]->punctuates()) {
        cells_[c.from.actor]->set_punctuates(true);
        changed = true;
      }
    }
  }
  // Progress marks flow from every cell upstream of an actor that takes progress, through
  // receivers that can tell how far their input got: a fixpoint over the connections.
  for (bool changed = true; changed;) {
    changed = false;
    for (const Connection& c : workflow.connections()) {
      ActorCell& consumer = *cells_[c.to.actor];
      ActorCell& producer = *cells_[c.from.actor];
      if (producer.sends_progress() || !consumer.receiver(c.to.port)->passes_progress()) continue;
      if (consumer.actor().takes_progress() || consumer.sends_progress()) {
        producer.set_sends_progress();
        changed = true;
      }
    }
  }
  tell_wave_windows_their_carriers(producer_of_connection);
  // Which cells can see all their upstream done: a fixpoint from the cells without inputs; cells
  // on a cycle, and those after one, never do.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& cell : cells_) {
      if (cell->inputs_can_end()) continue;
      const auto& up = cell->upstream();
      if (std::all_of(up.begin(), up.end(),
                      [](const ActorCell* u) { return u->inputs_can_end(); })) {
        cell->set_inputs_can_end(true);
        changed = true;
      }
    }
  }
  // Expired events (CWP6): one route per windowed input port that names one.
  for (std::size_t i = 0; i < workflow.windows().size(); ++i) {
    const PortWindow& w = workflow.windows()[i];
    if (!w.expired_to) continue;
    Receiver& receiver = *cells_[w.expired_to->actor]->receiver(w.expired_to->port);
    QueueLimits limits =
        cycle_edges.expired_routes[i] ? ActorCell::kUnboundedQueue : workflow.queue_defaults();
    cells_[w.port.actor]->add_expired_route(w.port.port, receiver, limit(receiver, limits));
    auto& down = downstream_[w.port.actor];
    if (std::find(down.begin(), down.end(), w.expired_to->actor) == down.end())
      down.push_back(w.expired_to->actor);
  }
  for (auto [receiver, largest] : intake_limits)
    receiver->set_intake_limit(static_cast<std::size_t>(
        std::min<std::uint64_t>(largest, std::numeric_limits<std::size_t>::max())));
  find_upstream_inlets();
}

void Execution::find_upstream_inlets() {
  // Only a part of a workflow over several processes has inlets.
  if (std::none_of(cells_.begin(), cells_.end(),
                   [](const auto& c) { return c->actor().fed_by_other_processes(); }))
    return;
  for (auto& cell : cells_) {
    std::vector<const ActorCell*> inlets;
    std::set<const ActorCell*> seen{cell.get()};
    std::vector<const ActorCell*> to_visit(cell->upstream().begin(), cell->upstream().end());
    while (!to_visit.empty()) {
      const ActorCell* up = to_visit.back();
      to_visit.pop_back();
      if (!seen.insert(up).second) continue;
      if (up->actor().fed_by_other_processes()) inlets.push_back(up);
      to_visit.insert(to_visit.end(), up->upstream().begin(), up->upstream().end());
    }
    cell->set_upstream_inlets(std::move(inlets));
  }
}

void Execution::tell_wave_windows_their_carriers(
    const std::vector<std::size_t>& producer_of_connection) {
  // An actor carries the waves it starts, and every wave that reaches one of its FIFO inputs
  // whole: it fires once per event and answers each with children or a punctuation. A windowed
  // input fires once per several events, so the waves behind it arrive in part or not at all.
  // A fixpoint over the connections (cycles included).
  std::vector<std::set<std::uint32_t>> carries(cells_.size());
  for (ActorId id = 0; id < cells_.size(); ++id)
    carries[id].insert(ordinals_[id]);
  for (bool changed = true; changed;) {
    changed = false;
    for (const Connection& c : workflow_.connections()) {
      if (!cells_[c.to.actor]->receiver(c.to.port)->forwards_punctuation()) continue;
      for (std::uint32_t ordinal : carries[c.from.actor])
        changed |= carries[c.to.actor].insert(ordinal).second;
    }
  }
  const auto& connections = workflow_.connections();
  for (std::size_t i = 0; i < connections.size(); ++i) {
    const Connection& c = connections[i];
    Receiver& receiver = *cells_[c.to.actor]->receiver(c.to.port);
    if (!receiver.wants_punctuation()) continue;
    const auto& carried = carries[c.from.actor];
    receiver.set_carried_sources(producer_of_connection[i],
                                 std::vector<std::uint32_t>(carried.begin(), carried.end()));
  }
}

void Execution::initialize() {
  for (auto& cell : cells_)
    cell->initialize();
  for (auto& cell : cells_)
    if (cell->is_source()) cell->prepare_external_wake();
}

void Execution::wake_sources() {
  for (auto& cell : cells_)
    if (cell->is_source()) cell->wake();
}

void Execution::arm_external_wakes(bool armed) {
  for (auto& cell : cells_)
    cell->arm_external_wake(armed);  // a cell nobody asked a wake of has nothing to arm
}

void Execution::wake_all() {
  for (auto& cell : cells_)
    cell->wake();
}

void Execution::wrapup() {
  for (auto& cell : cells_)
    cell->wrapup();
}

bool Execution::sources_finished() const {
  return std::all_of(cells_.begin(), cells_.end(),
                     [](const auto& c) { return !c->is_source() || c->finished(); });
}

Timestamp Execution::cycle_window_deadline() const {
  Timestamp earliest = kNever;
  for (const auto& cell : cells_)
    earliest = std::min(earliest, cell->cycle_window_deadline());
  return earliest;
}

bool Execution::inlets_finished() const {
  return std::all_of(cells_.begin(), cells_.end(), [](const auto& c) {
    return !c->actor().fed_by_other_processes() || c->finished();
  });
}

bool Execution::quiescent() const {
  std::uint64_t before = env_.wakeups.load(std::memory_order_acquire);
  if (!std::all_of(cells_.begin(), cells_.end(), [](const auto& c) {
        return !c->is_source() || c->finished() || c->actor().fed_by_other_processes();
      }))
    return false;
  // Sources are judged by finished() alone: their threads or timers, not wake-ups, drive them.
  // An actor awaiting work from outside the workflow is idle, but what it awaits can still come.
  for (const auto& cell : cells_)
    if (!cell->is_source() &&
        (!cell->idle() || (cell->awaits_outside() && !cell->done()) ||
         cell->actor().runs_sources() ||
         (cell->actor().may_hold_back_input() && cell->actor().holds_back_input())))
      return false;
  return env_.wakeups.load(std::memory_order_acquire) == before;
}

std::uint64_t Execution::source_firings() const {
  std::uint64_t n = 0;
  for (const auto& cell : cells_)
    if (cell->is_source()) n += cell->stats().firings.get();
  return n;
}

bool Execution::drained() const {
  std::uint64_t before = env_.wakeups.load(std::memory_order_acquire);
  for (const auto& cell : cells_)
    if ((!cell->is_source() && !cell->idle()) || cell->inbox_length() > 0) return false;
  return env_.wakeups.load(std::memory_order_acquire) == before;
}

void Execution::end_input() {
  env_.end_of_input.store(true, std::memory_order_release);
  for (auto& cell : cells_)
    if (!cell->is_source()) cell->wake();
}

void Execution::stop_sources() {
  env_.stop_sources.store(true, std::memory_order_release);
  wake_sources();
}

}  // namespace cwf
