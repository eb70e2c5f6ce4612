#include "actors/gsm/wfu_nats_site.hpp"

#include <charconv>
#include <stdexcept>

#include "actors/gsm/wfu_messages.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::gsm {

struct WfuNatsSite::Inbox {
  std::mutex mutex;
  std::deque<std::string> messages;  // JSON, parsed on the site's thread
};

namespace {

using InboxRef = std::shared_ptr<WfuNatsSite::Inbox>;
const char* const kRemote = "remote";

void on_message(natsConnection*, natsSubscription*, natsMsg* message, void* closure) {
  WfuNatsSite::Inbox& inbox = **static_cast<InboxRef*>(closure);
  std::string data(natsMsg_GetData(message),
                   static_cast<std::size_t>(natsMsg_GetDataLength(message)));
  natsMsg_Destroy(message);
  std::lock_guard lock(inbox.mutex);
  inbox.messages.push_back(std::move(data));
}

void on_complete(void* closure) {
  delete static_cast<InboxRef*>(closure);
}

// A message as JSON gives a record whose fields may come in another order: rebuild it with the
// message schema, which the units read by slot.
Value as_message(const Value& parsed) {
  const Schema* schema = wfu::message_schema();
  std::vector<Value> slots(schema->size());
  for (std::size_t i = 0; i < schema->size(); ++i)
    if (const Value* v = parsed.field(schema->fields()[i])) slots[i] = *v;
  return Value::record(schema, std::move(slots));
}

}  // namespace

WfuNatsSite::WfuNatsSite(std::shared_ptr<const WfuPlan> plan, std::vector<int> local,
                         const pubsub::NatsConnectionOptions& options, const std::string& prefix,
                         const std::string& site, const std::string& peer)
    : plan_(std::move(plan)),
      connection_(options),
      inbox_(std::make_shared<Inbox>()),
      peer_subject_(prefix + "." + peer) {
  const auto& specs = plan_->units();
  local_.assign(specs.size(), false);
  for (int unit : local)
    local_.at(static_cast<std::size_t>(unit)) = true;
  units_.resize(specs.size());
  for (std::size_t index = 0; index < specs.size(); ++index) {
    const int unit = static_cast<int>(index);
    const bool here = local_[index];
    if (here && specs[index].kind == WfuKind::source) source_ = std::make_unique<WfuSource>(plan_);
    if (here && specs[index].kind != WfuKind::source) units_[index] = make_wfu_unit(plan_, unit);
    if (here && specs[index].kind == WfuKind::sink)
      sinks_.push_back(static_cast<WfuSink*>(units_[index].get()));
    // Local units are clients "<index>"; remote ones are all the one client "remote".
    const std::string client = here ? std::to_string(unit) : kRemote;
    const std::string id = here ? "" : std::to_string(unit) + ".";
    for (std::size_t i = 0; i < specs[index].advertisements.size(); ++i)
      broker_.advertise({client, id + std::to_string(i)}, specs[index].advertisements[i], out_);
    for (std::size_t i = 0; i < specs[index].subscriptions.size(); ++i)
      broker_.subscribe({client, id + std::to_string(i)}, specs[index].subscriptions[i], out_);
  }
  out_.clear();
  const std::string subject = prefix + "." + site;
  auto* closure = new InboxRef(inbox_);
  natsStatus status = natsConnection_Subscribe(&subscription_, connection_.get(), subject.c_str(),
                                               on_message, closure);
  if (status != NATS_OK) {
    delete closure;
    throw pubsub::NatsError("cannot subscribe to '" + subject + "'", status);
  }
  natsSubscription_SetOnCompleteCB(subscription_, &on_complete, closure);
  natsSubscription_SetPendingLimits(subscription_, -1, -1);
}

WfuNatsSite::~WfuNatsSite() {
  if (subscription_ != nullptr) {
    natsSubscription_Unsubscribe(subscription_);
    natsSubscription_Destroy(subscription_);
  }
}

bool WfuNatsSite::flush() {
  std::string error;
  return connection_.flush(5 * kSecond, error);
}

std::int64_t WfuNatsSite::submit(std::int64_t instance, int event,
                                 std::span<const DataUpdate> data) {
  if (!source_) throw std::logic_error("this site has no source");
  std::vector<Value> published;
  const std::int64_t t = source_->submit(instance, event, data, published);
  for (const Value& p : published)
    publish(p, false);
  return t;
}

void WfuNatsSite::publish(const Value& publication, bool from_peer) {
  out_.clear();
  if (!broker_.publish(publication, out_))
    throw std::logic_error("a publication no unit advertised: " + publication.to_json());
  for (pubsub::Delivery& delivery : out_.deliveries) {
    if (delivery.subscriber == kRemote) {
      if (from_peer) continue;  // the peer's own units have had it
      payload_.clear();
      publication.append_json(payload_);
      natsStatus status =
          natsConnection_Publish(connection_.get(), peer_subject_.c_str(), payload_.data(),
                                 static_cast<int>(payload_.size()));
      if (status != NATS_OK)
        throw pubsub::NatsError("cannot publish to '" + peer_subject_ + "'", status);
      ++sent_;
      continue;
    }
    int unit = -1;
    std::from_chars(delivery.subscriber.data(),
                    delivery.subscriber.data() + delivery.subscriber.size(), unit);
    deliveries_.emplace_back(unit, std::move(delivery.publication));
  }
}

std::size_t WfuNatsSite::pump() {
  std::deque<std::string> arrived;
  {
    std::lock_guard lock(inbox_->mutex);
    arrived.swap(inbox_->messages);
  }
  for (const std::string& json : arrived) {
    ++received_;
    publish(as_message(parse_json(json)), true);
  }
  std::size_t delivered = 0;
  std::vector<Value> published;
  while (!deliveries_.empty()) {
    auto [unit, publication] = std::move(deliveries_.front());
    deliveries_.pop_front();
    ++delivered;
    published.clear();
    units_[static_cast<std::size_t>(unit)]->receive(publication, published);
    for (const Value& p : published)
      publish(p, false);
  }
  return delivered;
}

std::vector<StepCompletion> WfuNatsSite::take_completions() {
  return gsm::take_completions(sinks_);
}

}  // namespace cwf::gsm
