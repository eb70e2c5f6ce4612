#include "experiments/experiment_spec.hpp"

#include "linear_road/workflow_location.hpp"

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "runtime/execution/director_factory.hpp"
#include "runtime/loading/load_error.hpp"
#include "runtime/loading/yaml_file_reader.hpp"
#include "runtime/loading/yaml_value.hpp"
#include "runtime/time/duration.hpp"
#include "runtime/values/did_you_mean.hpp"

namespace cwf::experiments {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kTopKeys = {"name",
                                           "description",
                                           "workflow",
                                           "data",
                                           "compression",
                                           "duration",
                                           "repetitions",
                                           "workers",
                                           "response_limit_s",
                                           "priorities",
                                           "synthetic_cost_us",
                                           "configurations",
                                           "quick",
                                           "set"};
const std::vector<std::string> kQuickKeys = {"duration", "repetitions", "compression", "data"};
const std::vector<std::string> kDataKeys = {"generate", "input", "tolls"};
const std::vector<std::string> kGenerateKeys = {"xways", "minutes", "seed"};
const std::vector<std::string> kConfigKeys = {"name", "director", "priorities", "synthetic_cost_us",
                                              "sweep"};
const std::vector<std::string> kDirectorKeys = {"type", "scheduler", "workers"};

class Parser : private YamlFileReader {
 public:
  Parser(std::string file, std::string base_dir, const SchedulerRegistry& schedulers)
      : YamlFileReader(std::move(file)), base_dir_(std::move(base_dir)), schedulers_(schedulers) {}

  ExperimentSpec parse(const std::string& text, bool quick) {
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      throw LoadError(yaml_location(e.mark, file_), e.msg);
    }
    SourceLocation start{file_, 1, 1};
    if (!root.IsDefined() || root.IsNull())
      throw LoadError(start, "the experiment file is empty (expected a map with 'configurations')");
    if (!root.IsMap())
      throw LoadError(yaml_location(root, file_, start),
                      "expected a map (name, data, compression, duration, configurations) at the "
                      "top of the experiment file, got " +
                          describe_yaml(root));
    try {
      return parse_top(root, quick, start);
    } catch (const YAML::Exception& e) {
      throw LoadError(yaml_location(e.mark, file_), e.msg);
    }
  }

 private:
  std::int64_t integer(const YamlEntry& entry, std::int64_t low, std::int64_t high,
                       std::string_view expected) const {
    std::optional<std::int64_t> value;
    if (entry.value.IsScalar()) value = parse_yaml_int(entry.value.Scalar());
    if (!value || *value < low || *value > high)
      fail(value_location(entry, file_), "expected " + std::string(expected) + " for '" +
                                             entry.key + "', got " + describe_yaml(entry.value));
    return *value;
  }
  double real(const YamlEntry& entry, double low, std::string_view expected) const {
    std::optional<double> value;
    if (entry.value.IsScalar()) value = parse_yaml_real(entry.value.Scalar());
    if (!value || !(*value >= low) || *value == std::numeric_limits<double>::infinity())
      fail(value_location(entry, file_), "expected " + std::string(expected) + " for '" +
                                             entry.key + "', got " + describe_yaml(entry.value));
    return *value;
  }
  Duration duration(const YamlEntry& entry) const {
    if (entry.value.IsScalar()) {
      // A plain number is seconds.
      if (auto seconds = parse_yaml_real(entry.value.Scalar()); seconds && *seconds > 0)
        return static_cast<Duration>(*seconds * kSecond);
      std::string reason;
      if (auto d = try_parse_duration(entry.value.Scalar(), &reason); d && *d > 0) return *d;
      fail(value_location(entry, file_),
           "expected a positive duration for '" + entry.key + "' (e.g. 90s, 2 min), got " +
               describe_yaml(entry.value) + (reason.empty() ? "" : ": " + reason));
    }
    fail(value_location(entry, file_), "expected a positive duration for '" + entry.key +
                                           "' (e.g. 90s, 2 min), got " +
                                           describe_yaml(entry.value));
  }
  std::string path(const YamlEntry& entry) const {
    fs::path p = scalar(entry, "a file path");
    if (p.is_relative()) p = fs::path(base_dir_) / p;
    return fs::absolute(p).lexically_normal().string();
  }

