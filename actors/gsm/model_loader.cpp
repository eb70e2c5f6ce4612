#include "actors/gsm/model_loader.hpp"

#include <fstream>
#include <sstream>

#include "actors/gsm/condition_analysis.hpp"
#include "runtime/expressions/expr_error.hpp"
#include "runtime/loading/yaml_file_reader.hpp"
#include "runtime/loading/yaml_value.hpp"
#include "runtime/values/did_you_mean.hpp"

namespace cwf::gsm {

namespace {

const std::vector<std::string> kTopKeys = {"artifact", "description", "data", "events", "stages"};
const std::vector<std::string> kStageKeys = {"description", "task", "guards", "milestones",
                                             "stages"};
const std::vector<std::string> kMilestoneKeys = {"description", "achieved", "invalidated"};
const std::vector<std::string> kEventKeys = {"description", "creates", "updates"};

bool is_identifier(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return name != "and" && name != "or" && name != "not" && name != "true" && name != "false" &&
         name != "null";
}

// An incoming event type name: letters, digits, '_', ':', '.', '-', starting with a letter.
bool is_event_name(std::string_view name) {
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '.' ||
          c == '-'))
      return false;
  return true;
}

std::string trim(std::string_view text) {
  std::size_t b = text.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  std::size_t e = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(b, e - b + 1));
}

// A sentry waiting for its names to be resolved once every stage and milestone is known.
struct PendingSentry {
  Sentry* sentry;
  std::string what;  // "guard g1 of RA", for messages
};

class Loader : private YamlFileReader {
 public:
  explicit Loader(std::string file) : YamlFileReader(std::move(file)) { model_.file = file_; }

