#include "runtime/loading/workflow_parser.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "runtime/execution/composite_actor.hpp"
#include "runtime/execution/director_factory.hpp"
#include "runtime/loading/param_binding.hpp"
#include "runtime/loading/window_spec_parser.hpp"
#include "runtime/values/did_you_mean.hpp"

namespace cwf::loader_detail {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kTopLevelKeys = {"name",        "description", "director", "clock",
                                                "queues",      "inputs",      "outputs",  "actors",
                                                "connections", "placement"};
const std::vector<std::string> kClocks = {"real", "virtual"};
const std::vector<std::string> kDirectorKeys = {"type", "scheduler", "workers", "adapt_workers"};
const std::vector<std::string> kDirectorTypes = {"scheduled", "threaded"};
const std::vector<std::string> kSubworkflowKeys = {"workflow", "director", "priority"};

}  // namespace

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items)
    out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string join(std::span<const PortSpec> ports) {
  std::vector<std::string> names;
  for (const PortSpec& port : ports)
    names.push_back(port.name);
  return names.empty() ? "none" : join(names);
}

// "; did you mean 'x'?" when a candidate is close enough, else "; <label>: a, b, c".
std::string suggest(std::string_view word, const std::vector<std::string>& candidates,
                    std::string_view label) {
  std::string hint = did_you_mean_suffix(word, candidates);
  if (!hint.empty()) return hint;
  if (candidates.empty()) return "";
  return "; " + std::string(label) + ": " + join(candidates);
}

