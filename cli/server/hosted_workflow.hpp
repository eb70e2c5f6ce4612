// One workflow hosted by `cwf serve`: its definition (the YAML as registered, the folder its
// relative paths are resolved against, its priority), the thread running it, and what the REST
// API shows of it (state, uptime, per-actor figures refreshed while it runs).
//
// A workflow whose actors can all be checkpointed runs with checkpoints in its folder of the
// server's state and resumes from them when it is started again (after a server restart); one
// that cannot runs without, and starts from the beginning again.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cli/resumable_run.hpp"
#include "cli/server/catalog_error.hpp"
#include "cli/server/live_view.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/shared_workers.hpp"
#include "runtime/loading/param_overrides.hpp"
#include "runtime/values/value.hpp"

namespace cwf::cli {

// What a workflow was registered with; kept in the server's state folder.
struct WorkflowDefinition {
  std::string name;
  std::string yaml;
  std::string file;  // the registered file's name, in load errors
  std::string base;  // the folder relative paths in the YAML are relative to
  int priority = 0;  // higher is more important
  // Parameters changed since it was registered (`cwf set`), "ACTOR.PARAM=VALUE" in order:
  // applied as `cwf run --set` overrides when it is loaded again.
  std::vector<std::string> settings;
};

// The workflow, its director and its clock (the one its file asks for), loaded from the
// definition. Throws LoadError for a YAML that does not load.
BuiltRun build_run(const WorkflowDefinition& definition);

enum class WorkflowState { running, paused, stopping, stopped, finished, failed };
const char* state_name(WorkflowState state);

class HostedWorkflow {
 public:
  // `folder`: the workflow's folder in the server's state (its checkpoints go there, one every
  // `checkpoint_every`). `workers`: the workers it shares with the server's other workflows by
  // priority (null: its director's own, unshared).
  HostedWorkflow(WorkflowDefinition definition, std::filesystem::path folder,
                 Duration checkpoint_every, SharedWorkers* workers = nullptr);
  ~HostedWorkflow();  // stops the run and waits for it
  HostedWorkflow(const HostedWorkflow&) = delete;
  HostedWorkflow& operator=(const HostedWorkflow&) = delete;

  // How its workflow_view sources find the workflows they view (the catalog's). Set before
  // start(); without it they have nothing to view.
  void find_others_with(std::function<std::shared_ptr<HostedWorkflow>(const std::string&)> find) {
    find_others_ = std::move(find);
  }
  // Called on the run's thread once the run has ended, with the state it ended in (finished,
  // stopped or failed). Set before start().
  void on_end(std::function<void(WorkflowState)> callback) { on_end_ = std::move(callback); }
  // Starts running `run` (build_run of the definition) on a thread of its own, paused when
  // `paused`.
  void start(bool paused, BuiltRun run);
  // The same, loading it first (throws LoadError, std::runtime_error).
  void start(bool paused) { start(paused, build_run(definition())); }
  // For a workflow whose run ended before a server restart: listed in `state`, not run.
  void mark_ended(WorkflowState state);
  // For a saved workflow that no longer loads: listed as failed with the reason, not run.
  void mark_failed(const std::string& error);
  void pause();
  void resume();
  // Asks the run to stop: its sources stop and what is queued is processed (a checkpoint then
  // holds everything). Returns at once; state() says when it has stopped.
  void request_stop();
  // For a server shutdown: asks the run to end at a checkpoint (RunOptions::suspend_requested),
  // so that the next start goes on exactly from there, windows and all; a workflow without
  // checkpoints is stopped. Returns at once.
  void suspend();
  // Waits until the run has ended.
  void join();

