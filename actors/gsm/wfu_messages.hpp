// The publications workflow units exchange (wfu_mapping.hpp): records of one schema, told apart
// by `m`, so that units subscribe with filters on the message type, the publishing unit and the
// event type. Every message names its step ρ = (e, t, x): event type index, logical time, instance.
//
//   event   source -> rule units    {m, e, t, x, ver}  ver[u]: the last step of x before t in
//                                                        which unit u took part (0: none)
//   datum   source -> S_d           {m, u = S_d, e, t, x, v, p}  v: [new value] (a one-element
//                                                        array, since null is a value), or null
//                                                        when the event leaves d; p = ver[S_d]
//   toggle  S±s -> S_s, readers     {m, u, e, t, x, v, p}  v: whether s toggled; p = ver[S_s]
//   value   S_s, S_d -> readers     {m, u, e, t, x, v}   the attribute's value at step t
//   visited any unit -> sink(s)     {m, u, e, t, x, v}   gateways and data units add their value
#pragma once

#include <cstdint>
#include <string_view>

#include "actors/pubsub/filter.hpp"
#include "runtime/values/value.hpp"

namespace cwf::gsm::wfu {

inline constexpr std::string_view kEvent = "event";
inline constexpr std::string_view kDatum = "datum";
inline constexpr std::string_view kToggle = "toggle";
inline constexpr std::string_view kValue = "value";
inline constexpr std::string_view kVisited = "visited";

// Slots of the message schema.
enum Field : std::uint8_t { m, u, e, t, x, v, p, ver, kFields };

const Schema* message_schema();

// unit / event -1: absent. versions: event messages only, an array of ints, one per unit.
Value make_message(std::string_view kind, int unit, int event, std::int64_t time,
                   std::int64_t instance, const Value& value = Value(), std::int64_t previous = 0,
                   const Value& versions = Value());
// The fields of a record made by make_message (no copy of the value or the versions array).
std::string_view kind_of(const Value& message);
std::int64_t int_field(const Value& message, Field field);
const Value& field(const Value& message, Field field);

// [[m, =, kind]] and optionally [u, =, unit] / [e, =, event].
pubsub::Filter message_filter(std::string_view kind, int unit = -1, int event = -1);

}  // namespace cwf::gsm::wfu
