#include "cli/server/hosted_workflow.hpp"

#include <algorithm>
#include <cctype>
#include <future>
#include <sstream>

#include "actors/cancel.hpp"
#include "cli/registries.hpp"
#include "cli/resumable_run.hpp"
#include "cli/server/graphviz.hpp"
#include "cli/server/workflow_view_feed.hpp"
#include "cli/summary.hpp"
#include "cli/workflow_dot.hpp"
#include "runtime/execution/composite_actor.hpp"
#include "runtime/execution/director_factory.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/execution/windowed_receiver.hpp"
#include "runtime/loading/param_overrides.hpp"
#include "runtime/loading/workflow_loader.hpp"
#include "runtime/values/value_json.hpp"

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
  for (const Connection& c : workflow.connections()) {
    Value from(port_name(workflow, c.from, true)), to(port_name(workflow, c.to, false));
    // A connection into one of several replicas: which part of the events it carries.
    connections.push_back(
        c.route ? Value::record({{"from", from},
                                 {"to", to},
                                 {"route", Value(c.route->describe(c.route_receiver))}})
                : Value::record({{"from", from}, {"to", to}}));
  }
  std::vector<Value> windows;
  for (const PortWindow& w : workflow.windows())
    windows.push_back(Value::record({{"port", Value(port_name(workflow, w.port, false))},
                                     {"window", Value(workflow.describe(w))}}));
  return Value::record({{"actors", Value::array(std::move(actors))},
                        {"connections", Value::array(std::move(connections))},
                        {"windows", Value::array(std::move(windows))}});
}

Value count(std::uint64_t n) {
  return Value(static_cast<std::int64_t>(n));
}

}  // namespace

namespace {

// "director.PARAM=VALUE" settings address the workflow's director (its policy), the others its
// actors.
constexpr const char* kDirector = "director";

std::vector<ParamOverride> overrides_of(const WorkflowDefinition& definition) {
  std::vector<ParamOverride> overrides;
  for (const std::string& setting : definition.settings) {
    ParamOverride override = parse_param_override(setting);
    if (override.actor == kDirector) continue;
    override.base_dir = definition.base;
    overrides.push_back(std::move(override));
  }
  return overrides;
}

// One director setting over `config`. A new `scheduler` starts from its defaults: the
// parameters given before were the old policy's. A value is read as JSON (8, "all"), or else
// taken as text (all).
void apply_director_setting(const ParamOverride& change, DirectorConfig& config) {
  if (change.param == "scheduler") {
    config.scheduler = change.value;
    config.parameters.clear();
    return;
  }
  Value value;
  try {
    value = parse_json(change.value);
  } catch (const std::exception&) {
    value = Value(change.value);
  }
  config.parameters[change.param] = value;
}

// The director settings, in order, over what the file asks for.
void apply_director_settings(const WorkflowDefinition& definition, DirectorConfig& config) {
  for (const std::string& setting : definition.settings)
    if (ParamOverride change = parse_param_override(setting); change.actor == kDirector)
      apply_director_setting(change, config);
}

// Whether a change handed to the running workflow was taken within 10 s (a change dropped with
// a run that ended first breaks its promise: not taken).
bool taken_within_10s(std::future<void>& done) {
  if (done.wait_for(std::chrono::seconds(10)) != std::future_status::ready) return false;
  try {
    done.get();
    return true;
  } catch (const std::future_error&) {
    return false;
  }
}

Value director_value(const DirectorConfig& config) {
  std::vector<std::string> names;
  std::vector<Value> values;
  for (const auto& [name, value] : config.parameters) {
    names.push_back(name);
    values.push_back(value);
  }
  return Value::record(
      {{"type", Value(config.type)},
       {"scheduler", config.type == "scheduled" ? Value(config.scheduler) : Value()},
       {"workers", Value(static_cast<std::int64_t>(config.workers))},
       {"parameters", Value::record(Schema::intern(names), std::move(values))}});
}

}  // namespace