  PerActor<int> priorities(const YamlEntry& entry) const {
    PerActor<int> result;
    for (const YamlEntry& item : map_of(entry, "{tolls: 5, statistics: 10}")) {
      result.values[item.key] = static_cast<int>(integer(item, 0, 39, "a priority 0-39"));
      result.locations[item.key] = key_location(item, file_);
    }
    return result;
  }
  PerActor<Duration> costs(const YamlEntry& entry) const {
    PerActor<Duration> result;
    for (const YamlEntry& item : map_of(entry, "{statistics: 200}")) {
      double us = real(item, 0, "microseconds per firing (a number >= 0)");
      result.values[item.key] = static_cast<Duration>(us * 1000);
      result.locations[item.key] = key_location(item, file_);
    }
    return result;
  }

  DataSpec data(const YamlEntry& entry) const {
    DataSpec data;
    data.location = key_location(entry, file_);
    bool generate = false, input = false;
    for (const YamlEntry& item :
         map_of(entry, "{generate: {xways: 1, minutes: 20, seed: 1}} or {input: input.dat}")) {
      if (item.key == "generate") {
        generate = true;
        for (const YamlEntry& g : map_of(item, "{xways: 1, minutes: 20, seed: 1}")) {
          if (g.key == "xways")
            data.xways = static_cast<int>(integer(g, 1, 1000, "a number of expressways 1-1000"));
          else if (g.key == "minutes")
            data.minutes = static_cast<int>(integer(g, 1, 10080, "minutes 1-10080"));
          else if (g.key == "seed")
            data.seed = static_cast<std::uint64_t>(
                integer(g, 0, std::numeric_limits<std::int64_t>::max(), "a seed >= 0"));
          else
            unknown_key(g, kGenerateKeys, "generate");
        }
      } else if (item.key == "input") {
        input = true;
        data.input = path(item);
      } else if (item.key == "tolls") {
        data.tolls = path(item);
      } else {
        unknown_key(item, kDataKeys, "data");
      }
    }
    if (generate == input)
      fail(data.location, "expected exactly one of 'generate' and 'input' in 'data'");
    data.generate = generate;
    return data;
  }

  DirectorConfig director(const YamlEntry& entry, unsigned default_workers) const {
    DirectorConfig config;
    config.workers = default_workers;
    for (const YamlEntry& item : map_of(entry, "{type: scheduled, scheduler: qbs}")) {
      if (item.key == "type") {
        config.type = scalar(item, "a director type");
        if (config.type != "scheduled" && config.type != "threaded")
          fail(value_location(item, file_),
               "unknown director type '" + config.type + "' (expected scheduled or threaded)" +
                   did_you_mean_suffix(config.type, {"scheduled", "threaded"}));
      } else if (item.key == "scheduler") {
        config.scheduler = scalar(item, "a scheduler name");
        if (!schedulers_.contains(config.scheduler)) {
          std::vector<std::string> known;
          for (const auto& [name, description] : schedulers_.list())
            known.push_back(name);
          std::string list;
          for (const auto& k : known)
            list += (list.empty() ? "" : ", ") + k;
          fail(value_location(item, file_), "unknown scheduler '" + config.scheduler +
                                                "' (known: " + list + ")" +
                                                did_you_mean_suffix(config.scheduler, known));
        }
      } else if (item.key == "workers") {
        config.workers = static_cast<unsigned>(integer(item, 1, 4096, "a positive int"));
      } else {
        if (auto suggestion = did_you_mean(item.key, kDirectorKeys))
          fail(key_location(item, file_),
               "unknown director key '" + item.key + "'; did you mean '" + *suggestion + "'?");
        config.parameters[item.key] = yaml_to_value(item.value, file_);
      }
    }
    return config;
  }

  // Scheduler parameters are checked by building the director once.
  void check_director(const DirectorConfig& config, const SourceLocation& where) const {
    try {
      make_director(config, schedulers_);
    } catch (const std::exception& e) {
      fail(where, e.what());
    }
  }

