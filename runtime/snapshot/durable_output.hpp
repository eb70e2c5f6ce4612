// What an output file needs from checkpoints, on its descriptor: at a checkpoint what was written
// is made durable, and a resumed run cuts the file back to the size the checkpoint recorded (the
// output past it came from events the resumed run processes again). The writers that buffer
// output (actors::BufferedWriter, lr::AnswerWriter) flush their buffer first and keep the size.
#pragma once

#include <cstdint>
#include <string>

namespace cwf {

// fdatasync; "" on success or for a descriptor with nothing to make durable (a pipe, a
// terminal), else the reason.
std::string make_durable(int fd);

// Cuts the file on `fd`, opened to append and holding `size` bytes, back to `bytes`; "" on
// success, else the reason (also when it holds fewer bytes than the checkpoint wrote).
std::string cut_back(int fd, std::uint64_t size, std::uint64_t bytes);

}  // namespace cwf
