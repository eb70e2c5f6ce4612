// Splits one comma-separated line of integers, the shape of every Linear Road file (input,
// answers, the validators' tables). No allocation: the fields land in a caller's array.
#pragma once

#include <cstdint>
#include <string_view>

namespace cwf::lr {

// Parses up to `capacity` fields of `line` into `fields`. Returns the number of fields, or -1
// when a field is not an integer or there are more than `capacity` fields. Spaces around a
// field are tolerated (hand-written files), nothing else.
int split_integers(std::string_view line, std::int64_t* fields, int capacity);

}  // namespace cwf::lr
