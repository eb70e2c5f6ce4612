#include "experiments/harness.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <yaml-cpp/yaml.h>

#include "actors/line_reader.hpp"
#include "experiments/synthetic_cost.hpp"
#include "linear_road/answer_sink_actor.hpp"
#include "linear_road/csv_file_writer.hpp"
#include "linear_road/input_parser.hpp"
#include "linear_road/response_times.hpp"
#include "linear_road/source_actor.hpp"
#include "linear_road/traffic_generator.hpp"
#include "runtime/execution/director_factory.hpp"
#include "runtime/execution/execution.hpp"
#include "runtime/loading/load_error.hpp"

namespace cwf::experiments {

namespace fs = std::filesystem;

namespace {

constexpr Duration kSampleInterval = 100 * kMillisecond;

// Cumulative tuples (types 0, 2, 3: what the source emits) released by data second s.
struct Schedule {
  std::int64_t first_time = 0;
  std::vector<std::uint64_t> cumulative;  // index: data second - first_time

  // Seconds the source is behind when it has emitted `emitted` tuples at `elapsed_s` with
  // compression k.
  double lag(double elapsed_s, std::uint64_t emitted, double k) const {
    if (k <= 0 || cumulative.empty() || emitted >= cumulative.back()) return 0;
    double due_index = elapsed_s * k;
    auto index = static_cast<std::size_t>(
        std::min<double>(due_index, static_cast<double>(cumulative.size() - 1)));
    if (emitted >= cumulative[index]) return 0;
    // The next tuple to release belongs to the first data second whose cumulative count
    // exceeds what was emitted.
    auto next = std::upper_bound(cumulative.begin(), cumulative.end(), emitted);
    double due_s = static_cast<double>(next - cumulative.begin()) / k;
    return std::max(0.0, elapsed_s - due_s);
  }
};

Schedule read_schedule(const std::string& path) {
  actors::LineReader reader;
  if (!reader.open(path)) throw std::runtime_error("cannot read " + path + ": " + reader.error());
  std::vector<std::uint64_t> per_second;
  std::int64_t first = -1;
  std::string_view line;
  lr::InputRecord record;
  while (reader.next(line)) {
    if (lr::parse_input_line(line, record) != lr::InputReject::none) continue;
    if (record.type == static_cast<std::int32_t>(lr::InputType::travel_time)) continue;
    if (first < 0) first = record.time;
    if (record.time < first) continue;
    auto index = static_cast<std::size_t>(record.time - first);
    if (per_second.size() <= index) per_second.resize(index + 1, 0);
    ++per_second[index];
  }
  Schedule schedule;
  schedule.first_time = first < 0 ? 0 : first;
  std::uint64_t sum = 0;
  for (std::uint64_t n : per_second) {
    sum += n;
    schedule.cumulative.push_back(sum);
  }
  return schedule;
}

struct Sample {
  double elapsed_s = 0;
  std::vector<std::uint64_t> out, in, cost, queue;
};

template <class T>
void check_names(const PerActor<T>& values, const Workflow& workflow, const std::string& what) {
  for (const auto& [name, value] : values.values)
    if (!workflow.find(name)) {
      std::string known;
      for (const ActorEntry& entry : workflow.actors())
        known += (known.empty() ? "" : ", ") + entry.name;
      throw LoadError(
          values.locations.at(name),
          what + " for '" + name + "', which is no actor of the workflow (" + known + ")");
    }
}

// Stands for an actor of the workflow when only its name matters.
class NoActor final : public Actor {
 public:
  void fire(FiringContext&) override {}
};

double seconds_of(Duration d) {
  return static_cast<double>(d) / kSecond;
}

}  // namespace

std::string prepare_data(const DataSpec& data, const std::string& dir, std::ostream& log) {
  if (!data.generate) return data.input;
  fs::path folder = fs::path(dir) / "data";
  fs::path input = folder / "input.dat";
  fs::path stamp = folder / "generated-with";
  std::ostringstream wanted;
  wanted << "cwf lr generate --xways " << data.xways << " --minutes " << data.minutes << " --seed "
         << data.seed << "\n";
  {
    std::ifstream in(stamp);
    std::stringstream have;
    have << in.rdbuf();
    if (in && have.str() == wanted.str() && fs::is_regular_file(input)) return input.string();
  }
  fs::create_directories(folder);
  log << "generating data: " << wanted.str();
  lr::TrafficOptions options;
  options.xways = data.xways;
  options.minutes = data.minutes;
  options.seed = data.seed;
  lr::CsvFileWriter writer(input.string());
  if (!writer.ok()) throw std::runtime_error("cannot write " + input.string());
  lr::TrafficGenerator generator(options);
  generator.run([&](const lr::InputRecord& record) { writer.line(record); });
  if (!writer.close()) throw std::runtime_error("writing " + input.string() + " failed");
  std::ofstream(stamp) << wanted.str();
  return input.string();
}

ExperimentResult run_experiment(const ExperimentSpec& spec, const LoadContext& context,
                                const std::string& out_dir, std::ostream& log) {
  ExperimentResult result;
  result.name = spec.name;
  result.response_limit_s = spec.response_limit_s;

  // The workflow's actors as written (the file is loaded for real once the data exists: its
  // source checks its input path).
  std::vector<std::pair<std::string, std::string>> written;  // name, type
  try {
    YAML::Node root = YAML::LoadFile(spec.workflow);
    if (root.IsMap() && root["actors"] && root["actors"].IsMap())
      for (const auto& item : root["actors"]) {
        std::string type =
            item.second.IsMap() && item.second["type"] && item.second["type"].IsScalar()
                ? item.second["type"].Scalar()
                : "";
        written.emplace_back(item.first.Scalar(), type);
      }
  } catch (const YAML::Exception&) {
    load_workflow_file(spec.workflow, context);  // reports the error with its position
  }
  auto name_of = [&](const std::string& type) -> std::string {
    for (const auto& [name, t] : written)
      if (t == type) return name;
    return "";
  };
  const std::string source_name = name_of("lr_source");
  const std::string sink_name = name_of("lr_answer_sink");
  const std::string expenditures_name = name_of("lr_daily_expenditure");
  if (source_name.empty() || sink_name.empty())
    throw LoadError(spec.workflow_location,
                    "the workflow needs an lr_source and an lr_answer_sink actor");
  Workflow names;
  for (const auto& [name, type] : written)
    names.emplace<NoActor>(name);
  check_names(spec.priorities, names, "a priority");
  check_names(spec.synthetic_cost, names, "a synthetic cost");
  for (const ConfigurationSpec& config : spec.configurations) {
    check_names(config.priorities, names, "a priority");
    check_names(config.synthetic_cost, names, "a synthetic cost");
    result.configurations.push_back(config.name);
  }

  result.input = prepare_data(spec.data, out_dir, log);
  Schedule schedule = read_schedule(result.input);
  const double k = spec.compression;
  std::ostringstream compression;
  compression << std::setprecision(17) << k;

  for (const ConfigurationSpec& config : spec.configurations) {
    for (int repetition = 1; repetition <= spec.repetitions; ++repetition) {
      std::vector<ParamOverride> overrides = {{source_name, "path", result.input},
                                              {source_name, "compression", compression.str()},
                                              {sink_name, "path", "/dev/null"},
                                              {sink_name, "compression", compression.str()}};
      for (const auto& [name, value] : spec.settings) {
        auto dot = name.find('.');
        // Written in the experiment file: a relative path there is relative to its folder.
        overrides.push_back({name.substr(0, dot), name.substr(dot + 1), value,
                             fs::path(spec.file).parent_path().string()});
      }
      if (!expenditures_name.empty())
        overrides.push_back({expenditures_name, "tolls", spec.data.tolls});
      std::unique_ptr<Workflow> workflow = load_workflow_file(spec.workflow, context, overrides);
      if (result.actors.empty())
        for (const ActorEntry& entry : workflow->actors())
          result.actors.push_back(entry.name);
      const ActorId source_id = *workflow->find(source_name);
      const ActorId sink_id = *workflow->find(sink_name);
      const std::size_t n = workflow->size();
      workflow->director() = config.director;
      for (const auto* priorities : {&spec.priorities, &config.priorities})
        for (const auto& [name, priority] : priorities->values)
          workflow->actor(*workflow->find(name)).priority = priority;
      std::map<std::string, Duration> costs = spec.synthetic_cost.values;
      for (const auto& [name, cost] : config.synthetic_cost.values)
        costs[name] = cost;
      auto* sink = dynamic_cast<lr::AnswerSinkActor*>(workflow->actor(sink_id).actor.get());
      std::atomic<bool> measuring_over{false};
      for (const auto& [name, cost] : costs)
        if (cost > 0) add_synthetic_cost(*workflow, name, cost, &measuring_over);
      std::unique_ptr<Director> director = make_director(config.director, context.schedulers);

      lr::ResponseTimes recorder;
      if (sink) sink->record_response_times(&recorder);
      std::vector<Sample> samples;
      RunOptions options;
      options.run_for = spec.duration;
      RealClock clock;
      log << spec.name << ": " << config.name << " (run " << repetition << " of "
          << spec.repetitions << ") ..." << std::flush;
      recorder.restart();
      auto started = std::chrono::steady_clock::now();
      // The run, as run_workflow does it, with a sampler thread beside the director: counters
      // are read on time however long the director's own turns take.
      Execution execution(*workflow, clock);
      execution.initialize();
      director->start(execution);
      execution.wake_sources();
      std::atomic<bool> sampling{true};
      std::thread sampler([&] {
        for (int tick = 1; sampling.load(std::memory_order_relaxed); ++tick) {
          std::this_thread::sleep_until(started + std::chrono::nanoseconds(tick * kSampleInterval));
          Sample sample;
          sample.elapsed_s =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
          for (ActorId id = 0; id < execution.size(); ++id) {
            const ActorCell& cell = execution.cell(id);
            sample.out.push_back(cell.stats().events_out.get());
            sample.in.push_back(cell.stats().events_in.get());
            sample.cost.push_back(cell.stats().cost_ns.get());
            sample.queue.push_back(cell.queue_length());
          }
          samples.push_back(std::move(sample));
          // The measurement is over: the rest drains at the engine's own speed.
          if (samples.back().elapsed_s >= seconds_of(spec.duration))
            measuring_over.store(true, std::memory_order_relaxed);
        }
      });
      auto stop_sampler = [&] {
        sampling.store(false, std::memory_order_relaxed);
        sampler.join();
      };
      try {
        director->run(options);
      } catch (...) {
        stop_sampler();
        director->shutdown();
        throw;
      }
      stop_sampler();
      director->shutdown();
      execution.wrapup();
      RunResult run;
      run.configuration = config.name;
      run.repetition = repetition;
      run.wall_s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

      // Counters at time t: the latest sample taken at or before t.
      Sample zero;
      zero.out = zero.in = zero.cost = zero.queue = std::vector<std::uint64_t>(n, 0);
      auto at = [&](double t) -> const Sample& {
        const Sample* best = &zero;
        for (const Sample& s : samples) {
          if (s.elapsed_s > t) break;
          best = &s;
        }
        return *best;
      };
      lr::ResponseHistogram whole;
      const int seconds = static_cast<int>(seconds_of(spec.duration));
      double last_sample = samples.empty() ? 0 : samples.back().elapsed_s;
      for (int i = 0; i < seconds && i + 1 <= last_sample + 1e-9; ++i) {
        const Sample& a = at(i);
        const Sample& b = at(i + 1);
        double dt = b.elapsed_s - a.elapsed_s;
        RunSecond row;
        row.second = i;
        row.input_rate = static_cast<double>(b.out[source_id] - a.out[source_id]);
        row.output_rate = static_cast<double>(b.in[sink_id] - a.in[sink_id]);
        auto per_type = recorder.second(static_cast<std::size_t>(i));
        lr::ResponseHistogram answers = per_type[0];
        answers.merge(per_type[1]);
        whole.merge(answers);
        row.responses = answers.count();
        if (answers.count() > 0) {
          row.response_mean_s = seconds_of(answers.mean());
          row.response_p99_s = seconds_of(answers.percentile(0.99));
        }
        row.source_lag_s = schedule.lag(b.elapsed_s, b.out[source_id], k);
        // Without answers the second says nothing, unless the source itself is past the limit.
        if (row.response_mean_s)
          row.delay_s = std::max(*row.response_mean_s, row.source_lag_s);
        else if (row.source_lag_s > spec.response_limit_s)
          row.delay_s = row.source_lag_s;
        for (std::size_t id = 0; id < n; ++id) {
          row.queue.push_back(b.queue[id]);
          row.queue_total += b.queue[id];
          row.cpu.push_back(dt > 0 ? static_cast<double>(b.cost[id] - a.cost[id]) / 1e9 / dt : 0);
        }
        run.tuples += static_cast<std::uint64_t>(row.input_rate);
        run.answers += static_cast<std::uint64_t>(row.output_rate);
        run.seconds.push_back(std::move(row));
      }
      run.response_mean_s = seconds_of(whole.mean());
      run.response_p99_s = seconds_of(whole.percentile(0.99));
      std::vector<SecondSample> series;
      for (const RunSecond& row : run.seconds)
        series.push_back({row.input_rate, row.delay_s});
      run.breaking = breaking_point(series, spec.response_limit_s);
      log << " " << std::fixed << std::setprecision(1) << run.wall_s << " s, " << run.tuples
          << " tuples, mean response " << std::setprecision(3) << run.response_mean_s << " s, "
          << (run.breaking.broke ? "broke at " + std::to_string(run.breaking.second) + " s"
                                 : std::string("did not break"))
          << "\n";
      log.unsetf(std::ios::floatfield);
      result.runs.push_back(std::move(run));
    }
  }
  return result;
}

}  // namespace cwf::experiments
