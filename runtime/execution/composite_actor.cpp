#include "runtime/execution/composite_actor.hpp"

#include <stdexcept>

#include "runtime/execution/execution.hpp"
#include "runtime/execution/run_checkpoint.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {

void BoundaryOutput::fire(FiringContext& context) {
  std::lock_guard lock(mutex_);
  for (const Event& e : context.window())
    collected_.push_back(e.token);
}

std::vector<Value> BoundaryOutput::take() {
  std::lock_guard lock(mutex_);
  std::vector<Value> out;
  out.swap(collected_);
  return out;
}

namespace {
std::vector<PortSpec> undocumented(std::vector<std::string> names) {
  std::vector<PortSpec> ports;
  for (std::string& name : names)
    ports.push_back({std::move(name), {}});
  return ports;
}
}  // namespace

CompositeActor::CompositeActor(std::unique_ptr<Workflow> inner, std::vector<std::string> inputs,
                               std::vector<std::string> outputs, std::unique_ptr<Director> director)
    : CompositeActor(std::move(inner),
                     ActorPorts{undocumented(std::move(inputs)), undocumented(std::move(outputs))},
                     std::move(director)) {}

CompositeActor::CompositeActor(std::unique_ptr<Workflow> inner, const ActorPorts& ports,
                               std::unique_ptr<Director> director)
    : Actor(ports), inner_(std::move(inner)), director_(std::move(director)) {
  for (const PortSpec& port : inputs()) {
    auto id = inner_->find(port.name);
    if (!id || !dynamic_cast<BoundaryInput*>(inner_->actor(*id).actor.get()))
      throw WorkflowError("sub-workflow '" + inner_->name() + "' has no boundary input '" +
                          port.name + "'");
    input_actors_.push_back(*id);
  }
  for (const PortSpec& port : outputs()) {
    auto id = inner_->find(port.name);
    auto* boundary = id ? dynamic_cast<BoundaryOutput*>(inner_->actor(*id).actor.get()) : nullptr;
    if (!boundary)
      throw WorkflowError("sub-workflow '" + inner_->name() + "' has no boundary output '" +
                          port.name + "'");
    output_actors_.push_back(boundary);
  }
  // Each outer firing runs the sub-workflow until it is quiescent: a sub-workflow driven by its
  // own sources would have to run to completion inside one firing.
  if (inputs().empty())
    throw WorkflowError("sub-workflow '" + inner_->name() +
                        "' has no inputs: a sub-workflow used as an actor is driven by its "
                        "inputs (declare at least one in 'inputs:')");
}

CompositeActor::~CompositeActor() {
  if (started_) director_->shutdown();
}

void CompositeActor::initialize(ActorContext& context) {
  execution_ = std::make_unique<Execution>(*inner_, context.clock());
  // Inner actors' problems are this actor's: counted in its statistics (and so in the run's exit
  // status) and printed with its declaration, the inner actor named after it.
  execution_->env().parent = &context.cell();
  execution_->env().resuming = context.resuming();
  execution_->env().takes_checkpoints = context.takes_checkpoints();
  // Names that must be unique across the run (JetStream message ids) go through this actor.
  execution_->env().workflow_name = context.workflow_name() + "/" + context.cell().name();
  injectors_.clear();
  for (ActorId id : input_actors_)
    injectors_.push_back(execution_->cell(id).receiver(0)->make_producer());
  execution_->initialize();
  // Its director runs only while the sub-workflow fires: nothing could wake a source that waits
  // for input from outside (a network source) in between.
  for (ActorId id = 0; id < execution_->size(); ++id)
    if (execution_->cell(id).wakes_from_outside())
      throw std::runtime_error("'" + execution_->cell(id).name() +
                               "' waits for input from outside the workflow (a network source, a "
                               "request's reply): it cannot run inside a sub-workflow");
  director_->start(*execution_);
  started_ = true;
  execution_->wake_sources();
}

bool CompositeActor::runs_sources() const {
  return started_ && !execution_->sources_finished();
}

