#include "actors/gsm/wfu_network.hpp"

#include <charconv>
#include <stdexcept>

#include "actors/gsm/wfu_rule_unit.hpp"
#include "actors/gsm/wfu_state_units.hpp"

namespace cwf::gsm {

namespace {

std::string client_name(int unit) {
  return "u" + std::to_string(unit);
}

int unit_of(const std::string& client) {
  int unit = -1;
  std::from_chars(client.data() + 1, client.data() + client.size(), unit);
  return unit;
}

}  // namespace

WfuNetwork::WfuNetwork(std::shared_ptr<const WfuPlan> plan, unsigned seed)
    : plan_(std::move(plan)), source_(plan_), random_schedule_(seed != 0), random_(seed) {
  const auto& specs = plan_->units();
  units_.resize(specs.size());
  for (std::size_t index = 0; index < specs.size(); ++index) {
    const int unit = static_cast<int>(index);
    if (specs[index].kind != WfuKind::source) units_[index] = make_wfu_unit(plan_, unit);
    if (specs[index].kind == WfuKind::sink)
      sinks_.push_back(static_cast<WfuSink*>(units_[index].get()));
    const std::string name = client_name(unit);
    for (std::size_t i = 0; i < specs[index].advertisements.size(); ++i)
      broker_.advertise({name, std::to_string(i)}, specs[index].advertisements[i], out_);
    for (std::size_t i = 0; i < specs[index].subscriptions.size(); ++i)
      broker_.subscribe({name, std::to_string(i)}, specs[index].subscriptions[i], out_);
  }
  out_.clear();
  if (random_schedule_) {  // the FIFO schedule needs no links
    links_.resize(specs.size() * specs.size());
    active_position_.assign(links_.size(), -1);
  }
}

std::int64_t WfuNetwork::submit(std::int64_t instance, int event,
                                std::span<const DataUpdate> data) {
  scratch_.clear();
  const std::int64_t t = source_.submit(instance, event, data, scratch_);
  for (const Value& publication : scratch_)
    publish(plan_->source(), publication);
  return t;
}

void WfuNetwork::publish(int sender, const Value& publication) {
  ++publications_;
  out_.clear();
  if (!broker_.publish(publication, out_))
    throw std::logic_error("a workflow unit published what it did not advertise: " +
                           publication.to_json());
  const std::size_t units = units_.size();
  for (pubsub::Delivery& delivery : out_.deliveries) {
    const int receiver = unit_of(delivery.subscriber);
    ++in_flight_;
    if (!random_schedule_) {
      fifo_.emplace_back(receiver, std::move(delivery.publication));
      continue;
    }
    const std::size_t link =
        static_cast<std::size_t>(sender) * units + static_cast<std::size_t>(receiver);
    links_[link].push_back(std::move(delivery.publication));
    if (active_position_[link] < 0) {
      active_position_[link] = static_cast<int>(active_.size());
      active_.push_back(static_cast<int>(link));
    }
  }
}

bool WfuNetwork::deliver_one() {
  if (in_flight_ == 0) return false;
  int receiver = 0;
  Value publication;
  if (!random_schedule_) {
    receiver = fifo_.front().first;
    publication = std::move(fifo_.front().second);
    fifo_.pop_front();
  } else {
    std::uniform_int_distribution<std::size_t> pick(0, active_.size() - 1);
    const std::size_t position = pick(random_);
    const auto link = static_cast<std::size_t>(active_[position]);
    publication = std::move(links_[link].front());
    links_[link].pop_front();
    receiver = static_cast<int>(link % units_.size());
    if (links_[link].empty()) {
      const int last = active_.back();
      active_[position] = last;
      active_position_[static_cast<std::size_t>(last)] = static_cast<int>(position);
      active_.pop_back();
      active_position_[link] = -1;
    }
  }
  --in_flight_;
  ++deliveries_;
  // The unit's publications are buffered: receive() may not re-enter the network. The buffer is
  // the one submit() uses (publish() touches neither), so a delivery allocates nothing.
  scratch_.clear();
  units_[static_cast<std::size_t>(receiver)]->receive(publication, scratch_);
  for (const Value& p : scratch_)
    publish(receiver, p);
  return true;
}

std::vector<StepCompletion> WfuNetwork::take_completions() {
  return gsm::take_completions(sinks_);
}

std::size_t WfuNetwork::pending_rows() const {
  std::size_t rows = 0;
  for (const auto& unit : units_)
    if (unit) rows += unit->pending();
  return rows;
}

std::uint64_t WfuNetwork::double_toggles() const {
  std::uint64_t count = 0;
  for (const auto& unit : units_)
    if (auto* gateway = dynamic_cast<const WfuStatusGateway*>(unit.get()))
      count += gateway->double_toggles();
  return count;
}

std::uint64_t WfuNetwork::condition_errors() const {
  std::uint64_t count = 0;
  for (const auto& unit : units_)
    if (auto* rule = dynamic_cast<const WfuRuleUnit*>(unit.get()))
      count += rule->condition_errors();
  return count;
}

std::uint64_t WfuNetwork::completed() const {
  std::uint64_t count = 0;
  for (const WfuSink* sink : sinks_)
    count += sink->completed();
  return count;
}

}  // namespace cwf::gsm