// Actor and port names: letters, digits, '_' and '-' (so that `a.port -> b` parses).
bool valid_name(std::string_view name) {
  if (name.empty() || name.front() == '-') return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string_view trim(std::string_view s, std::size_t* removed_front) {
  std::size_t front = 0;
  while (front < s.size() && (s[front] == ' ' || s[front] == '\t'))
    ++front;
  s.remove_prefix(front);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  if (removed_front) *removed_front = front;
  return s;
}

std::optional<std::string> read_text_file(const fs::path& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  return out.str();
}

std::string identity_of(const fs::path& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  if (ec) return fs::absolute(path).lexically_normal().string();
  return canonical.string();
}

Parsed Loader::load(std::string_view text, const std::string& file, const std::string& base_dir,
                    const std::string& identity, bool sub) {
  stack_.push_back({identity, file});
  Parsed parsed = FileParser(*this, text, file, base_dir, sub).parse();
  stack_.pop_back();
  return parsed;
}

void Loader::check_overrides(const std::vector<YamlEntry>& actors, const std::string& file) const {
  std::vector<std::string> names;
  for (const YamlEntry& entry : actors)
    names.push_back(entry.key);
  for (const ParamOverride& o : overrides_) {
    auto actor = std::find_if(actors.begin(), actors.end(),
                              [&](const YamlEntry& entry) { return entry.key == o.actor; });
    if (actor == actors.end())
      throw LoadError(
          SourceLocation{o.origin(), 0, 0},
          "no actor '" + o.actor + "' in the workflow" + suggest(o.actor, names, "its actors"));
    // What is wrong with the actor itself (not a map, an unknown type) is said when it is built;
    // a window's port is checked once the connections are read (apply_window_overrides).
    if (!actor->value.IsMap() || o.window_field()) continue;
    const ActorType* type = nullptr;
    for (const YamlEntry& item : yaml_map_entries(actor->value, file)) {
      if (item.key == "workflow")
        throw LoadError(
            SourceLocation{o.origin(), 0, 0},
            "actor '" + o.actor +
                "' is a sub-workflow; --set reaches the actors of the top-level file only");
      if (item.key == "type" && item.value.IsScalar())
        type = context_.actors.find(item.value.Scalar());
    }
    if (!type) continue;
    std::vector<std::string> params;
    for (const ParamSpec& spec : type->params)
      params.push_back(spec.name);
    if (std::find(params.begin(), params.end(), o.param) == params.end())
      throw LoadError(key_location(*actor, file), o.origin() + ": unknown parameter '" + o.param +
                                                      "' for actor '" + o.actor + "' (type " +
                                                      type->name + ")" +
                                                      suggest(o.param, params, "its parameters"));
  }
}

void Loader::apply_overrides(const std::string& actor, std::vector<YamlEntry>& entries,
                             std::map<std::string, std::string>& set) const {
  for (const ParamOverride& o : overrides_) {
    if (o.actor != actor || o.window_field()) continue;
    std::erase_if(entries, [&](const YamlEntry& e) { return e.key == o.param; });
    entries.push_back(YamlEntry{o.param, YAML::Node(o.param), YAML::Node(o.value)});
    set[o.param] = o.base_dir;
  }
}

void Loader::apply_window_overrides(Workflow& workflow) const {
  for (const ParamOverride& o : overrides_) {
    std::optional<ParamOverride::WindowField> target = o.window_field();
    if (!target) continue;
    const SourceLocation at{o.origin(), 0, 0};
    const ActorId id = *workflow.find(o.actor);  // check_overrides found it
    const Actor& actor = *workflow.actor(id).actor;
    const int port = actor.input_index(target->port);
    if (port < 0) {
      std::vector<std::string> inputs;
      for (const PortSpec& input : actor.inputs())
        inputs.push_back(input.name);
      throw LoadError(at, "actor '" + o.actor + "' has no input port '" + target->port + "'" +
                              suggest(target->port, inputs, "its inputs"));
    }
    const PortWindow* window = workflow.window({id, port});
    if (!window)
      throw LoadError(at, "input port '" + target->port + "' of '" + o.actor +
                              "' has no window (declare one with 'window:' on a connection into "
                              "it)");
    WindowSpec spec = window->spec;
    set_window_field(spec, target->field, o.value, o.origin());
    workflow.respecify_window({id, port}, std::move(spec));
  }
}

std::optional<std::string> Loader::cycle(const std::string& identity,
                                         const std::string& file) const {
  for (std::size_t i = 0; i < stack_.size(); ++i) {
    if (stack_[i].identity != identity) continue;
    std::string chain;
    for (std::size_t j = i; j < stack_.size(); ++j)
      chain += stack_[j].file + " -> ";
    return chain + file;
  }
  return std::nullopt;
}

Parsed FileParser::parse() {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text_));
  } catch (const YAML::ParserException& e) {
    fail(yaml_location(e.mark, file_), e.msg);
  }
  SourceLocation start{file_, 1, 1};
  if (!root.IsDefined() || root.IsNull())
    fail(start, "the workflow file is empty (expected a map with 'actors' and 'connections')");
  if (!root.IsMap())
    fail(yaml_location(root, file_, start),
         "expected a map (name, director, actors, connections) at the top of the workflow "
         "file, got " +
             describe_yaml(root));
  std::string stem = fs::path(file_).stem().string();
  result_.workflow = std::make_unique<Workflow>(stem.empty() ? "workflow" : stem);
  try {
    parse_top_level(root);
  } catch (const YAML::Exception& e) {  // not expected: every node is checked before use
    fail(yaml_location(e.mark, file_), e.msg);
  }
  return std::move(result_);
}

