#include "experiments/synthetic_cost.hpp"

#include <chrono>
#include <stdexcept>

namespace cwf::experiments {

void busy_wait(Duration duration) {
  if (duration <= 0) return;
  auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(duration);
  while (std::chrono::steady_clock::now() < until) {
  }
}

SyntheticCostActor::SyntheticCostActor(std::unique_ptr<Actor> inner, Duration per_firing,
                                       const std::atomic<bool>* off)
    : inner_(std::move(inner)), per_firing_(per_firing), off_(off) {
  for (const PortSpec& port : inner_->inputs())
    add_input(port.name, port.doc);
  for (const PortSpec& port : inner_->outputs())
    add_output(port.name, port.doc);
}

void SyntheticCostActor::fire(FiringContext& context) {
  inner_->fire(context);
  if (!off_ || !off_->load(std::memory_order_relaxed)) busy_wait(per_firing_);
}

void add_synthetic_cost(Workflow& workflow, const std::string& actor, Duration per_firing,
                        const std::atomic<bool>* off) {
  if (per_firing < 0) throw std::invalid_argument("synthetic cost must not be negative");
  auto id = workflow.find(actor);
  if (!id) throw std::invalid_argument("the workflow has no actor '" + actor + "'");
  ActorEntry& entry = workflow.actor(*id);
  entry.actor = std::make_unique<SyntheticCostActor>(std::move(entry.actor), per_firing, off);
}

Actor& unwrap(Actor& actor) {
  Actor* current = &actor;
  while (auto* decorated = dynamic_cast<SyntheticCostActor*>(current))
    current = &decorated->inner();
  return *current;
}

}  // namespace cwf::experiments
