#include "cli/server/workflow_view_feed.hpp"

#include <stdexcept>

#include "cli/server/hosted_workflow.hpp"

namespace cwf::cli {

WorkflowViewFeed::WorkflowViewFeed(std::shared_ptr<HostedWorkflow> workflow,
                                   std::shared_ptr<LiveView> view)
    : workflow_(std::move(workflow)), view_(std::move(view)) {}

WorkflowViewFeed::~WorkflowViewFeed() {
  close();
}

actors::ViewFeed::Batch WorkflowViewFeed::take() {
  LiveView::Batch taken = view_->take_events();
  Batch batch;
  batch.values.reserve(taken.events.size());
  for (Event& event : taken.events)
    batch.values.push_back(std::move(event.token));
  batch.dropped = taken.dropped;
  batch.ended = taken.ended;
  return batch;
}

void WorkflowViewFeed::close() {
  workflow_->close_view(*view_);  // a view closed already is left as it is
}

actors::ViewConnector view_connector(WorkflowFinder find, std::string viewer) {
  return [find = std::move(find), viewer = std::move(viewer)](
             const actors::ViewAddress& address) -> std::shared_ptr<actors::ViewFeed> {
    if (address.workflow == viewer)
      throw std::runtime_error("workflow '" + viewer +
                               "' cannot view itself (its events would feed back into it)");
    std::shared_ptr<HostedWorkflow> viewed = find ? find(address.workflow) : nullptr;
    if (!viewed) return nullptr;
    try {
      return std::make_shared<WorkflowViewFeed>(
          viewed, viewed->open_view(address.from, address.to, address.where));
    } catch (const CatalogError& e) {
      if (e.status() == 409) return nullptr;  // not running (yet, or again)
      throw std::runtime_error("the view of workflow '" + address.workflow + "': " + e.what());
    }
  };
}

}  // namespace cwf::cli
