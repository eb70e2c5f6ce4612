// A content-based publish/subscribe broker, as plain C++ (the `broker` actor drives one; so can
// any other code). Alone it matches publications against its subscriptions; with neighbours it is
// one node of an acyclic overlay of brokers that routes as in Siena/PADRES (thesis ch. 6):
//
// - Advertisements (what a publisher may publish) are flooded to every broker and kept in the
//   subscription routing table (SRT) with the hop they came from.
// - A subscription is kept in the publication routing table (PRT) with the hop it came from, and
//   forwarded to each other neighbour behind which an overlapping advertisement lies, unless a
//   subscription already forwarded to that neighbour covers it. A later advertisement attracts
//   the subscriptions that overlap it.
// - A publication is matched against the PRT (MatchingIndex) and sent once to each hop with a
//   matching entry, never back to the hop it came from; local subscribers receive it once each.
// - Unsubscribing sends the subscriptions the removed one was covering before withdrawing it, so
//   no publication is lost meanwhile; unadvertising withdraws subscriptions no longer attracted.
//
// A publication is accepted only when it matches an advertisement made at the broker where it is
// published (the publisher promised it): routing relies on it. Over FIFO links each subscriber
// receives, once the routing state has settled, exactly the publications that match its
// subscriptions, once each, in each publisher's order.
//
// Subscriptions are named (subscriber, id), advertisements (publisher, id); a subscriber name
// belongs to one broker of the overlay.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "actors/pubsub/filter.hpp"
#include "actors/pubsub/matching_index.hpp"

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::pubsub {

// A subscription's or advertisement's name: its client (subscriber or publisher) and an id that
// tells one client's subscriptions apart.
struct ClientKey {
  std::string client;
  std::string id;
  friend auto operator<=>(const ClientKey&, const ClientKey&) = default;
};

// What brokers send each other.
struct BrokerMessage {
  enum class Kind { subscribe, unsubscribe, advertise, unadvertise, publish };
  Kind kind = Kind::publish;
  ClientKey key;      // all but publish
  Filter filter;      // subscribe, advertise
  Value publication;  // publish
};

// Where something came from or goes to: a neighbour broker (0, 1, ...) or a local client.
using Hop = int;
inline constexpr Hop kLocal = -1;

struct Delivery {
  std::string subscriber;
  Value publication;
};

struct Forward {
  Hop neighbour;
  BrokerMessage message;
};

// What handling one operation produced, in the order it must be sent.
struct BrokerOutput {
  std::vector<Delivery> deliveries;
  std::vector<Forward> forwards;
  void clear() {
    deliveries.clear();
    forwards.clear();
  }
};

class Broker {
 public:
  explicit Broker(int neighbours = 0);

  int neighbours() const { return static_cast<int>(forwarded_.size()); }

  // ---- local clients ----
  // Subscribing again under the same key replaces the filter. False (nothing changes) when the
  // key is a subscription that arrived from a neighbour: the subscriber belongs to another broker.
  bool subscribe(const ClientKey& key, Filter filter, BrokerOutput& out);
  // False when there is no such local subscription.
  bool unsubscribe(const ClientKey& key, BrokerOutput& out);
  bool advertise(const ClientKey& key, Filter filter, BrokerOutput& out);
  bool unadvertise(const ClientKey& key, BrokerOutput& out);
  // False (nothing delivered or sent) when no advertisement made at this broker matches it.
  bool publish(const Value& publication, BrokerOutput& out);

  // ---- the overlay ----
  // A message from neighbour `from`. False when it makes no sense here (an unsubscription of
  // an unknown subscription...); nothing changes then.
  bool receive(Hop from, const BrokerMessage& message, BrokerOutput& out);

  // ---- checkpoints (broker_snapshot.cpp) ----
  // The routing state whole: subscriptions with their ids (ids order deliveries and the
  // subscriptions sent on), hops and where each was forwarded, advertisements, what was sent to
  // each neighbour in order. A restored broker routes every later operation as this one would.
  void save(SnapshotWriter& out) const;
  // Replaces this broker's state. Throws SnapshotError for a state of another overlay (another
  // number of neighbours), a hop out of range, a filter that does not read or an id used twice.
  void restore(SnapshotReader& in);

  // ---- routing state, for tests and statistics ----
  std::size_t subscriptions() const { return subscriptions_.size(); }    // PRT entries
  std::size_t advertisements() const { return advertisements_.size(); }  // SRT entries
  // Subscriptions this broker has sent to `neighbour` and not withdrawn.
  std::size_t forwarded_to(Hop neighbour) const { return forwarded_[neighbour].size(); }
  // The local subscribers whose filters match (each once), without routing anything.
  std::vector<std::string> local_matches(const Value& publication) const;

 private:
  // A local subscriber: the last publication it was given, so that several matching
  // subscriptions give one delivery without comparing names.
  struct LocalClient {
    std::uint64_t last_route = 0;
    std::size_t subscriptions = 0;
  };
  struct Subscription {
    ClientKey key;
    Hop hop;
    std::vector<bool> sent;         // per neighbour: forwarded there
    LocalClient* client = nullptr;  // local subscriptions only
  };
  struct Advertisement {
    Filter filter;
    Hop hop;
  };
  using Id = MatchingIndex::Id;

  bool add_subscription(const ClientKey& key, Filter filter, Hop hop, BrokerOutput& out);
  bool remove_subscription(const ClientKey& key, Hop hop, BrokerOutput& out);
  bool add_advertisement(const ClientKey& key, Filter filter, Hop hop, BrokerOutput& out);
  bool remove_advertisement(const ClientKey& key, Hop hop, BrokerOutput& out);
  void route(const Value& publication, Hop from, BrokerOutput& out);

  const Filter& filter_of(Id id) const { return index_.filter(id); }
  // An advertisement behind `neighbour` overlaps `filter`.
  bool attracted(const Filter& filter, Hop neighbour) const;
  // A subscription other than `except` already sent to `neighbour` covers `filter`.
  bool covered_at(const Filter& filter, Hop neighbour, std::optional<Id> except) const;
  void send_subscription(Id id, Hop neighbour, BrokerOutput& out);
  // The subscriptions for which `wanted` holds, in the order they were made.
  template <typename Predicate>
  std::vector<Id> subscriptions_where(Predicate wanted) const {
    std::vector<Id> ids;
    for (const auto& [id, s] : subscriptions_)
      if (wanted(id, s)) ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    return ids;
  }
  // Sends to `neighbour` those of `candidates` it needs and has not got (broadest first, so
  // that covering prunes the others).
  void send_needed(std::vector<Id> candidates, Hop neighbour, BrokerOutput& out);

  MatchingIndex index_;
  std::unordered_map<Id, Subscription> subscriptions_;
  std::unordered_map<std::string, LocalClient> local_clients_;
  std::uint64_t routes_ = 0;
  std::map<ClientKey, Id> subscription_ids_;
  std::map<ClientKey, Advertisement> advertisements_;
  std::vector<std::vector<Id>> forwarded_;  // per neighbour, in the order sent
  Id next_id_ = 0;
  mutable std::vector<Id> matched_;  // scratch
  std::vector<bool> hop_marks_;      // scratch, per neighbour
};

}  // namespace cwf::pubsub
