// The token a client presents to a server of the product (`cwf serve`, the network actors that
// listen beyond loopback): read from an `Authorization: Bearer ...` header, whose scheme name is
// case-insensitive (RFC 9110 §11.1), and compared in a time that does not depend on where the
// two differ.
#pragma once

#include <optional>
#include <string_view>

namespace cwf::net {

// The token of an Authorization header value ("Bearer abc", "bearer  abc"); nullopt for another
// scheme or none.
std::optional<std::string_view> bearer_token(std::string_view authorization);

// Whether `given` is `secret`, in a time that depends only on their lengths.
bool same_secret(std::string_view given, std::string_view secret);

}  // namespace cwf::net