  void configurations(const YamlEntry& entry, ExperimentSpec& spec) const {
    if (!entry.value.IsSequence() || entry.value.size() == 0)
      fail(value_location(entry, file_),
           "expected a list of configurations (- {name: qbs, director: {...}}), got " +
               describe_yaml(entry.value));
    std::map<std::string, SourceLocation> names;
    for (const YAML::Node& node : entry.value) {
      SourceLocation where = yaml_location(node, file_, value_location(entry, file_));
      if (!node.IsMap())
        fail(where,
             "expected a configuration map (name, director, priorities, "
             "synthetic_cost_us, sweep), got " +
                 describe_yaml(node));
      ConfigurationSpec config;
      config.location = where;
      config.director.workers = spec.workers;
      bool named = false, directed = false;
      const YamlEntry* sweep = nullptr;
      auto items = yaml_map_entries(node, file_);
      SourceLocation director_where = where;
      for (const YamlEntry& item : items) {
        if (item.key == "name") {
          config.name = scalar(item, "a configuration name");
          named = true;
        } else if (item.key == "director") {
          config.director = director(item, spec.workers);
          director_where = value_location(item, file_);
          directed = true;
        } else if (item.key == "priorities") {
          config.priorities = priorities(item);
        } else if (item.key == "synthetic_cost_us") {
          config.synthetic_cost = costs(item);
        } else if (item.key == "sweep") {
          sweep = &item;
        } else {
          unknown_key(item, kConfigKeys, "configuration");
        }
      }
      if (!named) fail(where, "expected a 'name' in the configuration");
      if (!directed)
        fail(where, "expected a 'director' in configuration '" + config.name +
                        "' (e.g. {type: scheduled, scheduler: rr, slice_us: 20000})");
      std::vector<ConfigurationSpec> expanded;
      if (!sweep) {
        check_director(config.director, director_where);
        expanded.push_back(config);
      } else {
        auto sweep_items = map_of(*sweep, "{slice_us: [5000, 10000]}");
        if (sweep_items.size() != 1)
          fail(value_location(*sweep, file_),
               "expected one director parameter with a list of values in 'sweep'");
        const YamlEntry& parameter = sweep_items.front();
        if (!parameter.value.IsSequence() || parameter.value.size() == 0)
          fail(value_location(parameter, file_), "expected a list of values for '" + parameter.key +
                                                     "', got " + describe_yaml(parameter.value));
        for (const YAML::Node& value : parameter.value) {
          SourceLocation value_where =
              yaml_location(value, file_, value_location(parameter, file_));
          if (!value.IsScalar())
            fail(value_where, "expected a scalar value for '" + parameter.key + "', got " +
                                  describe_yaml(value));
          ConfigurationSpec one = config;
          one.name = config.name + "-" + value.Scalar();
          if (parameter.key == "workers") {
            auto workers = parse_yaml_int(value.Scalar());
            if (!workers || *workers < 1 || *workers > 4096)
              fail(value_where,
                   "expected a positive int for 'workers', got " + describe_yaml(value));
            one.director.workers = static_cast<unsigned>(*workers);
          } else {
            one.director.parameters[parameter.key] = yaml_to_value(value, file_);
          }
          check_director(one.director, value_where);
          expanded.push_back(std::move(one));
        }
      }
      for (ConfigurationSpec& one : expanded) {
        auto [it, inserted] = names.try_emplace(one.name, one.location);
        if (!inserted)
          fail(one.location, "duplicate configuration name '" + one.name + "' (first at " +
                                 std::to_string(it->second.line) + ":" +
                                 std::to_string(it->second.column) + ")");
        spec.configurations.push_back(std::move(one));
      }
    }
  }

