// Building the spatial actors straight from their types' factories in tests (the actor library's
// test registry does not hold them), and the load error a factory raises.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "runtime/loading/actor_registry.hpp"

namespace cwf::spatial::testing {

inline std::unique_ptr<Actor> build(const ActorType& type, std::map<std::string, Value> values) {
  return type.factory(Params(std::move(values), {}, ""));
}

// "param: message" of the ParamError the factory raises, or "" when it builds the actor.
inline std::string param_error(const ActorType& type, std::map<std::string, Value> values) {
  try {
    build(type, std::move(values));
  } catch (const ParamError& e) {
    return e.param() + ": " + e.what();
  }
  return "";
}

}  // namespace cwf::spatial::testing
