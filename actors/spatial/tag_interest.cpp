#include "actors/spatial/tag_interest.hpp"

#include <fstream>
#include <string>

#include "actors/actor_type_util.hpp"
#include "actors/spatial/event_position.hpp"
#include "actors/with_field.hpp"
#include "runtime/expressions/expr_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/values/json_lines.hpp"

namespace cwf::spatial {

TagInterest::TagInterest(Options options) : Actor(kPorts), options_(std::move(options)) {}

void TagInterest::initialize(ActorContext&) {
  index_ = InterestIndex();
  for (const Interest& interest : options_.initial)
    index_.apply(interest);
}

void TagInterest::fire(FiringContext& context) {
  for (std::size_t i = 0; i < context.window().size(); ++i) {
    if (context.port() == kInterests)
      register_interest(context.window()[i].token, context);
    else
      tag(i, context);
  }
}

void TagInterest::register_interest(const Value& record, FiringContext& context) {
  std::string error;
  const std::optional<Interest> interest = read_interest(record, error);
  if (!interest) {
    context.report_error("interests: " + error);
  } else if (!index_.apply(*interest)) {
    context.report_warning("interests: " + interest->user + " has no region '" + interest->region +
                           "' to remove");
  }
}

void TagInterest::tag(std::size_t i, FiringContext& context) {
  // Judged on the window's token, taken out only to be passed on (an error report shows it).
  const Value& event = context.window()[i].token;
  std::string error;
  const std::optional<SkyPoint> position = event_position(event, options_.ra, options_.dec, error);
  if (!position) {
    context.report_error("position: " + error);
    return;
  }
  Value type;
  try {
    type = options_.type.evaluate(event);
  } catch (const ExprError& e) {
    context.report_error(std::string("type: ") + e.what());
    return;
  }
  if (!event.is_record()) {
    context.report_error("an event to tag must be a record");
    return;
  }
  std::string other_type;  // the text of a type that is not a string (rare)
  const std::string_view type_text = type.is_string() ? type.as_string()
                                     : type.is_null() ? std::string_view()
                                                      : (other_type = type.to_text());
  index_.users_at(*position, type_text, users_);
  Value taken = context.take(i);
  if (users_.empty()) {
    context.emit(kUnwatched, std::move(taken));
  } else if (options_.per_user) {
    for (const std::string_view user : users_)
      context.emit(kOut, actors::with_field(taken, "user", Value(user)));
  } else {
    std::vector<Value> names(users_.begin(), users_.end());
    context.emit(kOut,
                 actors::with_field(std::move(taken), "users", Value::array(std::move(names))));
  }
}

void TagInterest::save_state(SnapshotWriter& out, ActorContext&) {
  // By (user, region) (InterestIndex::regions): the bytes depend on what is registered, not on
  // the order it came in (a resumed run saves what the original does).
  const std::vector<Interest> regions = index_.regions();
  out.write_u64(regions.size());  // read back by read_count
  for (const Interest& interest : regions)
    out.write_value(interest_record(interest));
}

void TagInterest::restore_state(SnapshotReader& in, ActorContext&) {
  index_ = InterestIndex();
  const std::size_t count = in.read_count("the number of registered regions");
  for (std::size_t i = 0; i < count; ++i) {
    std::string error;
    const std::optional<Interest> interest =
        read_interest(in.read_value("a registered region"), error);
    if (!interest) in.reject("a registered region", error);
    if (interest->remove) in.reject("a registered region", "a withdrawal, not a region");
    const std::size_t before = index_.size();
    index_.apply(*interest);
    if (index_.size() == before)
      in.reject("a registered region",
                interest->user + "'s region '" + interest->region + "' twice");
  }
}

namespace {

std::vector<Interest> read_interests_file(const Params& params) {
  std::vector<Interest> interests;
  if (!actors::is_set(params, "interests")) return interests;
  const std::string path = params.path("interests");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    params.input_missing("interests", "cannot open '" + path + "'");
    return interests;
  }
  JsonLinesReader lines(in);
  Value record;
  std::string error;
  while (lines.next(record, error)) {
    std::optional<Interest> interest;
    if (error.empty()) interest = read_interest(record, error);
    if (!interest) throw ParamError("interests", lines.where(path) + error);
    interests.push_back(std::move(*interest));
  }
  return interests;
}

}  // namespace

ActorType tag_interest_type() {
  return actors::make_type(
      "tag_interest",
      "Tags each event with the users interested in its sky region and type (an R-tree of "
      "registered regions); the others go to `unwatched`.",
      {{"interests", ParamType::string, Value(),
        "a JSON-lines file of registrations {user, region, box: [ra_min, dec_min, ra_max, "
        "dec_max], types} (degrees) in force from the start; more come on the `interests` port"},
       {"ra", ParamType::expression, Value("/ra"), "the event's right ascension, degrees"},
       {"dec", ParamType::expression, Value("/dec"), "the event's declination, degrees"},
       {"type", ParamType::expression, Value("/type"),
        "the event's type, matched against a region's `types` (a region without types takes "
        "every type)"},
       {"per_user", ParamType::boolean, Value(false),
        "emit one event per interested user with `user` (sub-waves of the event's wave, so the "
        "users' answers can be gathered again by wave) instead of one with `users`"}},
      TagInterest::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        TagInterest::Options options{actors::compile_param(params, "ra"),
                                     actors::compile_param(params, "dec"),
                                     actors::compile_param(params, "type"),
                                     params.get_bool("per_user"), read_interests_file(params)};
        return std::make_unique<TagInterest>(std::move(options));
      });
}

}  // namespace cwf::spatial
