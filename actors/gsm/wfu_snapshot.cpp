// Checkpoints of the workflow units: each unit's per-instance state and the source's logical
// time and version vectors. Instances are written in instance order, so that equal units write
// equal bytes whatever their hash maps' order.
#include "actors/gsm/wfu_rule_unit.hpp"
#include "actors/gsm/wfu_sink.hpp"
#include "actors/gsm/wfu_source.hpp"
#include "actors/gsm/wfu_state_units.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/snapshot/sorted_keys.hpp"

namespace cwf::gsm {

namespace {

int read_index(SnapshotReader& in, std::size_t bound, std::string_view what) {
  std::int64_t index = in.read_i64(what);
  if (index < -1 || index >= static_cast<std::int64_t>(bound))
    in.reject(what, std::to_string(index) + " is out of range (this model has " +
                        std::to_string(bound) + ")");
  return static_cast<int>(index);
}

std::size_t event_count(const WfuPlan& plan) {
  return plan.compiled().model().events.size();
}

// The rows of an instance not yet visited, and the step visited last: `write_row` and
// `read_row` write and read what a row holds besides its step, event and previous step.
template <class Row, class WriteRow>
void write_rows(SnapshotWriter& out, const WfuStepRows<Row>& steps, WriteRow&& write_row) {
  out.write_i64(steps.last_visited);
  out.write_u64(steps.rows.size());
  for (const auto& [t, row] : steps.rows) {
    out.write_i64(t);
    out.write_i64(row.event);
    out.write_i64(row.previous);
    write_row(row);
  }
}

template <class Row, class ReadRow>
void read_rows(SnapshotReader& in, const WfuPlan& plan, WfuStepRows<Row>& steps,
               ReadRow&& read_row) {
  steps.last_visited = in.read_i64("the step visited last");
  steps.rows.clear();
  for (std::size_t n = in.read_count("the steps not yet visited"); n > 0; --n) {
    std::int64_t t = in.read_i64("a step's time");
    Row& row = steps.rows[t];
    row.event = read_index(in, event_count(plan), "a step's event type");
    row.previous = in.read_i64("a step's previous step");
    read_row(row);
  }
}

}  // namespace

void WfuStatusGateway::save(SnapshotWriter& out) const {
  out.write_u64(double_toggles_);
  out.write_u64(instances_.size());
  for (std::int64_t x : sorted_keys(instances_)) {
    const Instance& state = instances_.at(x);
    out.write_i64(x);
    out.write_bool(state.value);
    write_rows(out, state, [&](const Row& row) {
      out.write_i64(row.received);
      out.write_i64(row.toggles);
    });
  }
}

void WfuStatusGateway::restore(SnapshotReader& in) {
  double_toggles_ = in.read_u64("the double toggles counted");
  instances_.clear();
  for (std::size_t n = in.read_count("the instances"); n > 0; --n) {
    Instance& state = instances_[in.read_i64("an instance")];
    state.value = in.read_bool("a status value");
    read_rows(in, *plan_, state, [&](Row& row) {
      row.received = static_cast<int>(in.read_i64("the inputs a step received"));
      row.toggles = static_cast<int>(in.read_i64("the toggles of a step"));
    });
  }
}

void WfuDataUnit::save(SnapshotWriter& out) const {
  out.write_u64(instances_.size());
  for (std::int64_t x : sorted_keys(instances_)) {
    const Instance& state = instances_.at(x);
    out.write_i64(x);
    out.write_value(state.value);
    write_rows(out, state, [&](const Row& row) { out.write_value(row.carried); });
  }
}

void WfuDataUnit::restore(SnapshotReader& in) {
  instances_.clear();
  for (std::size_t n = in.read_count("the instances"); n > 0; --n) {
    Instance& state = instances_[in.read_i64("an instance")];
    state.value = in.read_value("a data value");
    read_rows(in, *plan_, state,
              [&](Row& row) { row.carried = in.read_value("the value a step carries"); });
  }
}

void WfuRuleUnit::save(SnapshotWriter& out) const {
  out.write_u64(condition_errors_);
  out.write_u64(spec_.reads_values.size());
  out.write_u64(spec_.reads_toggles.size());
  out.write_u64(instances_.size());
  for (std::int64_t x : sorted_keys(instances_)) {
    const Instance& state = instances_.at(x);
    out.write_i64(x);
    for (const auto& versions : state.values) {
      out.write_u64(versions.size());
      for (const auto& [version, value] : versions) {
        out.write_i64(version);
        out.write_value(value);
      }
    }
    for (const auto& steps : state.toggles) {
      out.write_u64(steps.size());
      for (const auto& [step, toggled] : steps) {
        out.write_i64(step);
        out.write_bool(toggled);
      }
    }
    write_rows(out, state, [&](const Row& row) { out.write_value(row.versions); });
  }
}

void WfuRuleUnit::restore(SnapshotReader& in) {
  condition_errors_ = in.read_u64("the condition errors counted");
  // Numbers, not counts of items that follow (read_count wants that many bytes left).
  std::uint64_t values = in.read_u64("the values a rule unit reads");
  std::uint64_t toggles = in.read_u64("the toggles a rule unit reads");
  if (values != spec_.reads_values.size() || toggles != spec_.reads_toggles.size())
    in.reject("a rule unit", "it read " + std::to_string(values) + " values and " +
                                 std::to_string(toggles) + " toggles, this one reads " +
                                 std::to_string(spec_.reads_values.size()) + " and " +
                                 std::to_string(spec_.reads_toggles.size()));
  instances_.clear();
  for (std::size_t n = in.read_count("the instances"); n > 0; --n) {
    Instance& state = instance(in.read_i64("an instance"));
    for (auto& versions : state.values)
      for (std::size_t v = in.read_count("the versions of a value"); v > 0; --v) {
        std::int64_t version = in.read_i64("a version");
        versions[version] = in.read_value("a value read");
      }
    for (auto& steps : state.toggles)
      for (std::size_t s = in.read_count("the toggles of a step"); s > 0; --s) {
        std::int64_t step = in.read_i64("a step");
        steps[step] = in.read_bool("whether a unit toggled");
      }
    read_rows(in, *plan_, state,
              [&](Row& row) { row.versions = in.read_value("a step's version vector"); });
  }
}

void WfuSink::save(SnapshotWriter& out) const {
  out.write_u64(completed_);
  out.write_u64(rows_.size());
  for (const auto& [key, row] : rows_) {
    out.write_i64(key.first);
    out.write_i64(key.second);
    out.write_i64(row.visited);
    const StepCompletion& c = row.completion;
    out.write_i64(c.event);
    out.write_i64(c.time);
    out.write_i64(c.instance);
    out.write_u64(c.values.size());
    for (const auto& [unit, value] : c.values) {
      out.write_i64(unit);
      out.write_value(value);
    }
  }
}

void WfuSink::restore(SnapshotReader& in) {
  completed_ = in.read_u64("the steps completed");
  rows_.clear();
  completions_.clear();
  for (std::size_t n = in.read_count("the steps being completed"); n > 0; --n) {
    std::int64_t x = in.read_i64("a step's instance");
    std::int64_t t = in.read_i64("a step's time");
    Row& row = rows_[{x, t}];
    row.visited = static_cast<int>(in.read_i64("the units that visited a step"));
    StepCompletion& c = row.completion;
    c.event = read_index(in, event_count(*plan_), "a step's event type");
    c.time = in.read_i64("a step's time");
    c.instance = in.read_i64("a step's instance");
    for (std::size_t v = in.read_count("the values of a step"); v > 0; --v) {
      int unit = read_index(in, plan_->units().size(), "a unit");
      c.values.emplace_back(unit, in.read_value("a unit's value after a step"));
    }
  }
}

void WfuSource::save(SnapshotWriter& out) const {
  out.write_i64(clock_);
  out.write_u64(plan_->units().size());
  out.write_u64(versions_.size());
  for (std::int64_t x : sorted_keys(versions_)) {
    out.write_i64(x);
    const std::vector<std::int64_t>& versions = versions_.at(x);
    out.write_u64(versions.size());
    for (std::int64_t version : versions)
      out.write_i64(version);
  }
}

void WfuSource::restore(SnapshotReader& in) {
  clock_ = in.read_i64("the logical time");
  // A number, not a count of items that follow (read_count wants that many bytes left).
  if (std::uint64_t units = in.read_u64("the units"); units != plan_->units().size())
    in.reject("the workflow units", "there were " + std::to_string(units) + ", this model has " +
                                        std::to_string(plan_->units().size()));
  versions_.clear();
  for (std::size_t n = in.read_count("the instances"); n > 0; --n) {
    std::vector<std::int64_t>& versions = versions_[in.read_i64("an instance")];
    versions.resize(in.read_count("an instance's versions"));
    if (versions.size() != plan_->units().size())
      in.reject("an instance's versions", "one per unit is expected");
    for (std::int64_t& version : versions)
      version = in.read_i64("a version");
  }
}

}  // namespace cwf::gsm