  ExperimentSpec parse_top(const YAML::Node& root, bool quick, const SourceLocation& start) {
    ExperimentSpec spec;
    spec.file = file_;
    spec.name = fs::path(file_).stem().string();
    spec.workflow =
        fs::absolute(fs::path(base_dir_) / ".." / "linear_road.yaml").lexically_normal().string();
    spec.workflow_location = start;
    std::vector<YamlEntry> items = yaml_map_entries(root, file_);
    const YamlEntry* configs = nullptr;
    const YamlEntry* quick_entry = nullptr;
    bool has_data = false, has_workflow = false;
    for (const YamlEntry& item : items) {
      if (item.key == "name")
        spec.name = scalar(item, "a name");
      else if (item.key == "description")
        spec.description = item.value.IsScalar() ? item.value.Scalar() : "";
      else if (item.key == "workflow") {
        has_workflow = true;
        spec.workflow = path(item);
        spec.workflow_location = value_location(item, file_);
      } else if (item.key == "data") {
        spec.data = data(item);
        has_data = true;
      } else if (item.key == "compression")
        spec.compression = real(item, 0, "a time compression k >= 0 (0: as fast as possible)");
      else if (item.key == "duration")
        spec.duration = duration(item);
      else if (item.key == "repetitions")
        spec.repetitions = static_cast<int>(integer(item, 1, 1000, "a number of repetitions >= 1"));
      else if (item.key == "workers")
        spec.workers = static_cast<unsigned>(integer(item, 1, 4096, "a positive int"));
      else if (item.key == "response_limit_s")
        spec.response_limit_s = real(item, 0, "seconds (a number > 0)");
      else if (item.key == "priorities")
        spec.priorities = priorities(item);
      else if (item.key == "synthetic_cost_us")
        spec.synthetic_cost = costs(item);
      else if (item.key == "configurations")
        configs = &item;
      else if (item.key == "set")
        for (const YamlEntry& setting : map_of(item, "{input.batch: 64}")) {
          auto dot = setting.key.find('.');
          if (dot == std::string::npos || dot == 0 || dot + 1 == setting.key.size())
            fail(key_location(setting, file_),
                 "expected ACTOR.PARAM as the key in 'set', got '" + setting.key + "'");
          if (!setting.value.IsScalar())
            fail(value_location(setting, file_), "expected a scalar value for '" + setting.key +
                                                     "', got " + describe_yaml(setting.value));
          spec.settings.emplace_back(setting.key, setting.value.Scalar());
        }
      else if (item.key == "quick")
        quick_entry = &item;
      else
        unknown_key(item, kTopKeys, "experiment");
    }
    if (!has_data) spec.data.location = start;
    if (!has_workflow && !fs::is_regular_file(spec.workflow)) {
      std::string found = lr::find_linear_road_workflow();
      if (found.empty())
        fail(start,
             "no 'workflow' given, and neither ../linear_road.yaml beside this file nor "
             "workflows/linear_road.yaml (here or in the source tree) exists; name it with "
             "'workflow: FILE'");
      spec.workflow = found;
    }
    if (!fs::is_regular_file(spec.workflow))
      fail(spec.workflow_location, "workflow file '" + spec.workflow + "' does not exist");
    if (!spec.data.generate && !fs::is_regular_file(spec.data.input))
      fail(spec.data.location, "input file '" + spec.data.input + "' does not exist");
    if (!configs) fail(start, "expected 'configurations' (the list of directors to compare)");
    // Configurations come after `workers` wherever it was written.
    configurations(*configs, spec);
    if (quick) {
      spec.repetitions = 1;
      if (spec.duration > 20 * kSecond) spec.duration = 20 * kSecond;
      if (quick_entry)
        for (const YamlEntry& item : map_of(*quick_entry, "{duration: 20s, compression: 40}")) {
          if (item.key == "duration")
            spec.duration = duration(item);
          else if (item.key == "repetitions")
            spec.repetitions = static_cast<int>(integer(item, 1, 1000, "a number >= 1"));
          else if (item.key == "compression")
            spec.compression = real(item, 0, "a time compression k >= 0");
          else if (item.key == "data")
            spec.data = data(item);
          else
            unknown_key(item, kQuickKeys, "quick");
        }
    } else if (quick_entry) {
      map_of(*quick_entry, "{duration: 20s, compression: 40}");
    }
    return spec;
  }

  std::string base_dir_;
  const SchedulerRegistry& schedulers_;
};

}  // namespace

ExperimentSpec load_experiment_text(const std::string& text, const std::string& file,
                                    const std::string& base_dir,
                                    const SchedulerRegistry& schedulers, bool quick) {
  return Parser(file, base_dir, schedulers).parse(text, quick);
}

ExperimentSpec load_experiment_file(const std::string& path, const SchedulerRegistry& schedulers,
                                    bool quick) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(SourceLocation{path, 0, 0}, "cannot read the experiment file");
  std::ostringstream text;
  text << in.rdbuf();
  std::string base = fs::path(path).parent_path().string();
  return load_experiment_text(text.str(), path, base.empty() ? "." : base, schedulers, quick);
}

}  // namespace cwf::experiments
