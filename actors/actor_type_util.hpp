// Helpers shared by the actor type definitions: defaults for parameters not given, compiling
// expression parameters into ParamErrors, and the parameter values with a small fixed vocabulary.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

using ActorFactory = std::function<std::unique_ptr<Actor>(const Params&)>;

// An ActorType whose factory sees every declared parameter: those not given get their default
// (a null default means "optional, not set"), and a missing required one is a ParamError.
// `ports` are those the actor class declares (its kPorts).
ActorType make_type(std::string name, std::string doc, std::vector<ParamSpec> params,
                    ActorPorts ports, ActorFactory factory);

// The given parameters completed with the defaults of `specs`.
Params with_defaults(const Params& given, const std::vector<ParamSpec>& specs);

// Whether an optional parameter (null default) was given.
inline bool is_set(const Params& params, std::string_view name) {
  return params.has(name) && !params.get(name).is_null();
}

// Compiles the expression parameter `name`; a syntax error becomes a ParamError on it.
Expression compile_param(const Params& params, std::string_view name,
                         const ExprEnvironment& env = {});

// `time_unit`: s | ms | us | ns, as nanoseconds per unit.
Duration parse_time_unit(const Params& params, std::string_view name);

// A duration that may be negative ("-5 min", "10 min", "0"; a bare number is seconds), as a
// string parameter: bounds relative to another event's time.
Duration parse_signed_duration(const Params& params, std::string_view name);

// `pace`: fast (0) | real (1) | <k>x (k > 0), as a speed-up factor; 0 means no pacing.
double parse_pace(const Params& params, std::string_view name);

// A separator parameter: one character; "\t" or "tab" for a tab.
char parse_separator(const Params& params, std::string_view name);

// Converts a value read by a time expression to nanoseconds: numbers are counted in `unit`;
// strings are ISO-8601 date-times ("2024-05-01T12:00:00.250Z", offsets allowed) or numbers.
// Returns false with `error` set otherwise.
bool to_timestamp(const Value& value, Duration unit, Timestamp& out, std::string& error);

// A timestamp as an ISO-8601 date-time in UTC, with as many fraction digits as it needs:
// "2023-11-14T22:13:00Z", "2024-05-01T12:00:00.25Z". to_timestamp reads it back exactly.
std::string format_iso8601(Timestamp time);

}  // namespace cwf::actors
