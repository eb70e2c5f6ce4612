#include "linear_road/rating.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "actors/line_reader.hpp"
#include "linear_road/answer_sink_actor.hpp"
#include "linear_road/answer_writer.hpp"
#include "linear_road/input_parser.hpp"
#include "linear_road/reference.hpp"
#include "linear_road/response_times.hpp"
#include "linear_road/source_actor.hpp"
#include "linear_road/validation.hpp"
#include "runtime/execution/director_factory.hpp"
#include "runtime/loading/workflow_loader.hpp"

namespace cwf::lr {

namespace fs = std::filesystem;

namespace {

// Hands every answer to two sinks (the digest, and a file when answers are kept).
class TeeSink final : public AnswerSink {
 public:
  TeeSink(AnswerSink& first, AnswerSink* second) : first_(first), second_(second) {}
  void toll(const TollNotification& a) override {
    first_.toll(a);
    if (second_) second_->toll(a);
  }
  void alert(const AccidentAlert& a) override {
    first_.alert(a);
    if (second_) second_->alert(a);
  }
  void balance(const BalanceAnswer& a) override {
    first_.balance(a);
    if (second_) second_->balance(a);
  }
  void expenditure(const ExpenditureAnswer& a) override {
    first_.expenditure(a);
    if (second_) second_->expenditure(a);
  }