BuiltRun build_run(const WorkflowDefinition& definition) {
  BuiltRun run;
  const LoadContext context{actor_registry(), scheduler_registry()};
  run.workflow = load_workflow_text(definition.yaml, definition.file, definition.base, context,
                                    overrides_of(definition));
  apply_director_settings(definition, run.workflow->director());
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
                               Duration checkpoint_every, SharedWorkers* workers)
    : definition_(std::move(definition)),
      folder_(std::move(folder)),
      checkpoint_every_(checkpoint_every) {
  share_.workers = workers;
  share_.priority = definition_.priority;  // from now on the priority is share_'s
}

HostedWorkflow::~HostedWorkflow() {
  request_stop();
  join();
}

void HostedWorkflow::start(bool paused, BuiltRun built) {
  auto run = std::make_shared<BuiltRun>(std::move(built));
  connect_views(*run->workflow);
  checkpointed_ = RunCheckpoints::refusal(*run->workflow).empty();
  {
    std::lock_guard lock(mutex_);
    graph_ = graph_of(*run->workflow);
    director_config_ = run->workflow->director();
  }
  {
    std::lock_guard lock(svg_mutex_);
    dot_ = workflow_dot(*run->workflow);
    svg_.clear();
  }
  connections_.clear();
  for (const Connection& c : run->workflow->connections()) {
    const Workflow& w = *run->workflow;
    connections_.push_back({{w.actor(c.from.actor).name, port_of(w, c.from, true),
                             w.actor(c.to.actor).name, port_of(w, c.to, false)},
                            {c.from.actor, c.from.port, c.to.actor, c.to.port}});
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
    options.on_execution = [this](Execution* execution, Director* director) {
      execution_changed(execution, director);
    };
    if (share_.workers) {
      options.worker_share = &share_;
      share_.workers->join(share_);
    }
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
        again = build_run(definition());
        connect_views(*again.workflow);
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
      live_changed_.notify_all();
    }
    if (share_.workers) share_.workers->leave(share_);
    state_ = end;
    if (on_end_) on_end_(end);
  });
}

void HostedWorkflow::attach(Execution& execution, const AttachedView& attached) {
  const ConnectionEnds::Ends& ends = attached.ends;
  execution.cell(ends.producer)
      .watch(ends.port, attached.view, execution.cell(ends.consumer).receiver(ends.input));
}

void HostedWorkflow::execution_changed(Execution* execution, Director* director) {
  std::lock_guard lock(live_mutex_);
  director_ = director;
  for (const AttachedView& attached : views_) {
    if (execution_) execution_->cell(attached.ends.producer).unwatch(*attached.view);
    if (execution) attach(*execution, attached);
  }
  execution_ = execution;
  live_changed_.notify_all();
}

