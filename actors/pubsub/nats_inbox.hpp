// Where nats_subscribe's messages wait between the thread that receives them (cnats' delivery
// thread for a plain subscription, the fetch thread of a JetStream consumer) and the source's
// firings: decoded there, handed over through a lock-free queue, the source woken
// (ExternalWake) when it waits for input.
#pragma once

#include <nats/nats.h>

#include <concurrentqueue.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "runtime/actor/external_wake.hpp"
#include "runtime/values/value.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::pubsub {

struct NatsMessageDeleter {
  void operator()(natsMsg* message) const { natsMsg_Destroy(message); }
};
using NatsMessage = std::unique_ptr<natsMsg, NatsMessageDeleter>;

struct NatsInbox {
  struct Item {
    Value record;
    std::string error;  // set for a message that is not a JSON object
    // JetStream only: the message's sequence in its stream, and the message itself, kept for
    // acknowledging it (with AckAll, acknowledging one acknowledges every earlier one).
    std::uint64_t stream_sequence = 0;
    NatsMessage message;
  };
  moodycamel::ConcurrentQueue<Item> queue;
  // Wakes the source, which waits for its input instead of polling (set before subscribing).
  ExternalWake waker;
  JsonParser parser;  // used by the one receiving thread
  std::string replica_answer;
  std::atomic<std::uint64_t> received{0}, claimed{0};
  // A NATS subject cannot be slowed down: beyond `max_pending` messages waiting to be emitted,
  // new ones are dropped (counted in `shed`) instead of filling memory. A JetStream consumer is
  // slowed down instead: it fetches no more while that many wait.
  std::size_t max_pending = 65536;
  std::atomic<std::uint64_t> shed{0};

  // The receiving thread hands an item over and wakes the source.
  void push(Item item) {
    queue.enqueue(std::move(item));
    waker.wake();
  }

  // The record a message holds, or why it holds none; counts it as received.
  Item decode(natsMsg* message) {
    Item item;
    std::string_view data(natsMsg_GetData(message),
                          static_cast<std::size_t>(natsMsg_GetDataLength(message)));
    try {
      item.record = parser.parse(data);
      if (!item.record.is_record())
        item.error = "expected a JSON object, got " + std::string(kind_name(item.record.kind()));
    } catch (const JsonError& e) {
      item.error = std::string("invalid JSON at ") + e.what();
    }
    if (!item.error.empty())
      item.error = "message on '" + std::string(natsMsg_GetSubject(message)) + "': " + item.error;
    received.fetch_add(1, std::memory_order_relaxed);
    return item;
  }
};

}  // namespace cwf::pubsub
