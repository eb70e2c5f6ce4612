#include "actors/gsm/bstep_engine.hpp"

#include "runtime/expressions/expr_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/snapshot/trivial_array_snapshot.hpp"

namespace cwf::gsm {

bool fits(DataType type, const Value& value) {
  if (value.is_null()) return true;
  switch (type) {
    case DataType::string:
      return value.is_string();
    case DataType::integer:
      return value.is_int();
    case DataType::real:
      return value.is_number();
    case DataType::boolean:
      return value.is_bool();
    case DataType::any:
      return true;
  }
  return false;
}

BStepEngine::BStepEngine(std::shared_ptr<const CompiledModel> model, Plan plan)
    : compiled_(std::move(model)),
      plan_(plan),
      words_(compiled_->status_words()),
      data_count_(compiled_->model().data.size()),
      changed_(words_, 0) {}

InstanceId BStepEngine::add_instance() {
  auto id = static_cast<InstanceId>(latest_.size());
  latest_.push_back(-1);
  status_.resize(status_.size() + words_, 0);
  data_.resize(data_.size() + data_count_);
  return id;
}

void BStepEngine::save(SnapshotWriter& out) const {
  out.write_u64(words_);
  out.write_u64(data_count_);
  write_trivial_array(out, std::span<const std::int32_t>(latest_));
  write_trivial_array(out, std::span<const std::uint64_t>(status_));
  for (const Value& value : data_)
    out.write_value(value);
  out.write_u64(steps_);
  out.write_u64(rules_evaluated_);
  out.write_u64(condition_errors_);
  out.write_string(last_condition_error_);
}

void BStepEngine::restore(SnapshotReader& in) {
  if (in.read_u64("the status words per instance") != words_)
    in.reject("the status words per instance", "the model has another number of status attributes");
  if (in.read_u64("the data attributes") != data_count_)
    in.reject("the data attributes", "the model has another number of data attributes");
  latest_ = read_trivial_array<std::int32_t>(in, "each instance's latest event");
  const auto events = static_cast<std::int32_t>(model().events.size());
  for (std::int32_t latest : latest_)
    if (latest < -1 || latest >= events)
      in.reject("each instance's latest event", "one is not an event of the model");
  status_ = read_trivial_array<std::uint64_t>(in, "the status attributes");
  if (status_.size() != latest_.size() * words_)
    in.reject("the status attributes", "they are not as many words as the instances need");
  // Each value takes at least a byte: a count beyond what is left is damage, not a reason to
  // reserve memory for it.
  if (latest_.size() * data_count_ > in.remaining())
    in.reject("the data attributes' values", "fewer bytes are left than the instances need");
  data_.clear();
  data_.reserve(latest_.size() * data_count_);
  for (std::size_t i = 0; i < latest_.size() * data_count_; ++i) {
    data_.push_back(in.read_value("a data attribute's value"));
    if (!fits(model().data[i % data_count_].type, data_.back()))
      in.reject("a data attribute's value", "it is not of the attribute's type");
  }
  steps_ = in.read_u64("the B-steps");
  rules_evaluated_ = in.read_u64("the rules evaluated");
  condition_errors_ = in.read_u64("the condition errors");
  last_condition_error_ = in.read_string("the last condition error");
  record_valid_ = false;
}

void BStepEngine::reserve(std::size_t instances) {
  latest_.reserve(instances);
  status_.reserve(instances * words_);
  data_.reserve(instances * data_count_);
}

std::vector<bool> BStepEngine::snapshot(InstanceId instance) const {
  std::vector<bool> bits(model().status_count());
  for (std::size_t a = 0; a < bits.size(); ++a)
    bits[a] = status(instance, static_cast<int>(a));
  return bits;
}

namespace {

inline bool bit(const std::uint64_t* words, int attribute) {
  return (words[attribute / 64] >> (attribute % 64)) & 1;
}

}  // namespace

bool BStepEngine::condition_holds(const CompiledCondition& condition, const std::uint64_t* current,
                                  InstanceId instance) {
  if (!record_valid_) {
    std::vector<Value> slots(
        data_.begin() + static_cast<std::ptrdiff_t>(instance * data_count_),
        data_.begin() + static_cast<std::ptrdiff_t>((instance + 1) * data_count_));
    const int latest = latest_[instance];
    slots.push_back(latest < 0 ? Value()
                               : Value(model().events[static_cast<std::size_t>(latest)].name));
    record_ = Value::record(compiled_->data_schema(), std::move(slots));
    record_valid_ = true;
  }
  variables_.resize(condition.variables.size());
  for (std::size_t v = 0; v < condition.variables.size(); ++v)
    variables_[v] = Value(bit(current, condition.variables[v]));
  try {
    return condition.expression.matches(record_, Variables(variables_));
  } catch (const ExprError& e) {
    ++condition_errors_;
    last_condition_error_ = condition.expression.source() + ": " + e.what();
    return false;
  }
}

void BStepEngine::step(InstanceId instance, int event, std::span<const DataUpdate> data,
                       std::vector<Generated>& generated) {
  ++steps_;
  for (const DataUpdate& update : data)
    data_[instance * data_count_ + static_cast<std::size_t>(update.first)] = update.second;
  latest_[instance] = event;
  record_valid_ = false;

  std::uint64_t* current = &status_[instance * words_];
  std::uint64_t* changed = changed_.data();
  std::fill(changed_.begin(), changed_.end(), 0);
  const auto& checks = compiled_->checks();
  const WordMask* masks = compiled_->masks().data();
  const auto& plan = plan_ == Plan::reachable ? compiled_->plan(event) : compiled_->full_plan();
  rules_evaluated_ += plan.size();
  for (std::uint32_t r : plan) {
    const RuleCheck& rule = checks[r];
    if (bit(changed, rule.consequent)) continue;  // toggle-once
    // The prerequisite reads the snapshot before the step: undo this step's toggles.
    if ((bit(current, rule.prerequisite) != bit(changed, rule.prerequisite)) !=
        rule.prerequisite_value)
      continue;
    switch (rule.trigger) {
      case Trigger::Kind::none:
        break;
      case Trigger::Kind::external:
        if (rule.trigger_event != event) continue;
        break;
      case Trigger::Kind::status:
        if (!bit(changed, rule.trigger_attribute) ||
            bit(current, rule.trigger_attribute) != rule.trigger_value)
          continue;
        break;
    }
    bool holds = true;
    for (std::uint32_t m = rule.masks_begin; m < rule.masks_begin + rule.masks_count; ++m) {
      const std::uint64_t word = current[masks[m].word];
      if ((word & masks[m].ones) != masks[m].ones || (word & masks[m].zeros) != 0) {
        holds = false;
        break;
      }
    }
    if (!holds) continue;
    if (rule.condition >= 0 &&
        !condition_holds(compiled_->conditions()[static_cast<std::size_t>(rule.condition)], current,
                         instance))
      continue;
    if (bit(current, rule.consequent) == rule.consequent_value) continue;
    const std::uint64_t mask = std::uint64_t{1} << (rule.consequent % 64);
    current[rule.consequent / 64] ^= mask;
    changed[rule.consequent / 64] |= mask;
    generated.push_back({Generated::Kind::status, rule.consequent, rule.consequent_value});
    if (rule.consequent_value && model().is_stage(rule.consequent) &&
        model().stages[static_cast<std::size_t>(rule.consequent)].atomic())
      generated.push_back({Generated::Kind::invoke, rule.consequent, true});
  }
}

}  // namespace cwf::gsm