std::shared_ptr<LiveView> HostedWorkflow::open_view(const std::string& from, const std::string& to,
                                                    const std::string& where) {
  {
    // A workflow not running has nothing to view, whatever is asked (one listed as ended or
    // failed after a restart has not even its connections).
    std::lock_guard lock(live_mutex_);
    if (!run_going_on_)
      throw CatalogError(409, "workflow '" + name() + "' is " + state_name(state()) +
                                  ": there is nothing to view");
  }
  std::vector<const ConnectionEnds*> found;
  for (const ConnectionEnds& c : connections_)
    if (names_end(from, c.name.from_actor, c.name.from_port) &&
        names_end(to, c.name.to_actor, c.name.to_port))
      found.push_back(&c);
  if (found.size() != 1) {
    // The ones that fit, or when none does, all of them.
    std::string list;
    for (const ConnectionEnds& c : connections_)
      if (found.empty() || std::find(found.begin(), found.end(), &c) != found.end())
        list += "\n  " + c.name.text();
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
  views_.push_back({found[0]->ends, view});
  if (execution_) attach(*execution_, views_.back());
  return view;
}

namespace {

// "TIME#SEQUENCE" and whatever follows (a wave as views show it): its root.
std::optional<WaveRoot> wave_root_of(const std::string& text) {
  const std::size_t hash = text.find('#');
  if (hash == std::string::npos || hash == 0) return std::nullopt;
  std::size_t end = hash + 1;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
    ++end;
  if (end == hash + 1) return std::nullopt;
  try {
    std::size_t used = 0;
    WaveRoot root;
    root.time = std::stoll(text.substr(0, hash), &used);
    if (used != hash) return std::nullopt;
    root.sequence = std::stoull(text.substr(hash + 1, end - hash - 1));
    return root;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

void HostedWorkflow::wait_for_execution(std::unique_lock<std::mutex>& lock,
                                        const std::string& otherwise) {
  // A run starting (or rebuilt to resume from an earlier checkpoint) has its execution soon.
  live_changed_.wait_for(lock, std::chrono::seconds(10),
                         [&] { return execution_ != nullptr || !run_going_on_; });
  if (!run_going_on_ || !execution_)
    throw CatalogError(409,
                       "workflow '" + name() + "' is " + state_name(state()) + ": " + otherwise);
}

std::string HostedWorkflow::cancel_case(const std::string& actor, const std::optional<Value>& key,
                                        const std::optional<std::string>& wave) {
  std::unique_lock lock(live_mutex_);
  wait_for_execution(lock, "there is no case to cancel");
  std::vector<ActorId> cancels;
  for (ActorId id = 0; id < execution_->size(); ++id) {
    const ActorCell& cell = execution_->cell(id);
    if (actor.empty() ? cell.type() == "cancel" : cell.name() == actor) cancels.push_back(id);
  }
  if (cancels.empty())
    throw CatalogError(actor.empty() ? 400 : 404,
                       actor.empty() ? "workflow '" + name() + "' has no cancel actor"
                                     : "workflow '" + name() + "' has no actor '" + actor + "'");
  if (cancels.size() > 1)
    throw CatalogError(400, "workflow '" + name() + "' has several cancel actors: name one");
  const auto* cancel = dynamic_cast<const actors::Cancel*>(&execution_->cell(cancels[0]).actor());
  const std::string& named = execution_->cell(cancels[0]).name();
  if (!cancel)
    throw CatalogError(400, "'" + named + "' is not a cancel actor (type " +
                                execution_->cell(cancels[0]).type() + ")");
  CaseId what;
  if (cancel->cancels_keys()) {
    if (!key || key->is_null() || wave)
      throw CatalogError(400, "'" + named + "' cancels cases by key: give the key (not null)");
    what.key = *key;
    what.match = cancel->match();
  } else {
    if (!wave || key)
      throw CatalogError(400, "'" + named + "' cancels waves: give the wave (TIME#SEQUENCE)");
    std::optional<WaveRoot> root = wave_root_of(*wave);
    if (!root)
      throw CatalogError(400, "'" + *wave + "' is not a wave: TIME#SEQUENCE, e.g. 1700000000#4");
    what.wave = *root;
  }
  std::string described = what.describe();
  execution_->cancellations().cancel(std::move(what), cancel->scope());
  return described;
}

Value HostedWorkflow::settings_value() const {
  std::vector<Value> settings;
  for (const std::string& setting : definition().settings)
    settings.emplace_back(setting);
  return Value::array(std::move(settings));
}

WorkflowDefinition HostedWorkflow::definition() const {
  std::lock_guard lock(mutex_);
  WorkflowDefinition copy = definition_;
  copy.priority = priority();
  return copy;
}

bool HostedWorkflow::set_parameter(const std::string& setting) {
  // One change at a time: each is built from the settings before it.
  std::lock_guard changing(change_mutex_);
  ParamOverride change;
  try {
    change = parse_param_override(setting);
  } catch (const std::invalid_argument& e) {
    throw CatalogError(400, e.what());
  }
  if (change.actor == kDirector) return set_policy(setting, change);
  if (change.window_field()) return set_window(setting, change);
  // Loaded again with it: the loader checks the actor, the parameter and the value.
  WorkflowDefinition changed = definition();
  changed.settings.push_back(setting);
  BuiltRun rebuilt = build_run(changed);
  const ActorId id = *rebuilt.workflow->find(change.actor);
  const ActorEntry& entry = rebuilt.workflow->actor(id);
  const ActorType* type = actor_registry().find(entry.type);
  const auto spec = std::find_if(type->params.begin(), type->params.end(),
                                 [&](const ParamSpec& p) { return p.name == change.param; });
  if (spec == type->params.end() || !spec->changeable) {
    std::string changeable;
    for (const ParamSpec& p : type->params)
      if (p.changeable) changeable += (changeable.empty() ? "" : ", ") + p.name;
    throw CatalogError(
        409,
        "'" + change.param + "' of " + entry.type + " cannot be changed while the workflow runs (" +
            (changeable.empty() ? "none of its parameters can" : "only " + changeable + " can") +
            "): remove it and register it again");
  }
  auto applied = std::make_shared<std::promise<void>>();
  std::future<void> done = applied->get_future();
  {
    std::unique_lock lock(live_mutex_);
    wait_for_execution(lock, "there is nothing to change");
    // The rebuilt actor lives until the running one has taken the value from it.
    std::shared_ptr<Workflow> keep(std::move(rebuilt.workflow));
    Actor* from = keep->actor(id).actor.get();
    ActorCell& cell = execution_->cell(id);
    cell.request_change([keep, from, &actor = cell.actor(), param = change.param, applied] {
      actor.adopt_parameter(param, *from);
      applied->set_value();
    });
    std::lock_guard settings_lock(mutex_);
    definition_.settings.push_back(setting);
  }
  return taken_within_10s(done);
}

bool HostedWorkflow::set_policy(const std::string& setting, const ParamOverride& change) {
  if (change.param == "type" || change.param == "workers")
    throw CatalogError(409, "the director's " + change.param +
                                " cannot change while the workflow runs: remove it and register "
                                "it again");
  DirectorConfig config;
  {
    std::lock_guard lock(mutex_);
    config = director_config_;
  }
  if (config.type != "scheduled")
    throw CatalogError(409, "workflow '" + name() + "' runs under the " + config.type +
                                " director, which has no scheduling policy to change");
  apply_director_setting(change, config);
  std::unique_ptr<Scheduler> policy;
  try {
    policy = scheduler_registry().create(config.scheduler, config.parameters);  // checks them
  } catch (const std::invalid_argument& e) {
    throw CatalogError(400, e.what());
  }
  auto applied = std::make_shared<std::promise<void>>();
  std::future<void> done = applied->get_future();
  {
    std::unique_lock lock(live_mutex_);
    wait_for_execution(lock, "there is nothing to change");
    auto* scheduled = dynamic_cast<ScheduledDirector*>(director_);
    if (!scheduled)
      throw CatalogError(409, "workflow '" + name() + "' does not run under a scheduled director");
    scheduled->adopt_policy(std::move(policy), [applied] { applied->set_value(); });
    std::lock_guard settings_lock(mutex_);
    definition_.settings.push_back(setting);
    director_config_ = config;  // the next change builds on it, taken yet or not
  }
  return taken_within_10s(done);
}

bool HostedWorkflow::set_window(const std::string& setting, const ParamOverride& change) {
  const std::string port_name = change.window_field()->port;
  // Loaded with and without it: the loader checks the port, the field and the value, and the
  // two windows say whether the running one can become the other.
  WorkflowDefinition changed = definition();
  BuiltRun before = build_run(changed);
  changed.settings.push_back(setting);
  BuiltRun after = build_run(changed);
  const ActorId id = *after.workflow->find(change.actor);
  const int port = after.workflow->actor(id).actor->input_index(port_name);
  const WindowSpec& from = before.workflow->window({id, port})->spec;
  const WindowSpec& to = after.workflow->window({id, port})->spec;
  if (std::optional<std::string> why = reshape_refusal(from, to))
    throw CatalogError(409, "the window on " + change.actor + "." + port_name +
                                " cannot change that way while the workflow runs (" + *why +
                                "): remove it and register it again");
  auto applied = std::make_shared<std::promise<void>>();
  std::future<void> done = applied->get_future();
  {
    std::unique_lock lock(live_mutex_);
    wait_for_execution(lock, "there is nothing to change");
    ActorCell& cell = execution_->cell(id);
    cell.request_change([&cell, port, to, applied] {
      // The cell built a windowed receiver for the port: the workflow declares its window.
      try {
        if (auto* windowed = dynamic_cast<WindowedReceiver*>(cell.receiver(port)))
          windowed->reshape(to);
        applied->set_value();
      } catch (const std::exception& e) {  // not expected: refused above already
        cell.report(ProblemKind::failed, std::string("window change: ") + e.what());
        applied->set_exception(std::current_exception());
      }
    });
    std::lock_guard settings_lock(mutex_);
    definition_.settings.push_back(setting);
    graph_ = graph_of(*after.workflow);  // the windows as they are now
  }
  {
    std::lock_guard lock(svg_mutex_);
    dot_ = workflow_dot(*after.workflow);
    svg_.clear();
  }
  return taken_within_10s(done);
}

void HostedWorkflow::close_view(const LiveView& view) {
  std::lock_guard lock(live_mutex_);
  auto attached = std::find_if(views_.begin(), views_.end(),
                               [&](const AttachedView& a) { return a.view.get() == &view; });
  if (attached == views_.end()) return;
  if (execution_) execution_->cell(attached->ends.producer).unwatch(view);
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
    BuiltRun run = build_run(definition());
    Value graph = graph_of(*run.workflow);
    std::string dot = workflow_dot(*run.workflow);
    {
      std::lock_guard lock(mutex_);
      graph_ = std::move(graph);
    }
    std::lock_guard lock(svg_mutex_);
    dot_ = std::move(dot);
    svg_.clear();
  } catch (const std::exception& e) {
    std::lock_guard lock(mutex_);
    error_ = e.what();
  }
}

void HostedWorkflow::mark_failed(const std::string& error) {
  state_ = WorkflowState::failed;
  started_ = std::chrono::steady_clock::now();
  error_ = error;
}

void HostedWorkflow::set_priority(int priority) {
  share_.priority = priority;
  if (share_.workers) share_.workers->priorities_changed();
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
  rank_first_to_finish();
  for (WorkflowState from : {WorkflowState::running, WorkflowState::paused}) {
    WorkflowState expected = from;
    if (state_.compare_exchange_strong(expected, WorkflowState::stopping)) break;
  }
}

void HostedWorkflow::suspend() {
  suspend_ = true;
  rank_first_to_finish();
  for (WorkflowState from : {WorkflowState::running, WorkflowState::paused}) {
    WorkflowState expected = from;
    if (state_.compare_exchange_strong(expected, WorkflowState::stopping)) break;
  }
}

void HostedWorkflow::connect_views(Workflow& workflow) const {
  for (ActorId id = 0; id < workflow.size(); ++id) {
    Actor* actor = workflow.actor(id).actor.get();
    if (auto* view = dynamic_cast<actors::WorkflowViewSource*>(actor))
      view->connect_with(view_connector(find_others_, name()));
    else if (auto* composite = dynamic_cast<CompositeActor*>(actor))
      connect_views(composite->inner());  // views inside its sub-workflows too
  }
}

void HostedWorkflow::rank_first_to_finish() {
  share_.finishing = true;
  if (share_.workers) share_.workers->priorities_changed();
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

std::string HostedWorkflow::graph_svg() const {
  // Not mutex_, which the run's progress takes: drawing must not hold the run up.
  std::lock_guard lock(svg_mutex_);
  if (dot_.empty())
    throw std::runtime_error("workflow '" + name() + "' has no graph (it does not load)");
  if (svg_.empty()) svg_ = render_svg(dot_);
  return svg_;
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
                        {"priority", Value(static_cast<std::int64_t>(priority()))},
                        {"uptime_seconds", Value(uptime_seconds())},
                        {"checkpointed", Value(checkpointed_)},
                        {"events_from_sources", count(out)},
                        {"events_processed", count(in)},
                        {"problems", count(problems)},
                        {"waited_for_workers_seconds", Value(waited_for_workers_seconds())}});
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
  Value director, graph;
  {
    std::lock_guard lock(mutex_);
    error = error_;
    log = log_;
    director = director_value(director_config_);
    graph = graph_;
  }
  const std::uint64_t resumed = resumed_from_.load();
  return Value::record({{"workflow", summary()},
                        {"file", Value(definition_.file)},
                        {"settings", settings_value()},
                        {"director", director},
                        {"resumed_from_checkpoint", resumed ? count(resumed) : Value()},
                        {"views_open", count(views_open())},
                        {"graph", graph},
                        {"actors", Value::array(std::move(actors))},
                        {"error", error.empty() ? Value() : Value(error)},
                        {"log", log.empty() ? Value() : Value(log)}});
}

}  // namespace cwf::cli
