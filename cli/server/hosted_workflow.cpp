#include "cli/server/hosted_workflow.hpp"

#include <algorithm>
#include <sstream>

#include "cli/registries.hpp"
#include "cli/resumable_run.hpp"
#include "cli/summary.hpp"
#include "runtime/execution/director_factory.hpp"
#include "runtime/loading/workflow_loader.hpp"

namespace cwf::cli {

namespace {

constexpr Duration kRefreshEvery = 100 * kMillisecond;
constexpr std::size_t kLogLimit = 16 * 1024;  // the end of what a run reported is kept

std::string port_of(const Workflow& workflow, const PortAddress& address, bool output) {
  const Actor& actor = *workflow.actor(address.actor).actor;
  auto ports = output ? actor.outputs() : actor.inputs();
  if (address.port >= 0 && static_cast<std::size_t>(address.port) < ports.size())
    return ports[static_cast<std::size_t>(address.port)].name;
  return "";
}

std::string port_name(const Workflow& workflow, const PortAddress& address, bool output) {
  std::string name = workflow.actor(address.actor).name;
  std::string port = port_of(workflow, address, output);
  return port.empty() ? name : name + "." + port;
}

// "actor" or "actor.port" against one end of a connection (an actor's name may hold dots).
bool names_end(const std::string& wanted, const std::string& actor, const std::string& port) {
  return wanted == actor || wanted == actor + "." + port;
}

Value graph_of(const Workflow& workflow) {
  std::vector<Value> actors, connections;
  for (ActorId id = 0; id < workflow.size(); ++id) {
    const ActorEntry& entry = workflow.actor(id);
    actors.push_back(Value::record({{"name", Value(entry.name)},
                                    {"type", Value(entry.type)},
                                    {"location", Value(entry.location.to_string())}}));
  }
  for (const Connection& c : workflow.connections())
    connections.push_back(Value::record({{"from", Value(port_name(workflow, c.from, true))},
                                         {"to", Value(port_name(workflow, c.to, false))}}));
  return Value::record({{"actors", Value::array(std::move(actors))},
                        {"connections", Value::array(std::move(connections))}});
}

Value count(std::uint64_t n) {
  return Value(static_cast<std::int64_t>(n));
}

}  // namespace

BuiltRun build_run(const WorkflowDefinition& definition) {
  BuiltRun run;
  const LoadContext context{actor_registry(), scheduler_registry()};
  run.workflow = load_workflow_text(definition.yaml, definition.file, definition.base, context);
  run.director = make_director(run.workflow->director(), scheduler_registry());
  // The clock the file asks for: a hosted workflow has no command line to choose another.
  const std::string& kind = run.workflow->clock();
  if (kind.empty() || kind == "real")
    run.clock = std::make_unique<RealClock>();
  else if (kind == "virtual")
    run.clock = std::make_unique<VirtualClock>();
  else
    run.clock = std::make_unique<ScaledClock>(RealClock().now(), 1.0);
  return run;
}

const char* state_name(WorkflowState state) {
  switch (state) {
    case WorkflowState::running:
      return "running";
    case WorkflowState::paused:
      return "paused";
    case WorkflowState::stopping:
      return "stopping";
    case WorkflowState::stopped:
      return "stopped";
    case WorkflowState::finished:
      return "finished";
    case WorkflowState::failed:
      return "failed";
  }
  return "unknown";
}

HostedWorkflow::HostedWorkflow(WorkflowDefinition definition, std::filesystem::path folder,
                               Duration checkpoint_every)
    : definition_(std::move(definition)),
      folder_(std::move(folder)),
      checkpoint_every_(checkpoint_every) {}

HostedWorkflow::~HostedWorkflow() {
  request_stop();
  join();
}

void HostedWorkflow::start(bool paused, BuiltRun built) {
  auto run = std::make_shared<BuiltRun>(std::move(built));
  checkpointed_ = RunCheckpoints::refusal(*run->workflow).empty();
  graph_ = graph_of(*run->workflow);
  connections_.clear();
  for (const Connection& c : run->workflow->connections()) {
    const Workflow& w = *run->workflow;
    connections_.push_back({{w.actor(c.from.actor).name, port_of(w, c.from, true),
                             w.actor(c.to.actor).name, port_of(w, c.to, false)},
                            c.from.actor,
                            c.from.port});
  }
  {
    // Every actor with nothing counted yet, until the run's first figures.
    std::lock_guard lock(mutex_);
    actors_.clear();
    for (ActorId id = 0; id < run->workflow->size(); ++id) {
      const ActorEntry& entry = run->workflow->actor(id);
      ActorSummary zero{};
      zero.name = entry.name;
      zero.type = entry.type;
      zero.location = entry.location.to_string();
      zero.is_source = entry.actor->is_source();
      actors_.push_back(zero);
    }
  }
  {
    std::lock_guard lock(live_mutex_);
    run_going_on_ = true;
  }
  pause_ = paused;
  state_ = paused ? WorkflowState::paused : WorkflowState::running;
  started_ = std::chrono::steady_clock::now();
  thread_ = std::thread([this, run] {
    std::ostringstream log;
    RunOptions options;
    options.stop_requested = &stop_;
    options.pause_requested = &pause_;
    options.suspend_requested = &suspend_;
    options.on_execution = [this](Execution* execution) { execution_changed(execution); };
    options.progress_interval = kRefreshEvery;
    auto refresh = [this](const Execution& execution) {
      std::vector<ActorSummary> now = snapshot(execution);
      std::lock_guard lock(mutex_);
      actors_ = std::move(now);
    };
    WorkflowState end = WorkflowState::finished;
    try {
      std::unique_ptr<RunCheckpoints> checkpoints;
      if (checkpointed_) {
        CheckpointOptions where;
        where.directory = folder_ / "checkpoints";
        where.every = checkpoint_every_;
        checkpoints = std::make_unique<RunCheckpoints>(where);
        options.checkpoint_every = where.every;
        options.checkpoint_skipped = [&] { checkpoints->skipped(log); };
      }
      auto rebuild = [this](BuiltRun& again) {
        again = build_run(definition_);
        return true;
      };
      RunSummary summary = run_resuming(*run, rebuild, checkpoints.get(), /*resume=*/true, options,
                                        refresh, name(), log, &resumed_from_);
      if (checkpoints) checkpoints->report(log);
      print_problems(summary, LossTolerance{}, log);
      std::lock_guard lock(mutex_);
      actors_ = std::move(summary.actors);
      if (stop_ || suspend_) end = WorkflowState::stopped;
      if (summary.suspended) log << name() << ": suspended at a checkpoint, to go on from there\n";
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex_);
      error_ = e.what();
      end = WorkflowState::failed;
    }
    std::string text = log.str();
    if (text.size() > kLogLimit) text = text.substr(text.size() - kLogLimit);
    {
      std::lock_guard lock(mutex_);
      log_ = std::move(text);
    }
    {
      // No more events: each view's reader finishes with what waits.
      std::lock_guard lock(live_mutex_);
      for (const AttachedView& attached : views_)
        attached.view->end();
      views_.clear();
      run_going_on_ = false;
    }
    state_ = end;
    if (on_end_) on_end_(end);
  });
}

