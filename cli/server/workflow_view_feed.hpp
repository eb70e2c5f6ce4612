// What feeds a workflow_view source (actors/workflow_view.hpp) on `cwf serve`: a live view of a
// connection of another hosted workflow, its events handed over as values; and the connector
// that opens such views among the workflows of a catalog.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "actors/workflow_view.hpp"
#include "cli/server/live_view.hpp"

namespace cwf::cli {

class HostedWorkflow;

class WorkflowViewFeed final : public actors::ViewFeed {
 public:
  WorkflowViewFeed(std::shared_ptr<HostedWorkflow> workflow, std::shared_ptr<LiveView> view);
  ~WorkflowViewFeed() override;  // closes the view
  Batch take() override;
  void close() override;

 private:
  std::shared_ptr<HostedWorkflow> workflow_;
  std::shared_ptr<LiveView> view_;
};

// The hosted workflow registered under a name, or null.
using WorkflowFinder = std::function<std::shared_ptr<HostedWorkflow>(const std::string&)>;

// A connector for the workflow_view sources of workflow `viewer`: opens the view on the workflow
// `find` finds (null while it is not registered or not running, or without a `find`); refuses a
// view of `viewer` itself, of a connection it does not have or with a predicate that does not
// compile.
actors::ViewConnector view_connector(WorkflowFinder find, std::string viewer);

}  // namespace cwf::cli
