#include "actors/workflow_view.hpp"

#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "runtime/time/clock.hpp"

namespace cwf::actors {

namespace {
// How long a source waits before trying again to open a view that cannot be opened yet.
constexpr Duration kRetryEvery = 200 * kMillisecond;
}  // namespace

WorkflowViewSource::WorkflowViewSource(ViewAddress address, Duration poll)
    : Actor(kPorts), address_(std::move(address)), poll_(poll) {}

void WorkflowViewSource::initialize(ActorContext& context) {
  if (!connector_)
    throw std::runtime_error(
        "workflow_view shows what flows in a workflow hosted by `cwf serve` ('" +
        address_.workflow +
        "'), and there is none here: register this workflow on the server (cwf register)");
  // It waits for another workflow, in real time: a virtual clock would jump over every wait.
  if (dynamic_cast<const VirtualClock*>(&context.clock()))
    throw std::runtime_error(
        "workflow_view waits for workflow '" + address_.workflow +
        "' in real time: this workflow's clock must be real (or scaled), not virtual");
  feed_.reset();
  last_refusal_.clear();
}

void WorkflowViewSource::fire(FiringContext& context) {
  const Timestamp now = context.clock().now();
  if (!feed_) {
    try {
      feed_ = connector_(address_);
      last_refusal_.clear();
    } catch (const std::exception& e) {
      if (e.what() != last_refusal_) context.report_error(e.what());
      last_refusal_ = e.what();
    }
    if (!feed_) {
      context.fire_again_at(now + kRetryEvery);
      return;
    }
  }
  ViewFeed::Batch batch = feed_->take();
  if (batch.dropped > 0)
    context.report_dropped(batch.dropped, "dropped by the view of workflow '" + address_.workflow +
                                              "' (this workflow took them more slowly than they "
                                              "came)");
  for (Value& value : batch.values)
    context.emit(std::move(value));
  if (batch.ended) {
    // The viewed run ended: its next run (a restart) is viewed afresh.
    feed_->close();
    feed_.reset();
  }
  if (batch.values.empty()) context.fire_again_at(now + poll_);
}

void WorkflowViewSource::wrapup(ActorContext& context) {
  if (!feed_) return;
  ViewFeed::Batch left = feed_->take();
  feed_->close();
  feed_.reset();
  const std::uint64_t lost = left.dropped + left.values.size();
  if (lost > 0)
    context.report_dropped(
        lost, "left in the view of workflow '" + address_.workflow + "' when this run ended");
}

ActorType workflow_view_type() {
  return make_type(
      "workflow_view",
      "A source fed by a live view of a connection of another workflow hosted by the same "
      "`cwf serve`: the value of each event on that connection matching `where` (CWP5). Only "
      "under the server; events the view drops for a slow reader are counted as dropped.",
      {{"of", ParamType::string, std::nullopt,
        "the viewed workflow's registered name (`workflow:` names a sub-workflow's file)"},
       {"from", ParamType::string, std::nullopt,
        "the connection's producer: `actor` or `actor.port`"},
       {"to", ParamType::string, std::nullopt,
        "the connection's consumer: `actor` or `actor.port`"},
       {"where", ParamType::string, Value(),
        "an expression the events must match (checked by the server when the view opens); not "
        "set: every event"},
       {"poll", ParamType::duration, Value(static_cast<std::int64_t>(10 * kMillisecond)),
        "how soon the source looks again when the view had nothing: the added latency at "
        "most"}},
      WorkflowViewSource::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        ViewAddress address{params.get_string("of"), params.get_string("from"),
                            params.get_string("to"),
                            is_set(params, "where") ? params.get_string("where") : ""};
        const Duration poll = params.get_duration("poll");
        if (poll <= 0) throw ParamError("poll", "poll must be positive");
        return std::make_unique<WorkflowViewSource>(std::move(address), poll);
      });
}

}  // namespace cwf::actors