void HostedWorkflow::execution_changed(Execution* execution) {
  std::lock_guard lock(live_mutex_);
  for (const AttachedView& attached : views_) {
    if (execution_) execution_->cell(attached.producer).unwatch(*attached.view);
    if (execution) execution->cell(attached.producer).watch(attached.port, attached.view);
  }
  execution_ = execution;
}

std::shared_ptr<LiveView> HostedWorkflow::open_view(const std::string& from, const std::string& to,
                                                    const std::string& where) {
  std::vector<const ConnectionEnds*> found;
  for (const ConnectionEnds& c : connections_)
    if (names_end(from, c.name.from_actor, c.name.from_port) &&
        names_end(to, c.name.to_actor, c.name.to_port))
      found.push_back(&c);
  if (found.size() != 1) {
    std::string list;
    if (found.empty())
      for (const ConnectionEnds& c : connections_)
        list += "\n  " + c.name.text();
    for (const ConnectionEnds* c : found)
      list += "\n  " + c->name.text();
    if (found.empty())
      throw CatalogError(404, "workflow '" + name() + "' has no connection " + from + " -> " + to +
                                  "; its connections:" + list);
    throw CatalogError(400, from + " -> " + to + " is more than one connection of workflow '" +
                                name() + "' (name the ports):" + list);
  }
  std::optional<Expression> predicate;
  if (!where.empty()) {
    try {
      predicate = Expression::compile(where);
    } catch (const ExprError& e) {
      throw CatalogError(400, std::string("where: ") + e.what());
    }
  }
  auto view = std::make_shared<LiveView>(found[0]->name, std::move(predicate));
  std::lock_guard lock(live_mutex_);
  if (!run_going_on_)
    throw CatalogError(
        409, "workflow '" + name() + "' is " + state_name(state()) + ": there is nothing to view");
  views_.push_back({found[0]->producer, found[0]->port, view});
  if (execution_) execution_->cell(found[0]->producer).watch(found[0]->port, view);
  return view;
}