  Model load(std::string_view text) {
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text));
    } catch (const YAML::ParserException& e) {
      throw LoadError(yaml_location(e.mark, file_), e.msg);
    }
    SourceLocation start{file_, 1, 1};
    if (!root.IsDefined() || root.IsNull())
      throw LoadError(start,
                      "the model file is empty (expected a map with 'artifact' and 'stages')");
    if (!root.IsMap())
      throw LoadError(yaml_location(root, file_, start),
                      "expected a map (artifact, data, events, stages) at the top of the model, "
                      "got " +
                          describe_yaml(root));
    try {
      parse_top(root, start);
    } catch (const YAML::Exception& e) {
      throw LoadError(yaml_location(e.mark, file_), e.msg);
    }
    return std::move(model_);
  }

 private:
  void parse_top(const YAML::Node& root, const SourceLocation& start) {
    const YamlEntry* stages = nullptr;
    const YamlEntry* events = nullptr;
    std::vector<YamlEntry> entries = yaml_map_entries(root, file_);
    for (const YamlEntry& entry : entries) {
      if (entry.key == "artifact") {
        model_.name = scalar(entry, "the artifact type's name");
      } else if (entry.key == "description") {
      } else if (entry.key == "data") {
        parse_data(entry);
      } else if (entry.key == "events") {
        events = &entry;
      } else if (entry.key == "stages") {
        stages = &entry;
      } else {
        unknown_key(entry, kTopKeys, "model");
      }
    }
    if (model_.name.empty()) {
      std::string base = file_.substr(file_.find_last_of('/') + 1);
      model_.name = base.substr(0, base.find('.'));
    }
    if (events) parse_events(*events);
    if (!stages) fail(start, "the model has no 'stages' (expected a map of stage name to stage)");
    parse_stages(*stages, -1);
    resolve_sentries();
  }

  void parse_data(const YamlEntry& entry) {
    for (const YamlEntry& item : map_of(entry, "{design: string, amount: int}")) {
      if (!is_identifier(item.key))
        fail(key_location(item, file_),
             "expected a data attribute name (letters, digits and '_'), got '" + item.key + "'");
      if (item.key == "latestIncEvent")
        fail(key_location(item, file_), "'latestIncEvent' is built in: every artifact has it");
      std::string type = scalar(item, "a type (string, int, double, bool or any)");
      auto parsed = parse_data_type(type);
      if (!parsed)
        fail(value_location(item, file_), "unknown data type '" + type + "' for '" + item.key +
                                              "' (expected string, int, double, bool or any)");
      model_.data.push_back({item.key, *parsed, key_location(item, file_)});
    }
  }

  void parse_events(const YamlEntry& entry) {
    model_.events_declared = true;
    for (const YamlEntry& item : map_of(entry, "{R:NewOrder: {creates: true}}")) {
      if (!is_event_name(item.key) || item.key[0] == '+' || item.key[0] == '-')
        fail(key_location(item, file_),
             "expected an event type name such as R:NewOrder, got '" + item.key + "'");
      EventType event{item.key, {}, true, false, key_location(item, file_)};
      if (!item.value.IsNull()) {
        for (const YamlEntry& field : map_of(item, "{creates: true, updates: [customer]}")) {
          if (field.key == "description") continue;
          if (field.key == "creates") {
            auto flag = parse_yaml_bool(scalar(field, "true or false"));
            if (!flag) fail(value_location(field, file_), "expected true or false for 'creates'");
            event.creates = *flag;
            if (*flag) model_.creating_events_declared = true;
          } else if (field.key == "updates") {
            event.updates_all = false;
            YAML::Node list = field.value;
            if (list.IsScalar()) {
              YAML::Node wrapped(YAML::NodeType::Sequence);
              wrapped.push_back(list);
              list = wrapped;
            }
            if (!list.IsSequence())
              fail(value_location(field, file_),
                   "expected a list of data attributes for 'updates'");
            for (const YAML::Node& name : list) {
              auto d = name.IsScalar() ? model_.find_data(name.Scalar()) : std::nullopt;
              if (!d) {
                std::vector<std::string> known;
                for (const auto& a : model_.data)
                  known.push_back(a.name);
                fail(yaml_location(name, file_, value_location(field, file_)),
                     "unknown data attribute '" + (name.IsScalar() ? name.Scalar() : "") +
                         "' in 'updates' of " + item.key +
                         (name.IsScalar() ? did_you_mean_suffix(name.Scalar(), known) : ""));
              }
              event.updates.push_back(*d);
            }
          } else {
            unknown_key(field, kEventKeys, "event");
          }
        }
      }
      model_.events.push_back(std::move(event));
    }
  }

  void parse_stages(const YamlEntry& entry, int parent) {
    for (const YamlEntry& item : map_of(entry, "{RA: {guards: [...], milestones: {...}}}")) {
      if (!is_identifier(item.key))
        fail(key_location(item, file_),
             "expected a stage name (letters, digits and '_'), got '" + item.key + "'");
      for (const Stage& s : model_.stages)
        if (s.name == item.key)
          fail(key_location(item, file_),
               "duplicate stage '" + item.key + "' (first at " + s.location.to_string() + ")");
      int index = static_cast<int>(model_.stages.size());
      Stage stage;
      stage.name = item.key;
      stage.parent = parent;
      stage.location = key_location(item, file_);
      model_.stages.push_back(std::move(stage));
      if (parent >= 0) model_.stages[static_cast<std::size_t>(parent)].children.push_back(index);
      parse_stage(item, index);
    }
  }

  void parse_stage(const YamlEntry& item, int index) {
    const YamlEntry* substages = nullptr;
    const YamlEntry* guards = nullptr;
    const YamlEntry* milestones = nullptr;
    std::vector<YamlEntry> entries =
        map_of(item, "{guards: [on R:Start], milestones: {done: on T:Done}}");
    for (const YamlEntry& field : entries) {
      if (field.key == "description") continue;
      if (field.key == "task") {
        model_.stages[static_cast<std::size_t>(index)].task = scalar(field, "a task name");
      } else if (field.key == "guards") {
        guards = &field;
      } else if (field.key == "milestones") {
        milestones = &field;
      } else if (field.key == "stages") {
        substages = &field;
      } else {
        unknown_key(field, kStageKeys, "stage");
      }
    }
    const SourceLocation where = key_location(item, file_);
    if (!guards)
      fail(where, "stage '" + item.key + "' has no 'guards' (a stage needs at least one)");
    if (!milestones)
      fail(where, "stage '" + item.key + "' has no 'milestones' (a stage owns at least one)");
    parse_guards(*guards, index);
    parse_milestones(*milestones, index);
    if (substages) {
      if (!model_.stages[static_cast<std::size_t>(index)].task.empty())
        fail(where, "stage '" + item.key +
                        "' has both a task and substages (only atomic stages hold a task)");
      parse_stages(*substages, index);
    } else if (model_.stages[static_cast<std::size_t>(index)].task.empty()) {
      model_.stages[static_cast<std::size_t>(index)].task = item.key;
    }
  }

  Sentry sentry_of(const YAML::Node& node, const SourceLocation& fallback, std::string_view what) {
    if (!node.IsScalar() || node.Scalar().empty())
      fail(yaml_location(node, file_, fallback),
           "expected a sentry ('on EVENT', 'on EVENT if CONDITION' or 'if CONDITION') for " +
               std::string(what) + ", got " + describe_yaml(node));
    Sentry sentry;
    sentry.text = node.Scalar();
    sentry.location = yaml_location(node, file_, fallback);
    return sentry;
  }

  void parse_guards(const YamlEntry& entry, int stage_index) {
    Stage& stage = model_.stages[static_cast<std::size_t>(stage_index)];
    if (entry.value.IsSequence()) {
      int k = 0;
      for (const YAML::Node& node : entry.value) {
        std::string name = stage.name + ".g" + std::to_string(++k);
        stage.guards.push_back({name, sentry_of(node, value_location(entry, file_), "a guard")});
      }
    } else if (entry.value.IsMap()) {
      for (const YamlEntry& g : yaml_map_entries(entry.value, file_, "guard"))
        stage.guards.push_back(
            {g.key, sentry_of(g.value, key_location(g, file_), "guard " + g.key)});
    } else if (entry.value.IsScalar() && !entry.value.Scalar().empty()) {
      stage.guards.push_back(
          {stage.name + ".g1", sentry_of(entry.value, value_location(entry, file_), "a guard")});
    }
    if (stage.guards.empty())
      fail(value_location(entry, file_),
           "expected the guards of stage '" + stage.name +
               "': a sentry, a list of sentries or a map of guard name to sentry");
  }

  void parse_milestones(const YamlEntry& entry, int stage_index) {
    for (const YamlEntry& item : map_of(entry, "{done: on T:Done}")) {
      const std::string stage_name = model_.stages[static_cast<std::size_t>(stage_index)].name;
      if (!is_identifier(item.key))
        fail(key_location(item, file_),
             "expected a milestone name (letters, digits and '_'), got '" + item.key + "'");
      Milestone milestone;
      milestone.name = stage_name + ":" + item.key;
      milestone.stage = stage_index;
      milestone.location = key_location(item, file_);
      const std::string what = "milestone " + milestone.name;
      if (item.value.IsMap()) {
        bool achieved = false;
        for (const YamlEntry& field : yaml_map_entries(item.value, file_)) {
          if (field.key == "description") continue;
          if (field.key == "achieved") {
            milestone.achieving = sentry_of(field.value, key_location(field, file_), what);
            achieved = true;
          } else if (field.key == "invalidated") {
            milestone.invalidating = sentry_of(field.value, key_location(field, file_), what);
          } else {
            unknown_key(field, kMilestoneKeys, "milestone");
          }
        }
        if (!achieved)
          fail(milestone.location, "milestone " + milestone.name + " has no 'achieved' sentry");
      } else {
        milestone.achieving = sentry_of(item.value, key_location(item, file_), what);
      }
      int index = static_cast<int>(model_.milestones.size());
      model_.milestones.push_back(std::move(milestone));
      model_.stages[static_cast<std::size_t>(stage_index)].milestones.push_back(index);
    }
  }

  // Names in sentries may refer to stages and milestones declared after them, so sentries are
  // read once every status attribute is known.
  void resolve_sentries() {
    // A milestone's variable (RA:ap -> RA_ap) must not be some stage's name.
    for (const Milestone& m : model_.milestones)
      for (const Stage& s : model_.stages)
        if (s.name == status_variable(m.name))
          fail(s.location, "stage name '" + s.name + "' clashes with milestone " + m.name +
                               ", which conditions read as the variable " + s.name);
    for (Stage& stage : model_.stages)
      for (Guard& guard : stage.guards)
        resolve(guard.sentry, "guard " + guard.name + " of " + stage.name);
    for (Milestone& m : model_.milestones) {
      resolve(m.achieving, "the achieving sentry of " + m.name);
      if (m.invalidating) resolve(*m.invalidating, "the invalidating sentry of " + m.name);
    }
  }

  void resolve(Sentry& sentry, const std::string& what) {
    const std::string text = trim(sentry.text);
    auto starts_with_word = [&](std::string_view word, std::size_t at) {
      return text.compare(at, word.size(), word) == 0 &&
             (text.size() == at + word.size() ||
              std::isspace(static_cast<unsigned char>(text[at + word.size()])));
    };
    const std::string expected =
        " (expected 'on EVENT', 'on EVENT if CONDITION' or 'if CONDITION' for " + what + ")";
    std::size_t condition_at = std::string::npos;
    if (starts_with_word("on", 0)) {
      std::size_t b = text.find_first_not_of(" \t", 2);
      if (b == std::string::npos) fail(sentry.location, "'on' without an event" + expected);
      std::size_t e = text.find_first_of(" \t", b);
      std::string event = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
      resolve_trigger(sentry, event, what);
      if (e != std::string::npos) {
        std::size_t c = text.find_first_not_of(" \t", e);
        if (c != std::string::npos) {
          if (!starts_with_word("if", c))
            fail(sentry.location, "expected 'if' after the event '" + event + "', got '" +
                                      text.substr(c) + "'" + expected);
          condition_at = c + 2;
        }
      }
    } else if (starts_with_word("if", 0)) {
      condition_at = 2;
    } else {
      fail(sentry.location, "cannot read sentry '" + text + "'" + expected);
    }
    if (condition_at == std::string::npos) return;
    std::string condition = trim(text.substr(condition_at));
    if (condition.empty()) fail(sentry.location, "'if' without a condition" + expected);
    try {
      model_.conditions.push_back(analyse_condition(condition, model_));
    } catch (const ExprError& e) {
      fail(sentry.location, "in the condition of " + what + " ('" + condition + "'): " + e.what());
    }
    sentry.condition = static_cast<int>(model_.conditions.size()) - 1;
  }

  void resolve_trigger(Sentry& sentry, const std::string& event, const std::string& what) {
    if (event[0] == '+' || event[0] == '-') {
      std::string name = event.substr(1);
      auto attribute = model_.find_status(name);
      if (!attribute)
        fail(sentry.location, "unknown status attribute '" + name + "' in the event '" + event +
                                  "' of " + what +
                                  " (expected +STAGE, -STAGE, +STAGE:milestone "
                                  "or -STAGE:milestone)" +
                                  did_you_mean_suffix(name, model_.status_names()));
      sentry.trigger = {Trigger::Kind::status, -1, *attribute, event[0] == '+'};
      return;
    }
    if (!is_event_name(event))
      fail(sentry.location,
           "expected an event type such as R:NewOrder, +STAGE or -STAGE:milestone "
           "after 'on' in " +
               what + ", got '" + event + "'");
    auto index = model_.find_event(event);
    if (!index) {
      if (model_.events_declared) {
        std::vector<std::string> known;
        for (const auto& e : model_.events)
          known.push_back(e.name);
        fail(sentry.location, "unknown event type '" + event + "' in " + what +
                                  " (the model's 'events' section does not list it)" +
                                  did_you_mean_suffix(event, known));
      }
      model_.events.push_back({event, {}, true, false, sentry.location});
      index = static_cast<int>(model_.events.size()) - 1;
    }
    sentry.trigger = {Trigger::Kind::external, *index, -1, true};
  }

  Model model_;
};

}  // namespace

Model load_model_text(std::string_view yaml, const std::string& file_for_errors) {
  return Loader(file_for_errors).load(yaml);
}

Model load_model_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError({path, 0, 0}, "cannot open the model file");
  std::stringstream text;
  text << in.rdbuf();
  return load_model_text(text.str(), path);
}

}  // namespace cwf::gsm
