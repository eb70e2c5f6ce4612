// A sub-workflow used as one actor (hierarchical heterogeneity, seed 4.2): the inner workflow
// runs under its own director. The sub-workflow's boundary is made of BoundaryInput actors (one
// per input port of the composite) and BoundaryOutput actors (one per output port).
//
// Each outer firing hands the window's events to the matching boundary input, runs the inner
// director until the inner workflow is quiescent, and emits what reached the boundary outputs.
// To the outer workflow the composite is a plain actor: its time keeper stamps those outputs as
// children of the outer window's wave.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/actor/actor.hpp"
#include "runtime/execution/director.hpp"
#include "runtime/graph/workflow.hpp"

namespace cwf {

class Execution;

// Inside a sub-workflow: where the composite's input port `name` enters.
class BoundaryInput final : public Actor {
 public:
  BoundaryInput() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override { context.emit(context.token()); }
  Checkpointing checkpointing() const override { return Checkpointing::none; }
};

// Inside a sub-workflow: collects what leaves through the composite's output port `name`.
class BoundaryOutput final : public Actor {
 public:
  BoundaryOutput() { add_input("in"); }
  void fire(FiringContext& context) override;
  // What it collects is taken at the end of each outer firing: nothing is held between them.
  Checkpointing checkpointing() const override { return Checkpointing::none; }
  std::vector<Value> take();

 private:
  std::mutex mutex_;  // the inner director may run this actor on another thread
  std::vector<Value> collected_;
};

class CompositeActor : public Actor {
 public:
  // `inner` must contain a BoundaryInput named after every entry of `inputs` and a
  // BoundaryOutput named after every entry of `outputs`; those become this actor's ports.
  CompositeActor(std::unique_ptr<Workflow> inner, std::vector<std::string> inputs,
                 std::vector<std::string> outputs, std::unique_ptr<Director> director);
  // The same for a composite that is a registered actor type: its declared ports, with their
  // documentation (no families).
  CompositeActor(std::unique_ptr<Workflow> inner, const ActorPorts& ports,
                 std::unique_ptr<Director> director);
  ~CompositeActor() override;

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  bool postfire(FiringContext& context) override;
  // Ends the sub-workflow's input and emits what its windows and actors still held.
  void end_of_input(FiringContext& context) override;
  void wrapup(ActorContext& context) override;
  // Its sub-workflow's sources have not all finished. They stop when the run's do (`--for`, a
  // stop request), at the sub-workflow's next firing.
  bool runs_sources() const override;

  Workflow& inner() { return *inner_; }
  const Workflow& inner() const { return *inner_; }

  // Checkpointable when every inner actor is: between two outer firings the sub-workflow is
  // quiescent, and its run's state (windows, queues, every inner actor's own state) is this
  // actor's state.
  Checkpointing checkpointing() const override;
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;
  void checkpoint_committed(ActorContext& context) override;

 protected:
  // For a composite that decides what enters its sub-workflow (one that checks its input first):
  // enter() hands one event to the boundary input of `port`; run_and_emit() runs the sub-workflow
  // until it is quiescent and emits what reached the boundary outputs. fire() is enter() for each
  // event of the window, then run_and_emit().
  void enter(int port, const Event& event);
  void run_and_emit(FiringContext& context);

 private:
  void run_inner();
  void stop_sources_with_the_run();
  void emit_outputs(FiringContext& context);
  void ask_for_next_timer(FiringContext& context);

  std::unique_ptr<Workflow> inner_;
  std::unique_ptr<Director> director_;
  std::unique_ptr<Execution> execution_;
  std::vector<ActorId> input_actors_;
  std::vector<BoundaryOutput*> output_actors_;
  std::vector<std::unique_ptr<ReceiverProducer>> injectors_;
  bool started_ = false;
  Timestamp asked_for_ = kNever;  // the latest time this actor asked to be fired at
};

}  // namespace cwf
