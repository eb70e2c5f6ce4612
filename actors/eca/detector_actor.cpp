#include "actors/eca/detector_actor.hpp"

#include "actors/actor_type_util.hpp"
#include "actors/eca/occurrence_io.hpp"

namespace cwf::eca {

DetectorActor::DetectorActor(std::shared_ptr<const DetectorGraph> graph, std::vector<int> outputs,
                             DetectorOptions options)
    : Actor(kPorts), detector_(graph, std::move(options)), is_output_(graph->size(), false) {
  for (int node : outputs)
    is_output_[static_cast<std::size_t>(node)] = true;
}

void DetectorActor::fire(FiringContext& context) {
  auto emit = [&](int node, const Value& occurrence) {
    if (is_output_[static_cast<std::size_t>(node)]) emit_occurrence(context, 0, occurrence);
  };
  for_each_occurrence(context,
                      [&](const Value& occurrence) { detector_.process(occurrence, emit); });
}

namespace {

// Parses the event expressions of parameter `param` into `graph`; a syntax error is a ParamError
// naming the expression.
std::vector<int> add_event_expressions(const Params& params, const std::string& param,
                                       DetectorGraph& graph) {
  std::vector<int> nodes;
  for (const std::string& text : params.get_strings(param)) {
    try {
      nodes.push_back(graph.add(*parse_event_expression(text)));
    } catch (const EventSyntaxError& e) {
      throw ParamError(param, "in event '" + text + "': " + e.what());
    }
  }
  return nodes;
}

}  // namespace

ActorType detector_actor_type() {
  return actors::make_type(
      "eca_detector",
      "Composite event detection (EVE): emits an occurrence of each listed event type when its "
      "components have occurred, consuming the oldest candidates (chronicle).",
      {{"events", ParamType::strings, std::nullopt,
        "event expressions, e.g. CON(RPL(SW1.Done), RPL(SW2.Done)); see docs/eca.md"},
       {"same_instance", ParamType::boolean, Value(true),
        "compose only occurrences of the same workflow instance"},
       {"site", ParamType::string, Value("s1"), "the site of the composite occurrences"}},
      DetectorActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        auto graph = std::make_shared<DetectorGraph>();
        std::vector<int> outputs = add_event_expressions(params, "events", *graph);
        DetectorOptions options;
        options.same_instance = params.get_bool("same_instance");
        options.site = params.get_string("site");
        return std::make_unique<DetectorActor>(graph, std::move(outputs), std::move(options));
      });
}

}  // namespace cwf::eca