void CompositeActor::stop_sources_with_the_run() {
  // The outer run stopped its sources (`--for`, Ctrl-C, a stop request): the sub-workflow's own
  // sources stop with them, or they would keep the run going (a followed file never ends). It
  // learns of it when it next fires: its sources' timers fire it.
  const ExecutionEnv& outer = execution_->env().parent->env();
  if (outer.stop_sources.load(std::memory_order_relaxed) &&
      !execution_->env().stop_sources.load(std::memory_order_relaxed))
    execution_->stop_sources();
}

void CompositeActor::run_inner() {
  stop_sources_with_the_run();
  RunOptions options;
  options.end_input_when_quiescent = false;  // the outer input goes on
  director_->run(options);
}

void CompositeActor::emit_outputs(FiringContext& context) {
  for (std::size_t port = 0; port < output_actors_.size(); ++port)
    for (Value& token : output_actors_[port]->take())
      context.emit(static_cast<int>(port), token);
}

void CompositeActor::enter(int port, const Event& event) {
  ActorCell& boundary = execution_->cell(input_actors_[static_cast<std::size_t>(port)]);
  Event copy = event;
  boundary.receiver(0)->put(std::move(copy), *injectors_[static_cast<std::size_t>(port)]);
}

void CompositeActor::run_and_emit(FiringContext& context) {
  run_inner();
  emit_outputs(context);
}

void CompositeActor::fire(FiringContext& context) {
  if (context.port() >= 0) {
    for (const Event& event : context.window())
      enter(context.port(), event);
  } else {
    // The time asked for (ask_for_next_timer) has come: the inner actors waiting for it run
    // (those with nothing due run empty).
    for (ActorId id = 0; id < execution_->size(); ++id)
      if (!execution_->cell(id).is_source()) execution_->cell(id).wake();
  }
  run_and_emit(context);
  ask_for_next_timer(context);
}

void CompositeActor::ask_for_next_timer(FiringContext& context) {
  // Inner window deadlines and requested firings come due while the outer workflow goes on; the
  // inner director runs only when this actor fires, so this actor asks to be fired then, once
  // per time. A time already past is asked for too: an inner actor that ran just before its
  // deadline (on the real clock) still waits for it, and the request fires this actor at once.
  Timestamp next = director_->next_timer();
  Timestamp now = context.clock().now();
  if (next == kNever) return;
  if (asked_for_ != kNever && asked_for_ > now && asked_for_ <= next) return;
  context.fire_again_at(next);
  asked_for_ = next;
}

Actor::Checkpointing CompositeActor::checkpointing() const {
  for (ActorId id = 0; id < inner_->size(); ++id)
    if (inner_->actor(id).actor->checkpointing() == Checkpointing::unsupported)
      return Checkpointing::unsupported;
  return Checkpointing::own;
}

void CompositeActor::save_state(SnapshotWriter& out, ActorContext&) {
  out.write_timestamp(asked_for_);
  out.write_bytes(write_run_state(*execution_, RunStateScope::sub_workflow));
}

void CompositeActor::restore_state(SnapshotReader& in, ActorContext&) {
  asked_for_ = in.read_i64("the time the sub-workflow asked to be fired at");
  std::vector<std::uint8_t> inner = in.read_bytes("the sub-workflow's run");
  restore_run_state(*execution_, inner, RunStateScope::sub_workflow);
  // As for a resumed run: restored deadlines reach the inner director when each cell runs once,
  // at the next firing.
  execution_->wake_all();
}

void CompositeActor::checkpoint_committed(ActorContext&) {
  cwf::checkpoint_committed(*execution_);
}

bool CompositeActor::postfire(FiringContext&) {
  return true;
}

void CompositeActor::end_of_input(FiringContext& context) {
  // No input can reach the sub-workflow any more: its input ends too, so that its windows close
  // (partial token and wave windows, time windows before their deadline) and its actors are told
  // in turn, as in a top-level workflow. What that emits leaves through the outputs now.
  stop_sources_with_the_run();
  RunOptions options;
  options.end_input_when_quiescent = true;
  director_->run(options);
  emit_outputs(context);
}

void CompositeActor::wrapup(ActorContext&) {
  if (started_) {
    director_->shutdown();
    started_ = false;
  }
  execution_->wrapup();
}

}  // namespace cwf