void FileParser::parse_top_level(const YAML::Node& root) {
  std::map<std::string, YamlEntry> sections;
  for (YamlEntry& entry : yaml_map_entries(root, file_)) {
    bool known = false;
    for (const std::string& key : kTopLevelKeys)
      known = known || key == entry.key;
    if (!known)
      fail(key_location(entry), "unknown key '" + entry.key + "' in the workflow" +
                                    suggest(entry.key, kTopLevelKeys, "expected one of"));
    if (!sub_ && (entry.key == "inputs" || entry.key == "outputs"))
      fail(key_location(entry),
           "'" + entry.key +
               "' is only allowed in a sub-workflow (a file an actor includes with 'workflow:')");
    if (sub_ && entry.key == "clock")
      fail(key_location(entry),
           "'clock' is only allowed in the top-level workflow: a sub-workflow runs on its "
           "parent's clock");
    std::string key = entry.key;
    sections.emplace(std::move(key), std::move(entry));
  }
  auto section = [&](const std::string& key) -> const YamlEntry* {
    auto it = sections.find(key);
    return it == sections.end() ? nullptr : &it->second;
  };
  if (const YamlEntry* name = section("name")) result_.workflow->set_name(scalar(*name, "a name"));
  if (const YamlEntry* description = section("description")) scalar(*description, "text");
  if (const YamlEntry* director = section("director")) {
    result_.director = parse_director(*director);
    result_.director_location = value_location(*director);
    result_.workflow->director() = *result_.director;
  }
  if (const YamlEntry* clock = section("clock")) {
    std::string kind = scalar(*clock, "a clock (real or virtual)");
    if (std::find(kClocks.begin(), kClocks.end(), kind) == kClocks.end())
      fail(value_location(*clock), "unknown clock '" + kind + "' (known: " + join(kClocks) + ")" +
                                       did_you_mean_suffix(kind, kClocks));
    result_.workflow->set_clock(kind);
  }
  if (const YamlEntry* queues = section("queues"))
    result_.workflow->set_queue_defaults(parse_queues(*queues));
  if (const YamlEntry* inputs = section("inputs")) result_.inputs = parse_boundary(*inputs, true);
  if (const YamlEntry* outputs = section("outputs"))
    result_.outputs = parse_boundary(*outputs, false);
  if (const YamlEntry* actors = section("actors")) parse_actors(*actors);
  if (const YamlEntry* connections = section("connections")) parse_connections(*connections);
  if (const YamlEntry* placement = section("placement")) {
    if (sub_)
      fail(key_location(*placement),
           "'placement' is only allowed in the top-level workflow: a sub-workflow runs where its "
           "actor does");
    parse_placement(*placement);
  }
  if (!sub_) loader_.apply_window_overrides(*result_.workflow);
  // A sub-workflow may just connect its boundary; a top-level workflow without actors is a
  // mistake (an empty or misnamed 'actors' section), not a workflow that does nothing.
  if (result_.workflow->size() == 0)
    fail(SourceLocation{file_, 1, 1}, "the workflow has no actors (expected an 'actors' map)");
}

std::string FileParser::scalar(const YamlEntry& entry, std::string_view expected) const {
  if (!entry.value.IsScalar())
    fail(value_location(entry), "expected " + std::string(expected) + " for '" + entry.key +
                                    "', got " + describe_yaml(entry.value));
  return entry.value.Scalar();
}

int FileParser::integer(const YamlEntry& entry, int minimum, std::string_view expected) const {
  std::optional<std::int64_t> value;
  if (entry.value.IsScalar()) value = parse_yaml_int(entry.value.Scalar());
  if (!value || *value < minimum || *value > std::numeric_limits<int>::max())
    fail(value_location(entry), "expected " + std::string(expected) + " for '" + entry.key +
                                    "', got " + describe_yaml(entry.value));
  return static_cast<int>(*value);
}

void FileParser::parse_placement(const YamlEntry& entry) {
  if (!entry.value.IsMap())
    fail(value_location(entry),
         "expected a map for 'placement' from actor names to processes (e.g. {answers: 0, "
         "\"tolls[1]\": 1}), got " +
             describe_yaml(entry.value));
  std::vector<std::string> names;
  for (const ActorEntry& actor : result_.workflow->actors())
    names.push_back(actor.name);
  for (const auto& [name, replicas] : replicas_)
    names.push_back(name);
  std::map<std::string, int> placement;
  for (const YamlEntry& item : yaml_map_entries(entry.value, file_)) {
    if (std::find(names.begin(), names.end(), item.key) == names.end())
      fail(key_location(item), "placement names '" + item.key +
                                   "', which is no actor of the workflow" +
                                   did_you_mean_suffix(item.key, names));
    placement[item.key] = integer(item, 0, "a process number (0, 1, ...)");
  }
  result_.workflow->set_placement(std::move(placement));
}

