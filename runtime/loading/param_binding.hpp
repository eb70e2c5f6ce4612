// From the keys written under an actor in a workflow file to a constructed actor: each key is
// checked against the type's ParamSpecs and converted to the declared type, defaults are filled
// in, and the factory is called with errors mapped back to the file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/loading/actor_registry.hpp"
#include "runtime/loading/yaml_value.hpp"

namespace cwf {

// Throws LoadError for an unknown parameter (with a did-you-mean), a value of the wrong type
// ("expected int for 'count', got 'abc'") and a missing required parameter.
Params bind_params(const ActorType& type, const std::string& actor_name,
                   const SourceLocation& actor_location, const std::vector<YamlEntry>& entries,
                   const std::string& file, std::string base_dir);

// Calls the type's factory. A ParamError is reported at its parameter's location, any other
// exception at the actor's.
std::unique_ptr<Actor> make_actor(const ActorType& type, const std::string& actor_name,
                                  const SourceLocation& actor_location, const Params& params);

}  // namespace cwf
