#include "actors/pubsub/broker.hpp"

#include <algorithm>

namespace cwf::pubsub {

namespace {

void erase_id(std::vector<MatchingIndex::Id>& ids, MatchingIndex::Id id) {
  auto at = std::find(ids.begin(), ids.end(), id);
  if (at != ids.end()) ids.erase(at);
}

}  // namespace

Broker::Broker(int neighbours)
    : forwarded_(static_cast<std::size_t>(std::max(neighbours, 0))),
      hop_marks_(forwarded_.size()) {}

bool Broker::subscribe(const ClientKey& key, Filter filter, BrokerOutput& out) {
  return add_subscription(key, std::move(filter), kLocal, out);
}

bool Broker::unsubscribe(const ClientKey& key, BrokerOutput& out) {
  return remove_subscription(key, kLocal, out);
}

bool Broker::advertise(const ClientKey& key, Filter filter, BrokerOutput& out) {
  return add_advertisement(key, std::move(filter), kLocal, out);
}

bool Broker::unadvertise(const ClientKey& key, BrokerOutput& out) {
  return remove_advertisement(key, kLocal, out);
}

bool Broker::publish(const Value& publication, BrokerOutput& out) {
  bool promised = false;
  for (const auto& [key, ad] : advertisements_)
    if (ad.hop == kLocal && ad.filter.matches(publication)) {
      promised = true;
      break;
    }
  if (!promised) return false;
  route(publication, kLocal, out);
  return true;
}

bool Broker::receive(Hop from, const BrokerMessage& message, BrokerOutput& out) {
  if (from < 0 || from >= neighbours()) return false;
  switch (message.kind) {
    case BrokerMessage::Kind::subscribe:
      return add_subscription(message.key, message.filter, from, out);
    case BrokerMessage::Kind::unsubscribe:
      return remove_subscription(message.key, from, out);
    case BrokerMessage::Kind::advertise:
      return add_advertisement(message.key, message.filter, from, out);
    case BrokerMessage::Kind::unadvertise:
      return remove_advertisement(message.key, from, out);
    case BrokerMessage::Kind::publish:
      route(message.publication, from, out);
      return true;
  }
  return false;
}

std::vector<std::string> Broker::local_matches(const Value& publication) const {
  matched_.clear();
  index_.match(publication, matched_);
  std::sort(matched_.begin(), matched_.end());
  std::vector<std::string> subscribers;
  for (Id id : matched_) {
    const Subscription& s = subscriptions_.at(id);
    if (s.hop == kLocal &&
        std::find(subscribers.begin(), subscribers.end(), s.key.client) == subscribers.end())
      subscribers.push_back(s.key.client);
  }
  return subscribers;
}

bool Broker::attracted(const Filter& filter, Hop neighbour) const {
  for (const auto& [key, ad] : advertisements_)
    if (ad.hop == neighbour && ad.filter.overlaps(filter)) return true;
  return false;
}

bool Broker::covered_at(const Filter& filter, Hop neighbour, std::optional<Id> except) const {
  for (Id id : forwarded_[neighbour])
    if (id != except && filter_of(id).covers(filter)) return true;
  return false;
}

void Broker::send_subscription(Id id, Hop neighbour, BrokerOutput& out) {
  Subscription& s = subscriptions_.at(id);
  s.sent[neighbour] = true;
  forwarded_[neighbour].push_back(id);
  out.forwards.push_back(
      {neighbour, {BrokerMessage::Kind::subscribe, s.key, filter_of(id), Value()}});
}

void Broker::send_needed(std::vector<Id> candidates, Hop neighbour, BrokerOutput& out) {
  // Broadest first: a candidate no other candidate covers goes in the first round. That takes
  // a comparison per pair; past a few hundred candidates, fewer predicates first stands in for it
  // (whatever the order, every candidate sent or covered is correct; the order only prunes).
  constexpr std::size_t kPairwiseLimit = 256;
  std::vector<Id> first, second;
  if (candidates.size() > kPairwiseLimit) {
    std::stable_sort(candidates.begin(), candidates.end(), [&](Id a, Id b) {
      return filter_of(a).predicates().size() < filter_of(b).predicates().size();
    });
    first = std::move(candidates);
  } else {
    for (Id c : candidates) {
      bool covered = false;
      for (Id other : candidates)
        if (other != c && filter_of(other).covers(filter_of(c))) {
          covered = true;
          break;
        }
      (covered ? second : first).push_back(c);
    }
  }
  for (const auto* round : {&first, &second})
    for (Id c : *round)
      if (!covered_at(filter_of(c), neighbour, std::nullopt)) send_subscription(c, neighbour, out);
}

bool Broker::add_subscription(const ClientKey& key, Filter filter, Hop hop, BrokerOutput& out) {
  if (auto known = subscription_ids_.find(key); known != subscription_ids_.end()) {
    if (subscriptions_.at(known->second).hop != hop) return false;
    remove_subscription(key, hop, out);
  }
  Id id = next_id_++;
  index_.add(id, std::move(filter));
  Subscription& added =
      subscriptions_.emplace(id, Subscription{key, hop, std::vector<bool>(forwarded_.size())})
          .first->second;
  if (hop == kLocal) {
    added.client = &local_clients_[key.client];
    ++added.client->subscriptions;
  }
  subscription_ids_.emplace(key, id);
  const Filter& f = filter_of(id);
  for (Hop n = 0; n < neighbours(); ++n)
    if (n != hop && attracted(f, n) && !covered_at(f, n, std::nullopt))
      send_subscription(id, n, out);
  return true;
}

bool Broker::remove_subscription(const ClientKey& key, Hop hop, BrokerOutput& out) {
  auto known = subscription_ids_.find(key);
  if (known == subscription_ids_.end()) return false;
  Id id = known->second;
  Subscription removed = subscriptions_.at(id);
  if (removed.hop != hop) return false;
  Filter filter = filter_of(id);
  if (removed.client && --removed.client->subscriptions == 0) local_clients_.erase(key.client);
  index_.remove(id);
  subscriptions_.erase(id);
  subscription_ids_.erase(known);
  for (Hop n = 0; n < neighbours(); ++n) {
    if (!removed.sent[n]) continue;
    erase_id(forwarded_[n], id);
    // The subscriptions it was covering toward n go first, so that no publication meanwhile
    // finds no route.
    send_needed(subscriptions_where([&](Id other, const Subscription& s) {
                  return s.hop != n && !s.sent[n] && filter.covers(filter_of(other)) &&
                         attracted(filter_of(other), n);
                }),
                n, out);
    out.forwards.push_back({n, {BrokerMessage::Kind::unsubscribe, key, Filter(), Value()}});
  }
  return true;
}

bool Broker::add_advertisement(const ClientKey& key, Filter filter, Hop hop, BrokerOutput& out) {
  if (auto known = advertisements_.find(key); known != advertisements_.end()) {
    if (known->second.hop != hop) return false;
    remove_advertisement(key, hop, out);
  }
  const Filter& f =
      advertisements_.emplace(key, Advertisement{std::move(filter), hop}).first->second.filter;
  for (Hop n = 0; n < neighbours(); ++n)
    if (n != hop) out.forwards.push_back({n, {BrokerMessage::Kind::advertise, key, f, Value()}});
  if (hop != kLocal) {
    send_needed(subscriptions_where([&](Id id, const Subscription& s) {
                  return s.hop != hop && !s.sent[hop] && filter_of(id).overlaps(f);
                }),
                hop, out);
  }
  return true;
}

bool Broker::remove_advertisement(const ClientKey& key, Hop hop, BrokerOutput& out) {
  auto known = advertisements_.find(key);
  if (known == advertisements_.end() || known->second.hop != hop) return false;
  advertisements_.erase(known);
  for (Hop n = 0; n < neighbours(); ++n)
    if (n != hop)
      out.forwards.push_back({n, {BrokerMessage::Kind::unadvertise, key, Filter(), Value()}});
  if (hop != kLocal) {
    // Subscriptions no advertisement behind `hop` attracts any more are withdrawn there. Those
    // they covered are inside them, so are not attracted either: nothing to send instead.
    std::vector<Id> sent = forwarded_[hop];
    for (Id id : sent)
      if (!attracted(filter_of(id), hop)) {
        Subscription& s = subscriptions_.at(id);
        s.sent[hop] = false;
        erase_id(forwarded_[hop], id);
        out.forwards.push_back({hop, {BrokerMessage::Kind::unsubscribe, s.key, Filter(), Value()}});
      }
  }
  return true;
}

void Broker::route(const Value& publication, Hop from, BrokerOutput& out) {
  matched_.clear();
  index_.match(publication, matched_);
  // In subscription order, so that deliveries come out the same way every run.
  std::sort(matched_.begin(), matched_.end());
  std::fill(hop_marks_.begin(), hop_marks_.end(), false);
  std::uint64_t route = ++routes_;
  for (Id id : matched_) {
    const Subscription& s = subscriptions_.at(id);
    if (s.hop == kLocal) {
      if (s.client->last_route != route) {
        s.client->last_route = route;
        out.deliveries.push_back({s.key.client, publication});
      }
    } else if (s.hop != from && !hop_marks_[s.hop]) {
      hop_marks_[s.hop] = true;
      out.forwards.push_back({s.hop, {BrokerMessage::Kind::publish, {}, Filter(), publication}});
    }
  }
}

}  // namespace cwf::pubsub