DirectorConfig FileParser::parse_director(const YamlEntry& entry) const {
  if (!entry.value.IsMap())
    fail(value_location(entry),
         "expected a map for 'director' (e.g. {type: scheduled, scheduler: fifo}), got " +
             describe_yaml(entry.value));
  DirectorConfig config;
  for (const YamlEntry& item : yaml_map_entries(entry.value, file_)) {
    if (item.key == "type") {
      config.type = scalar(item, "a director type");
      if (config.type != "scheduled" && config.type != "threaded")
        fail(value_location(item), "unknown director type '" + config.type +
                                       "' (known: " + join(kDirectorTypes) + ")" +
                                       did_you_mean_suffix(config.type, kDirectorTypes));
    } else if (item.key == "scheduler") {
      config.scheduler = scalar(item, "a scheduler name");
      const SchedulerRegistry& schedulers = loader_.context().schedulers;
      if (!schedulers.contains(config.scheduler)) {
        std::vector<std::string> known;
        for (const auto& [name, description] : schedulers.list())
          known.push_back(name);
        fail(value_location(item), "unknown scheduler '" + config.scheduler +
                                       "' (known: " + (known.empty() ? "none" : join(known)) + ")" +
                                       did_you_mean_suffix(config.scheduler, known));
      }
    } else if (item.key == "workers") {
      config.workers = static_cast<unsigned>(integer(item, 1, "a positive int"));
    } else if (item.key == "adapt_workers") {
      const std::string text = scalar(item, "true or false");
      if (text != "true" && text != "false")
        fail(value_location(item), "'adapt_workers' must be true or false, got '" + text + "'");
      config.adapt_workers = text == "true";
    } else {
      // Every other key is a parameter of the scheduling policy, unless it looks like a typo.
      if (auto suggestion = did_you_mean(item.key, kDirectorKeys))
        fail(key_location(item),
             "unknown director key '" + item.key + "'; did you mean '" + *suggestion + "'?");
      config.parameters[item.key] = yaml_to_value(item.value, file_);
    }
  }
  // What only the scheduled director has is an error under the threaded one, not ignored.
  if (config.type == "threaded")
    for (const YamlEntry& item : yaml_map_entries(entry.value, file_))
      if (item.key != "type")
        fail(key_location(item), "'" + item.key +
                                     "' applies to the scheduled director (its policy, workers "
                                     "and their parameters); the threaded director runs one "
                                     "thread per actor and takes none");
  // The policy's parameters are checked now, where their lines are known.
  if (config.type == "scheduled" && loader_.context().schedulers.contains(config.scheduler)) {
    try {
      loader_.context().schedulers.create(config.scheduler, config.parameters);
    } catch (const SchedulerParameterError& e) {
      for (const YamlEntry& item : yaml_map_entries(entry.value, file_))
        if (item.key == e.parameter()) fail(value_location(item), e.what());
      fail(value_location(entry), e.what());
    } catch (const std::invalid_argument& e) {
      fail(value_location(entry), e.what());
    }
  }
  return config;
}

void FileParser::define(const std::string& name, const SourceLocation& where,
                        std::string_view kind) {
  if (!valid_name(name))
    fail(where, "invalid " + std::string(kind) + " name '" + name +
                    "' (use letters, digits, '_' and '-')");
  auto [it, inserted] = defined_.try_emplace(name, where, std::string(kind));
  if (!inserted)
    fail(where, "duplicate name '" + name + "' (first at " + std::to_string(it->second.first.line) +
                    ":" + std::to_string(it->second.first.column) + ", as an " + it->second.second +
                    ")");
}