  // A copy: `settings` grows while it runs (set_parameter).
  WorkflowDefinition definition() const;
  const std::string& name() const { return definition_.name; }
  WorkflowState state() const;
  bool checkpointed() const { return checkpointed_; }
  // The workflow's graph and current figures, as the REST API shows them.
  Value summary() const;  // one line of the list
  Value details() const;  // summary, graph and per-actor statistics
  // A live view (CWP5) of the connection from `from` to `to` ("actor" or "actor.port" each; the
  // port may be left out where one connection fits), showing the events matching `where` (an
  // expression; empty: all) from now on, until close_view or the run's end. Throws CatalogError:
  // 404 no such connection (the message lists them), 400 an ambiguous one or a predicate that
  // does not compile, 409 a workflow that is not running.
  std::shared_ptr<LiveView> open_view(const std::string& from, const std::string& to,
                                      const std::string& where);
  void close_view(const LiveView& view);
  // Views open now.
  std::size_t views_open() const;
  // Cancels a case (CWP4) as the `cancel` actor named `actor` would (empty: the workflow's only
  // one): in its scope, with its retractions; the case is `key` for a cancel actor with `key`,
  // else the wave `wave` ("TIME#SEQUENCE", as views show waves; what follows is ignored).
  // Returns the case as described in messages ("key 3"). Throws CatalogError: 404 no such
  // actor, 400 not a cancel actor or the wrong kind of case, 409 a workflow not running.
  std::string cancel_case(const std::string& actor, const std::optional<Value>& key,
                          const std::optional<std::string>& wave);
  // Changes a parameter while the workflow runs (`setting`: "ACTOR.PARAM=VALUE", VALUE as in the
  // YAML file), where the actor's type declares it changeable: the workflow is loaded again with
  // it (so a bad value is refused with the loader's message), and the running actor takes it
  // before its next firing. Returns true once it has (false: not within 10 s, e.g. paused; it
  // will). The setting is added to the definition's `settings` (the caller saves them). Throws
  // LoadError for a setting that does not load; CatalogError: 400 malformed, 409 a parameter
  // that cannot change while it runs or a workflow that is not running.
  // "director.PARAM=VALUE" changes the scheduled director's policy instead: `scheduler` (a new
  // policy, from its defaults) or one of the policy's parameters; the running director goes on
  // under a policy built with it (ScheduledDirector::adopt_policy). Not `type` or `workers`, and
  // not under the threaded director (409); a policy that refuses the value: 400.
  // "ACTOR.PORT.window.FIELD=VALUE" changes the window on an input port: its size, step or
  // timeout, in the same units (WindowedReceiver::reshape, between two firings of the actor);
  // another change of the window (a unit, group_by, delete_used...) is refused with 409.
  bool set_parameter(const std::string& setting);
  // Its priority on the shared workers from its next firing on (the caller saves it).
  void set_priority(int priority);
  int priority() const { return share_.priority.load(); }
  // Time its firings waited for one of the shared workers, in all.
  double waited_for_workers_seconds() const {
    return static_cast<double>(share_.waited_ns.load()) / 1e9;
  }
  // Its graph drawn by Graphviz (made once). Throws std::runtime_error when dot fails.
  std::string graph_svg() const;
  // Per-actor figures as last refreshed (every 100 ms while it runs).
  std::vector<ActorSummary> actors() const;
  double uptime_seconds() const;

 private:
  Value settings_value() const;  // the settings as a JSON array
  // Stopping or suspending: its requests for a shared worker come first, so that a workflow
  // kept waiting by more important ones ends all the same.
  void rank_first_to_finish();
  // Hands its workflow_view sources the connector to the other workflows.
  void connect_views(Workflow& workflow) const;
  // With live_mutex_ held: waits (10 s at most) for the run's execution; CatalogError(409) with
  // `otherwise` when the run is not going on.
  void wait_for_execution(std::unique_lock<std::mutex>& lock, const std::string& otherwise);
  // The run's execution comes (and goes, with nullptr): the views attach to its cells.
  void execution_changed(Execution* execution, Director* director);
  // set_parameter of a "director.PARAM=VALUE" setting: the running director's policy replaced.
  bool set_policy(const std::string& setting, const ParamOverride& change);
  // set_parameter of an "ACTOR.PORT.window.FIELD=VALUE" setting: the port's window reshaped.
  bool set_window(const std::string& setting, const ParamOverride& change);

  struct ConnectionEnds {
    ConnectionName name;
    // The view sees what the producer's port sends into the consumer's input (a port may send
    // different events into its connections: partition_by).
    struct Ends {
      ActorId producer;
      int port;
      ActorId consumer;
      int input;
    } ends;
  };
  struct AttachedView {
    ConnectionEnds::Ends ends;
    std::shared_ptr<LiveView> view;
  };
  // Under live_mutex_: the view watches its connection in `execution`.
  static void attach(Execution& execution, const AttachedView& attached);

  WorkflowDefinition definition_;
  std::filesystem::path folder_;
  Duration checkpoint_every_;
  bool checkpointed_ = false;
  std::atomic<std::uint64_t> resumed_from_{0};  // the checkpoint the run resumed from, 0: none
  Value graph_;  // {actors: [{name, type, location}], connections: [{from, to}]}
  std::vector<ConnectionEnds> connections_;
  std::string dot_;  // the graph in dot (cli/workflow_dot.hpp)
  mutable std::mutex svg_mutex_;
  mutable std::string svg_;         // drawn from dot_ once asked for, under svg_mutex_
  mutable std::mutex live_mutex_;   // guards what follows
  Execution* execution_ = nullptr;  // while the run goes on
  Director* director_ = nullptr;    // its director, likewise
  bool run_going_on_ = false;       // views may be opened
  std::condition_variable live_changed_;
  std::vector<AttachedView> views_;
  std::atomic<bool> stop_{false}, pause_{false}, suspend_{false};
  WorkerShare share_;  // its claim on the shared workers, priority kept with definition_'s
  std::atomic<WorkflowState> state_{WorkflowState::running};
  std::chrono::steady_clock::time_point started_;
  mutable std::mutex mutex_;  // guards what follows
  std::vector<ActorSummary> actors_;
  std::string error_;               // why it failed
  DirectorConfig director_config_;  // what it runs under, with the changes made while it runs
  std::string log_;                 // what the run reported (checkpoints, problems), last lines
  std::function<void(WorkflowState)> on_end_;
  std::function<std::shared_ptr<HostedWorkflow>(const std::string&)> find_others_;
  std::mutex change_mutex_;  // held through a set_parameter
  std::thread thread_;
};

}  // namespace cwf::cli
