#include "runtime/loading/param_overrides.hpp"

#include <stdexcept>

namespace cwf {

ParamOverride parse_param_override(std::string_view text) {
  auto fail = [&](const char* why) {
    throw std::invalid_argument("--set expects ACTOR.PARAM=VALUE (got '" + std::string(text) +
                                "'): " + why);
  };
  std::size_t equals = text.find('=');
  if (equals == std::string_view::npos) fail("no '='");
  std::string_view target = text.substr(0, equals);
  std::size_t dot = target.find('.');
  if (dot == std::string_view::npos) fail("no '.' between actor and parameter");
  ParamOverride result{std::string(target.substr(0, dot)), std::string(target.substr(dot + 1)),
                       std::string(text.substr(equals + 1))};
  if (result.actor.empty()) fail("no actor name");
  if (result.param.empty()) fail("no parameter name");
  return result;
}

std::optional<ParamOverride::WindowField> ParamOverride::window_field() const {
  constexpr std::string_view kWindow = ".window.";
  std::size_t at = param.find(kWindow);
  if (at == std::string::npos || at == 0) return std::nullopt;
  return WindowField{param.substr(0, at), param.substr(at + kWindow.size())};
}

}  // namespace cwf