std::vector<std::string> FileParser::parse_boundary(const YamlEntry& entry, bool inputs) {
  std::vector<YAML::Node> items;
  if (entry.value.IsScalar())
    items.push_back(entry.value);
  else if (entry.value.IsSequence())
    for (const YAML::Node& item : entry.value)
      items.push_back(item);
  else
    fail(value_location(entry), "expected a list of port names for '" + entry.key + "', got " +
                                    describe_yaml(entry.value));
  std::vector<std::string> names;
  Workflow& workflow = *result_.workflow;
  for (const YAML::Node& item : items) {
    SourceLocation where = yaml_location(item, file_, value_location(entry));
    if (!item.IsScalar())
      fail(where, "expected a port name in '" + entry.key + "', got " + describe_yaml(item));
    std::string name = item.Scalar();
    define(name, where, inputs ? "input" : "output");
    if (inputs)
      workflow.add(name, std::make_unique<BoundaryInput>(), "input", 20, where);
    else
      workflow.add(name, std::make_unique<BoundaryOutput>(), "output", 20, where);
    names.push_back(name);
  }
  return names;
}

void FileParser::parse_actors(const YamlEntry& entry) {
  if (entry.value.IsNull()) return;
  if (!entry.value.IsMap())
    fail(value_location(entry),
         "expected a map of actors (name: {type: ..., parameters}) for 'actors', got " +
             describe_yaml(entry.value));
  std::vector<YamlEntry> actors = yaml_map_entries(entry.value, file_, "actor");
  if (!sub_) loader_.check_overrides(actors, file_);
  for (const YamlEntry& actor : actors)
    parse_actor(actor);
}

void FileParser::parse_actor(const YamlEntry& entry) {
  SourceLocation where = key_location(entry);
  define(entry.key, where, "actor");
  if (!entry.value.IsMap())
    fail(value_location(entry), "expected a map for actor '" + entry.key +
                                    "' (e.g. {type: ..., parameters} or {workflow: file.yaml}), "
                                    "got " +
                                    describe_yaml(entry.value));
  std::vector<YamlEntry> entries = yaml_map_entries(entry.value, file_);
  const YamlEntry* type = nullptr;
  const YamlEntry* workflow = nullptr;
  for (const YamlEntry& item : entries) {
    if (item.key == "type") type = &item;
    if (item.key == "workflow") workflow = &item;
  }
  if (type && workflow)
    fail(key_location(*workflow), "actor '" + entry.key +
                                      "' has both 'type' and 'workflow'; an actor is either an "
                                      "actor type or a sub-workflow");
  if (workflow)
    add_subworkflow(entry.key, where, entries);
  else if (type)
    add_typed_actor(entry.key, where, entries);
  else
    fail(where, "actor '" + entry.key + "' needs a 'type' (or 'workflow' for a sub-workflow)");
}

void FileParser::add_typed_actor(const std::string& name, const SourceLocation& where,
                                 const std::vector<YamlEntry>& entries) {
  const ActorRegistry& registry = loader_.context().actors;
  const ActorType* type = nullptr;
  int priority = 20;
  int parallelism = 1;
  SourceLocation parallelism_at = where;
  std::vector<YamlEntry> params;
  for (const YamlEntry& item : entries) {
    if (item.key == "type") {
      std::string type_name = scalar(item, "an actor type");
      type = registry.find(type_name);
      if (!type)
        fail(value_location(item), "unknown actor type '" + type_name + "' for actor '" + name +
                                       "'" + suggest(type_name, registry.names(), "known types"));
    } else if (item.key == "priority") {
      priority = integer(item, std::numeric_limits<int>::min(), "int");
    } else if (item.key == "parallelism") {
      parallelism = integer(item, 1, "a positive int");
      if (parallelism > kMaxParallelism)
        fail(value_location(item), "parallelism is at most " + std::to_string(kMaxParallelism) +
                                       ", got " + std::to_string(parallelism));
      parallelism_at = value_location(item);
    } else {
      params.push_back(item);
    }
  }
  std::map<std::string, std::string> set_outside;
  if (!sub_) loader_.apply_overrides(name, params, set_outside);
  Params bound = bind_params(*type, name, where, params, file_, base_dir_);
  bound.set_outside_file(std::move(set_outside));
  std::vector<MissingInput> missing;
  std::vector<LoadWarning>* warnings = loader_.context().missing_inputs;
  if (warnings) bound.collect_missing_inputs(&missing);
  // Each replica is built from the same parameters: its own state, its own windows. What the
  // first one found missing is reported once.
  for (int replica = 0; replica < parallelism; ++replica) {
    std::unique_ptr<Actor> actor = make_actor(*type, name, where, bound);
    bound.collect_missing_inputs(nullptr);
    if (parallelism > 1 && actor->is_source())
      fail(parallelism_at, "actor '" + name + "' is a source (" + type->name +
                               "): its replicas would each emit the whole input; give "
                               "parallelism to the actors it feeds");
    actor->set_replica_count(parallelism);
    result_.workflow->add(parallelism > 1 ? replica_of(name, replica) : name, std::move(actor),
                          type->name, priority, where);
  }
  for (MissingInput& input : missing) {
    SourceLocation at = bound.location(input.param);
    warnings->push_back(LoadWarning{
        at.line == 0 ? where : at,
        "actor '" + name + "' needs '" + input.param + "' to run: " + std::move(input.reason),
        name});
  }
  if (parallelism > 1) replicas_[name] = parallelism;
}