void HostedWorkflow::close_view(const LiveView& view) {
  std::lock_guard lock(live_mutex_);
  auto attached = std::find_if(views_.begin(), views_.end(),
                               [&](const AttachedView& a) { return a.view.get() == &view; });
  if (attached == views_.end()) return;
  if (execution_) execution_->cell(attached->producer).unwatch(view);
  attached->view->end();
  views_.erase(attached);
}

std::size_t HostedWorkflow::views_open() const {
  std::lock_guard lock(live_mutex_);
  return views_.size();
}

void HostedWorkflow::mark_ended(WorkflowState state) {
  state_ = state;
  started_ = std::chrono::steady_clock::now();
  try {
    graph_ = graph_of(*build_run(definition_).workflow);
  } catch (const std::exception& e) {
    error_ = e.what();
  }
}

void HostedWorkflow::mark_failed(const std::string& error) {
  state_ = WorkflowState::failed;
  started_ = std::chrono::steady_clock::now();
  error_ = error;
}

void HostedWorkflow::pause() {
  pause_ = true;
  WorkflowState expected = WorkflowState::running;
  state_.compare_exchange_strong(expected, WorkflowState::paused);
}

void HostedWorkflow::resume() {
  pause_ = false;
  WorkflowState expected = WorkflowState::paused;
  state_.compare_exchange_strong(expected, WorkflowState::running);
}

void HostedWorkflow::request_stop() {
  stop_ = true;
  for (WorkflowState from : {WorkflowState::running, WorkflowState::paused}) {
    WorkflowState expected = from;
    if (state_.compare_exchange_strong(expected, WorkflowState::stopping)) break;
  }
}

void HostedWorkflow::suspend() {
  suspend_ = true;
  for (WorkflowState from : {WorkflowState::running, WorkflowState::paused}) {
    WorkflowState expected = from;
    if (state_.compare_exchange_strong(expected, WorkflowState::stopping)) break;
  }
}

void HostedWorkflow::join() {
  if (thread_.joinable()) thread_.join();
}

WorkflowState HostedWorkflow::state() const {
  return state_.load();
}

double HostedWorkflow::uptime_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::vector<ActorSummary> HostedWorkflow::actors() const {
  std::lock_guard lock(mutex_);
  return actors_;
}

Value HostedWorkflow::summary() const {
  std::uint64_t in = 0, out = 0, problems = 0;
  for (const ActorSummary& a : actors()) {
    if (!a.is_source) in += a.events_in;
    if (a.is_source) out += a.events_out;
    problems += a.incomplete();
  }
  return Value::record({{"name", Value(name())},
                        {"state", Value(state_name(state()))},
                        {"priority", Value(static_cast<std::int64_t>(definition_.priority))},
                        {"uptime_seconds", Value(uptime_seconds())},
                        {"checkpointed", Value(checkpointed_)},
                        {"events_from_sources", count(out)},
                        {"events_processed", count(in)},
                        {"problems", count(problems)}});
}

Value HostedWorkflow::details() const {
  std::vector<Value> actors;
  for (const ActorSummary& a : this->actors())
    actors.push_back(Value::record({{"name", Value(a.name)},
                                    {"type", Value(a.type)},
                                    {"firings", count(a.firings)},
                                    {"events_in", count(a.events_in)},
                                    {"events_out", count(a.events_out)},
                                    {"queued", count(a.queue_length)},
                                    {"busy_ms", Value(static_cast<double>(a.cost_ns) / 1e6)},
                                    {"rejected", count(a.rejected)},
                                    {"failed", count(a.failed)},
                                    {"dropped", count(a.dropped)},
                                    {"late", count(a.late)},
                                    {"lost", count(a.lost)},
                                    {"expired", count(a.expired)},
                                    {"cancelled", count(a.cancelled)},
                                    {"problems", count(a.incomplete())}}));
  std::string error, log;
  {
    std::lock_guard lock(mutex_);
    error = error_;
    log = log_;
  }
  const std::uint64_t resumed = resumed_from_.load();
  return Value::record({{"workflow", summary()},
                        {"file", Value(definition_.file)},
                        {"resumed_from_checkpoint", resumed ? count(resumed) : Value()},
                        {"views_open", count(views_open())},
                        {"graph", graph_},
                        {"actors", Value::array(std::move(actors))},
                        {"error", error.empty() ? Value() : Value(error)},
                        {"log", log.empty() ? Value() : Value(log)}});
}

}  // namespace cwf::cli
