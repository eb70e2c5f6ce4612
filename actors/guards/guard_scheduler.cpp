#include "actors/guards/guard_scheduler.hpp"

#include <algorithm>

#include "actors/actor_type_util.hpp"
#include "actors/guards/announcement_order.hpp"
#include "actors/guards/event_guard.hpp"
#include "actors/guards/event_parser.hpp"
#include "actors/guards/guard_dispatch.hpp"
#include "runtime/execution/composite_actor.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/loading/load_error.hpp"

namespace cwf::guards {

namespace {

std::string actor_name(const std::string& event_type) {
  return "event_" + base_name(event_type);
}

}  // namespace

std::unique_ptr<Workflow> guard_workflow(const DependencySet& dependencies) {
  auto inner = std::make_unique<Workflow>("guards");
  inner->emplace<BoundaryInput>("attempts");
  std::vector<std::string> bases;
  for (const std::string& event : dependencies.events)
    bases.push_back(base_name(event));
  inner->add("dispatch", std::make_unique<GuardDispatch>(bases));
  inner->emplace<BoundaryOutput>("outcomes");
  inner->connect("attempts", "out", "dispatch", "in");
  std::vector<const EventGuard*> actors;
  for (const std::string& event : dependencies.events) {
    auto actor = std::make_unique<EventGuard>(dependencies, event);
    actors.push_back(actor.get());
    inner->add(actor_name(event), std::move(actor), "event_guard");
    inner->connect("dispatch", base_name(event), actor_name(event), "attempts");
    inner->connect(actor_name(event), "outcomes", "outcomes", "in");
  }
  auto mentions = [&](std::size_t actor, const std::string& event) {
    return actors[actor]->guard_template(false).mentions(event) ||
           actors[actor]->guard_template(true).mentions(event);
  };
  for (std::size_t from = 0; from < actors.size(); ++from)
    for (std::size_t to = 0; to < actors.size(); ++to)
      if (from != to &&
          (mentions(to, dependencies.events[from]) || mentions(from, dependencies.events[to])))
        inner->connect(actor_name(dependencies.events[from]), "messages",
                       actor_name(dependencies.events[to]), "messages");
  return inner;
}

std::unique_ptr<Actor> make_guard_scheduler(const DependencySet& dependencies) {
  return std::make_unique<CompositeActor>(
      guard_workflow(dependencies), kGuardSchedulerPorts,
      std::make_unique<ScheduledDirector>(std::make_unique<AnnouncementOrder>(), 1));
}

ActorType guard_scheduler_type() {
  return actors::make_type(
      "guard_scheduler",
      "Enforces a workflow of Singh's event dependencies with one guard actor per event type: "
      "attempts are accepted, parked, rejected or complemented by triggered events so that "
      "every dependency holds (docs/guards.md).",
      {{"file", ParamType::string, Value(""),
        "a dependency file (dependencies: [...], events: {...}); relative to the workflow"},
       {"dependencies", ParamType::strings, Value::array({}),
        "dependency expressions written inline, e.g. \"~e + ~f + e.f\" (with or instead of file)"},
       {"triggerable", ParamType::strings, Value::array({}),
        "events the scheduler may make happen on its own accord"},
       {"non_rejectable", ParamType::strings, Value::array({}),
        "events that are accepted whenever attempted (abort)"}},
      kGuardSchedulerPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        DependencySet set;
        std::string file = params.get_string("file");
        if (!file.empty()) {
          try {
            set = load_dependency_file(params.path("file"));
          } catch (const LoadError& e) {
            throw ParamError("file", e.what());
          }
        }
        for (const std::string& text : params.get_strings("dependencies")) {
          try {
            set.add_dependency(parse_event_expression(text), text);
          } catch (const ParseError& e) {
            throw ParamError("dependencies", "in '" + text + "': " + e.what());
          }
        }
        if (set.dependencies.empty())
          throw ParamError("dependencies", "no dependencies: give 'file' or 'dependencies'");
        for (const char* attribute : {"triggerable", "non_rejectable"}) {
          for (const std::string& name : params.get_strings(attribute)) {
            std::string type;
            for (const std::string& event : set.events)
              if (event == name || base_name(event) == name) type = event;
            if (type.empty())
              throw ParamError(attribute, "no dependency mentions event '" + name + "'");
            if (std::string(attribute) == "triggerable") {
              set.attributes[type].triggerable = true;
            } else {
              set.attributes[type].rejectable = false;
            }
          }
        }
        if (std::string mismatch = set.parameters_mismatch(); !mismatch.empty())
          throw ParamError("dependencies", mismatch);
        return make_guard_scheduler(set);
      });
}

}  // namespace cwf::guards