void FileParser::add_subworkflow(const std::string& name, const SourceLocation& where,
                                 const std::vector<YamlEntry>& entries) {
  const YamlEntry* workflow = nullptr;
  const YamlEntry* director = nullptr;
  int priority = 20;
  for (const YamlEntry& item : entries) {
    if (item.key == "workflow")
      workflow = &item;
    else if (item.key == "director")
      director = &item;
    else if (item.key == "priority")
      priority = integer(item, std::numeric_limits<int>::min(), "int");
    else
      fail(key_location(item), "unknown key '" + item.key + "' for sub-workflow actor '" + name +
                                   "'" + suggest(item.key, kSubworkflowKeys, "expected one of"));
  }
  std::string written = scalar(*workflow, "a workflow file");
  SourceLocation path_location = value_location(*workflow);
  fs::path path(written);
  if (path.is_relative() && !base_dir_.empty()) path = fs::path(base_dir_) / path;
  path = path.lexically_normal();
  std::string file = path.string();
  std::string identity = identity_of(path);
  if (auto chain = loader_.cycle(identity, file))
    fail(path_location, "sub-workflow include cycle: " + *chain);
  std::string error;
  std::optional<std::string> text = read_text_file(path, error);
  if (!text) fail(path_location, "cannot read sub-workflow '" + file + "': " + error);

  Parsed inner = loader_.load(*text, file, path.parent_path().string(), identity, /*sub=*/true);

  // The director asked for here, else the one the sub-workflow's file asks for, else the default.
  DirectorConfig config;
  SourceLocation director_location = where;
  if (director) {
    config = parse_director(*director);
    director_location = value_location(*director);
  } else if (inner.director) {
    config = *inner.director;
    director_location = inner.director_location;
  }
  // A sub-workflow runs once per outer firing on the outer worker's thread: extra workers would
  // be threads started and joined per firing, so it gets more only when it asks.
  if (config.workers == 0) config.workers = 1;
  inner.workflow->director() = config;
  std::unique_ptr<Director> inner_director;
  try {
    inner_director = make_director(config, loader_.context().schedulers);
  } catch (const std::exception& e) {
    fail(director_location,
         "cannot create the director of sub-workflow actor '" + name + "': " + e.what());
  }
  std::unique_ptr<Actor> composite;
  try {
    composite = std::make_unique<CompositeActor>(std::move(inner.workflow), inner.inputs,
                                                 inner.outputs, std::move(inner_director));
  } catch (const std::exception& e) {
    fail(where, "cannot create sub-workflow actor '" + name + "': " + e.what());
  }
  result_.workflow->add(name, std::move(composite), "workflow:" + written, priority, where);
}

}  // namespace cwf::loader_detail
