#include "actors/spatial/catalog_match.hpp"

#include <fstream>
#include <stdexcept>
#include <string>

#include "actors/actor_type_util.hpp"
#include "actors/spatial/event_position.hpp"
#include "actors/with_field.hpp"

namespace cwf::spatial {

CatalogMatch::CatalogMatch(Options options) : Actor(kPorts), options_(std::move(options)) {}

void CatalogMatch::fire(FiringContext& context) {
  for (std::size_t i = 0; i < context.window().size(); ++i) {
    // Judged on the window's token, taken out only to be passed on (an error report shows it).
    const Value& event = context.window()[i].token;
    std::string error;
    const std::optional<SkyPoint> position =
        event_position(event, options_.ra, options_.dec, error);
    if (!position) {
      context.report_error("position: " + error);
      continue;
    }
    if (!event.is_record()) {
      context.report_error("an event to match must be a record");
      continue;
    }
    const std::optional<NearestObject> match =
        options_.catalog->nearest(*position, options_.radius);
    if (!match) {
      context.emit(kUnmatched, context.take(i));
      continue;
    }
    Value object =
        actors::with_field(match->object->record, "separation", Value(match->separation));
    context.emit(kOut, actors::with_field(context.take(i), options_.as, std::move(object)));
  }
}

ActorType catalog_match_type() {
  return actors::make_type(
      "catalog_match",
      "Joins each event with the nearest object of a sky catalog within a radius (an R-tree "
      "over the catalog); events with none go to `unmatched`.",
      {{"catalog", ParamType::string, std::nullopt,
        "a JSON-lines file, one object per line with its position in `ra` and `dec` (degrees)"},
       {"radius", ParamType::real, std::nullopt,
        "how far from the event an object may be, in degrees (1 arcminute = 0.0166667)"},
       {"as", ParamType::string, Value("match"), "the field the object is put in"},
       {"ra", ParamType::expression, Value("/ra"), "the event's right ascension, degrees"},
       {"dec", ParamType::expression, Value("/dec"), "the event's declination, degrees"}},
      CatalogMatch::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        const double radius = params.get_double("radius");
        if (!(radius >= 0 && radius <= 180))
          throw ParamError("radius", "radius must be between 0 and 180 degrees");
        const std::string as = params.get_string("as");
        if (as.empty()) throw ParamError("as", "`as` must name a field");
        std::vector<CatalogObject> objects;
        const std::string path = params.path("catalog");
        if (std::ifstream in(path, std::ios::binary); !in) {
          params.input_missing("catalog", "cannot open '" + path + "'");
        } else {
          try {
            objects = read_catalog(in, path, "ra", "dec");
          } catch (const std::runtime_error& e) {
            throw ParamError("catalog", e.what());
          }
        }
        auto catalog = std::make_shared<const CatalogIndex>(std::move(objects));
        return std::make_unique<CatalogMatch>(CatalogMatch::Options{
            std::move(catalog), radius, as, actors::compile_param(params, "ra"),
            actors::compile_param(params, "dec")});
      });
}

}  // namespace cwf::spatial
