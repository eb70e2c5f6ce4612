// The workflows `cwf serve` hosts, and their definitions in its state folder:
//
//   STATE/workflows/NAME/workflow.yaml   the YAML as registered
//   STATE/workflows/NAME/meta.json       {file, base, priority, settings, paused,
//                                         ended: finished|stopped}
//   STATE/workflows/NAME/checkpoints/    the run's checkpoints (when it can be checkpointed)
//
// Started again with the same folder, the server starts every workflow that had not ended, as it
// was left (paused or not), resuming from its checkpoints. A workflow ends when its sources are
// exhausted or a user stops it; one ended stays listed (stopped or finished) until removed.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli/server/catalog_error.hpp"
#include "cli/server/hosted_workflow.hpp"

namespace cwf::cli {

class WorkflowCatalog {
 public:
  // Creates the state folder when missing.
  // `checkpoint_every`: how often the workflows that can be checkpointed write one. `workers`:
  // how many firings may go on at once over all the workflows (SharedWorkers; 0: one per
  // hardware thread), handed out by priority.
  WorkflowCatalog(std::filesystem::path state, Duration checkpoint_every, unsigned workers = 0);
  ~WorkflowCatalog();  // shutdown()

  // Starts the workflows of the state folder (see above); one that no longer loads is listed
  // as failed, with the reason.
  void start_saved(std::ostream& log);
  // Loads a workflow and starts it, registered under `definition.name` or else the `name:` its
  // YAML gives. Throws LoadError (a YAML that does not load, with file:line:column),
  // CatalogError.
  std::shared_ptr<HostedWorkflow> add(WorkflowDefinition definition);
  // Throws CatalogError(404) for an unknown name.
  std::shared_ptr<HostedWorkflow> get(const std::string& name) const;
  std::vector<std::shared_ptr<HostedWorkflow>> all() const;  // by name

  void pause(const std::string& name);
  void resume(const std::string& name);
  // HostedWorkflow::set_parameter, the setting then saved with the definition (a restart loads
  // the workflow with it).
  bool set_parameter(const std::string& name, const std::string& setting);
  // HostedWorkflow::set_priority, saved with the definition.
  void set_priority(const std::string& name, int priority);
  const SharedWorkers& workers() const { return workers_; }
  // Asks the workflow to stop (its sources stop, what is queued is processed); it stays listed.
  void stop(const std::string& name);
  // Stops the workflow and forgets it: it is gone from the list at once, its folder is deleted
  // once its run has ended (in the background).
  void remove(const std::string& name);

  // For a server shutdown: ends every workflow at a checkpoint (HostedWorkflow::suspend; one
  // that cannot be checkpointed is stopped), without marking them ended: a server started again
  // goes on from there. Waits for their runs to end.
  void shutdown();

 private:
  struct Meta {
    bool paused = false;
    std::string ended;  // "finished" or "stopped" once its run has ended for good
  };
  std::filesystem::path folder_of(const std::string& name) const;
  void set_paused(const std::string& name, bool paused);
  void save(const HostedWorkflow& workflow, const Meta& meta) const;
  // A workflow whose end is written into its meta.json (unless the server is shutting down).
  std::shared_ptr<HostedWorkflow> host(WorkflowDefinition definition);
  // Makes a started workflow visible to requests. Under mutex_.
  void list(const std::shared_ptr<HostedWorkflow>& workflow, const Meta& meta);

  std::filesystem::path state_;
  Duration checkpoint_every_;
  SharedWorkers workers_;  // outlives the workflows (shutdown() ends their runs)
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<HostedWorkflow>> workflows_;
  std::map<std::string, Meta> metas_;
  std::set<std::string> removing_;  // removed, their folders not deleted yet
  std::set<std::string> starting_;  // being registered: the name is taken
  struct Removal {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  std::vector<Removal> removals_;
  bool shutting_down_ = false;
};

}  // namespace cwf::cli
