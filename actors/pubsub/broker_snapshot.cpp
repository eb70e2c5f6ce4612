#include <limits>

#include "actors/pubsub/broker.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/snapshot/sorted_keys.hpp"

namespace cwf::pubsub {

namespace {

void write_key(SnapshotWriter& out, const ClientKey& key) {
  out.write_string(key.client);
  out.write_string(key.id);
}

ClientKey read_key(SnapshotReader& in) {
  ClientKey key;
  key.client = in.read_string("a client's name");
  key.id = in.read_string("a subscription's or advertisement's id");
  return key;
}

Filter read_filter(SnapshotReader& in) {
  Value spec = in.read_value("a filter");
  try {
    return Filter::parse(spec);
  } catch (const FilterError& e) {
    in.reject("a filter", e.what());
  }
}

}  // namespace

void Broker::save(SnapshotWriter& out) const {
  out.write_u64(forwarded_.size());
  out.write_u64(next_id_);
  out.write_u64(routes_);
  const std::vector<Id> ids = sorted_keys(subscriptions_);
  out.write_u64(ids.size());
  for (Id id : ids) {
    const Subscription& s = subscriptions_.at(id);
    out.write_u64(id);
    write_key(out, s.key);
    out.write_i64(s.hop);
    out.write_value(filter_of(id).to_value());
    for (bool sent : s.sent)
      out.write_bool(sent);
  }
  out.write_u64(advertisements_.size());
  for (const auto& [key, advertisement] : advertisements_) {
    write_key(out, key);
    out.write_i64(advertisement.hop);
    out.write_value(advertisement.filter.to_value());
  }
  for (const std::vector<Id>& sent : forwarded_) {
    out.write_u64(sent.size());
    for (Id id : sent)
      out.write_u64(id);
  }
}

void Broker::restore(SnapshotReader& in) {
  std::size_t neighbours = in.read_count("the broker's neighbours");
  if (neighbours != forwarded_.size())
    in.reject("a broker", "it had " + std::to_string(neighbours) + " neighbours, this one has " +
                              std::to_string(forwarded_.size()));
  *this = Broker(static_cast<int>(neighbours));
  auto read_hop = [&](std::string_view what) {
    std::int64_t hop = in.read_i64(what);
    if (hop < kLocal || hop >= static_cast<std::int64_t>(neighbours))
      in.reject(what, "hop " + std::to_string(hop) + " is neither local nor a neighbour");
    return static_cast<Hop>(hop);
  };
  auto read_id = [&](std::string_view what) {
    std::uint64_t id = in.read_u64(what);
    if (id > std::numeric_limits<Id>::max())
      in.reject(what, "id " + std::to_string(id) + " is out of range");
    return static_cast<Id>(id);
  };
  next_id_ = read_id("the next subscription id");
  routes_ = in.read_u64("the publications routed");
  for (std::size_t n = in.read_count("the subscriptions"); n > 0; --n) {
    Id id = read_id("a subscription's id");
    Subscription s;
    s.key = read_key(in);
    s.hop = read_hop("a subscription's hop");
    Filter filter = read_filter(in);
    s.sent.resize(neighbours);
    for (std::size_t k = 0; k < neighbours; ++k)
      s.sent[k] = in.read_bool("whether a subscription was sent to a neighbour");
    if (id >= next_id_ || subscriptions_.count(id) || subscription_ids_.count(s.key))
      in.reject("a subscription", "id " + std::to_string(id) + " (" + s.key.client + ", '" +
                                      s.key.id + "') is used twice or not given out yet");
    if (s.hop == kLocal) {
      // Deliveries are told apart by route number: a client restored with 0 has had none of
      // the routes to come.
      s.client = &local_clients_[s.key.client];
      ++s.client->subscriptions;
    }
    index_.add(id, std::move(filter));
    subscription_ids_.emplace(s.key, id);
    subscriptions_.emplace(id, std::move(s));
  }
  for (std::size_t n = in.read_count("the advertisements"); n > 0; --n) {
    ClientKey key = read_key(in);
    Advertisement advertisement;
    advertisement.hop = read_hop("an advertisement's hop");
    advertisement.filter = read_filter(in);
    advertisements_.insert_or_assign(std::move(key), std::move(advertisement));
  }
  for (std::vector<Id>& sent : forwarded_)
    for (std::size_t n = in.read_count("the subscriptions sent to a neighbour"); n > 0; --n) {
      Id id = read_id("a subscription sent to a neighbour");
      if (!subscriptions_.count(id))
        in.reject("a broker", "it sent subscription " + std::to_string(id) +
                                  ", which it does not hold, to a neighbour");
      sent.push_back(id);
    }
}

}  // namespace cwf::pubsub