 private:
  AnswerSink& first_;
  AnswerSink* second_;
};

template <class T>
T* find_actor(Workflow& workflow, const std::string& type) {
  for (ActorId id = 0; id < workflow.size(); ++id)
    if (workflow.actor(id).type == type) return dynamic_cast<T*>(workflow.actor(id).actor.get());
  return nullptr;
}

std::string number(double value) {
  std::string text = std::to_string(value);
  return text;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

const RatingTrial* Rating::rated_trial() const {
  const RatingTrial* best = nullptr;
  for (const RatingTrial& t : trials)
    if (t.passed() && t.xways == rated) best = &t;
  return best;
}

Rater::Rater(RatingOptions options) : options_(std::move(options)) {
  if (!options_.actors || !options_.schedulers)
    throw std::invalid_argument("Rater needs the actor and scheduler registries");
  shape_ = scan_replica_shape(options_.input, options_.minutes * 60);
  if (shape_.empty()) throw std::runtime_error(options_.input + ": no valid record");
  if (!options_.tolls.empty()) {
    HistoricalTollTable::LoadResult loaded = history_.load(options_.tolls);
    if (!loaded.opened || !loaded.error.empty())
      throw std::runtime_error("cannot read historical tolls '" + options_.tolls +
                               "': " + loaded.error);
  }
}

RatingTrial Rater::trial(std::int32_t xways) {
  RatingTrial trial;
  trial.xways = xways;
  trial.compression = options_.compression;
  const bool keep = !options_.answers_dir.empty();
  fs::path dir;
  if (keep) {
    dir = fs::path(options_.answers_dir) / ("L" + std::to_string(xways));
    fs::create_directories(dir);
  }
  const std::string answers = keep ? (dir / "answers.out").string() : "/dev/null";
  auto absolute = [](const std::string& p) { return fs::absolute(p).lexically_normal().string(); };

  // The workflow.
  const std::string k = number(options_.compression);
  std::vector<ParamOverride> overrides = {
      {"input", "path", absolute(options_.input)},
      {"input", "compression", k},
      {"input", "xways", std::to_string(xways)},
      {"input", "replica_cars", std::to_string(shape_.cars)},
      {"input", "replica_xways", std::to_string(shape_.xways)},
      {"input", "replica_qids", std::to_string(shape_.qids)},
      {"input", "minutes", std::to_string(options_.minutes)},
      {"answers", "path", answers},
      {"answers", "compression", k},
      {"expenditures", "tolls", options_.tolls.empty() ? "" : absolute(options_.tolls)},
      {"expenditures", "xways", std::to_string(xways)},
      {"expenditures", "replica_cars", std::to_string(shape_.cars)},
      {"expenditures", "replica_xways", std::to_string(shape_.xways)}};
  overrides.insert(overrides.end(), options_.settings.begin(), options_.settings.end());
  auto workflow = load_workflow_file(
      options_.workflow, LoadContext{*options_.actors, *options_.schedulers}, overrides);
  DirectorConfig& config = workflow->director();
  if (!options_.director.empty()) config.type = options_.director;
  if (!options_.scheduler.empty()) {
    config.scheduler = options_.scheduler;
    config.type = "scheduled";
  }
  if (options_.workers > 0) config.workers = options_.workers;
  for (const auto& [name, value] : options_.scheduler_parameters)
    config.parameters[name] = value;
  if (options_.adapt_workers) config.adapt_workers = *options_.adapt_workers;
  auto director = make_director(config, *options_.schedulers);
  auto* source = find_actor<SourceActor>(*workflow, "lr_source");
  auto* sink = find_actor<AnswerSinkActor>(*workflow, "lr_answer_sink");
  if (!source || !sink)
    throw std::runtime_error(options_.workflow + ": needs an lr_source and an lr_answer_sink");
  ResponseTimes responses;
  AnswerDigest digest;
  // As fast as possible no response time is reported: reading the clock for every answer would
  // only slow the workflow down (7 % of its time on the shared dataset).
  if (options_.compression > 0) sink->record_response_times(&responses);
  sink->tap_answers(&digest);

  std::atomic<bool> stop{false};
  RunOptions run_options;
  run_options.stop_requested = &stop;
  run_options.progress_interval = std::min<Duration>(kSecond, options_.progress_interval);
  const auto started = std::chrono::steady_clock::now();
  double last_report = 0;
  std::uint64_t last_tuples = 0;
  auto on_progress = [&](const Execution&) {
    const double elapsed = seconds_since(started);
    if (options_.compression > 0 && options_.stop_when_late && digest.late() > 0 && !stop.load()) {
      trial.stopped_early = true;
      trial.stopped_at = source->progress_time();
      stop.store(true);
    }
    if (!options_.progress ||
        elapsed - last_report < static_cast<double>(options_.progress_interval) / kSecond)
      return;
    RatingProgress p;
    p.xways = xways;
    p.time = source->progress_time();
    p.tuples = source->progress_emitted();
    p.tuples_per_second =
        static_cast<double>(p.tuples - last_tuples) / std::max(1e-9, elapsed - last_report);
    std::size_t seconds = responses.seconds();
    if (seconds >= 2) {
      ResponseHistogram recent;
      for (const ResponseHistogram& h : responses.second(seconds - 2))
        recent.merge(h);
      p.p99 = trial.simulated(recent.percentile(0.99));
    }
    p.late = digest.late();
    p.elapsed = elapsed;
    last_report = elapsed;
    last_tuples = p.tuples;
    options_.progress(p);
  };
  RealClock clock;
  responses.restart();
  trial.summary = run_workflow(*workflow, *director, clock, run_options, on_progress);
  const Timestamp finished = clock.now();
  trial.director = trial.summary.director;
  trial.tuples = source->emitted();
  trial.source_errors = source->rejects().total() + source->out_of_order();
  if (source->first_fired() >= 0)
    trial.seconds = static_cast<double>(finished - source->first_fired()) / kSecond;
  trial.tuples_per_second =
      trial.seconds > 0 ? static_cast<double>(trial.tuples) / trial.seconds : 0;
  trial.responses = responses.total();
  for (std::size_t t = 0; t < 4; ++t) {
    trial.answers[t] = digest.types()[t].count;
    trial.late[t] = digest.types()[t].late;
  }
  if (trial.stopped_early) return trial;  // failed; a partial run has nothing to validate

  // The reference on the same replicated stream.
  AnswerDigest expected;
  AnswerWriter writer;
  if (keep && !writer.open((dir / kExpectedProductFile).string()))
    throw std::runtime_error(writer.error());
  TeeSink tee(expected, keep ? &writer : nullptr);
  history_.replicate(shape_.cars, shape_.xways, xways);
  {
    actors::LineReader reader;
    if (!reader.open(options_.input))
      throw std::runtime_error("cannot open '" + options_.input + "': " + std::strerror(errno));
    const auto reference_started = std::chrono::steady_clock::now();
    Reference reference(tee, history_);
    std::string_view line;
    InputRecord record;
    Seconds latest = 0;
    const Seconds until = options_.minutes * 60;
    std::uint64_t records = 0;
    while (reader.next(line)) {
      if (parse_input_line(line, record) != InputReject::none || record.time < latest) continue;
      if (until > 0 && record.time >= until) break;
      latest = record.time;
      for (std::int32_t copy = 0; copy < xways; ++copy)
        reference.process(replica(record, copy, shape_));
      records += static_cast<std::uint64_t>(xways);
    }
    trial.reference_seconds = seconds_since(reference_started);
    trial.reference_tuples_per_second =
        trial.reference_seconds > 0 ? static_cast<double>(records) / trial.reference_seconds : 0;
  }
  if (keep && !writer.close()) throw std::runtime_error(writer.error());
  for (std::size_t t = 0; t < 4; ++t)
    trial.expected[t] = expected.types()[t].count;
  trial.answers_match = digest.same_answers(expected);
  if (keep) {
    ValidationOptions validation;
    validation.expected_dir = dir.string();
    validation.actual_path = answers;
    trial.report = validate_answers(validation);
  }
  return trial;
}

Rating Rater::rate_list(const std::vector<std::int32_t>& xways) {
  Rating rating;
  rating.shape = shape_;
  for (std::int32_t l : xways) {
    rating.trials.push_back(trial(l));
    if (rating.trials.back().passed()) rating.rated = std::max(rating.rated, l);
  }
  return rating;
}

Rating Rater::search(std::int32_t max_xways) {
  Rating rating;
  rating.shape = shape_;
  auto run = [&](std::int32_t l) {
    rating.trials.push_back(trial(l));
    bool passed = rating.trials.back().passed();
    if (passed) rating.rated = std::max(rating.rated, l);
    return passed;
  };
  std::int32_t good = 0, bad = 0;
  for (std::int32_t l = 1;; l = std::min(max_xways, l * 2)) {
    if (run(l)) {
      good = l;
      if (l >= max_xways) return rating;
    } else {
      bad = l;
      break;
    }
  }
  while (bad - good > 1) {
    std::int32_t mid = good + (bad - good) / 2;
    if (run(mid))
      good = mid;
    else
      bad = mid;
  }
  return rating;
}

}  // namespace cwf::lr
