#include "actors/output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "runtime/snapshot/durable_output.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

void BufferedWriter::open(const std::string& path, Mode mode) {
  close();
  stream_ = std::fopen(path.c_str(), mode == Mode::append ? "ab" : "wb");
  if (!stream_) throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
  std::setvbuf(stream_, nullptr, _IONBF, 0);  // our buffer is the buffer
  base_size_ = 0;
  if (mode == Mode::append) {
    struct stat status {};
    if (::fstat(::fileno(stream_), &status) == 0)
      base_size_ = static_cast<std::uint64_t>(status.st_size);
  }
  size_ = base_size_;
  owned_ = true;
  error_.clear();
  behind_ = std::make_unique<WriteBehind>(::fileno(stream_));
  buffer_.reserve(kCapacity + 4096);
}

void BufferedWriter::attach(std::FILE* stream) {
  close();
  stream_ = stream;
  owned_ = false;
  error_.clear();
  base_size_ = size_ = 0;
  std::fflush(stream_);  // what was written to it before goes first
  behind_ = std::make_unique<WriteBehind>(::fileno(stream_), /*shared=*/true);
  buffer_.reserve(kCapacity + 4096);
}

void BufferedWriter::collect() {
  if (!behind_) return;
  WriteBehind::Outcome outcome = behind_->take_outcome();
  size_ = base_size_ + outcome.bytes_written;
  lost_ += outcome.events_lost;
  if (error_.empty() && !outcome.error.empty()) error_ = std::move(outcome.error);
}

bool BufferedWriter::flush() {
  if (!behind_) {
    buffer_.clear();
    if (!error_.empty()) lost_ += std::exchange(pending_, 0);
    return error_.empty();
  }
  behind_->hand_over(buffer_, std::exchange(pending_, 0));
  if (buffer_.capacity() < kCapacity) buffer_.reserve(kCapacity + 4096);
  collect();
  return error_.empty();
}

bool BufferedWriter::write_now() {
  flush();
  if (behind_) {
    behind_->drain();
    collect();
  }
  return error_.empty();
}

bool BufferedWriter::sync() {
  write_now();
  if (owned_ && stream_ && error_.empty()) error_ = make_durable(::fileno(stream_));
  return error_.empty();
}

bool BufferedWriter::truncate_to(std::uint64_t bytes) {
  if (!owned_ || !stream_) return true;
  write_now();  // nothing should be written yet; if it is, it is cut back too
  if (!error_.empty()) return false;
  error_ = cut_back(::fileno(stream_), size_, bytes);
  if (!error_.empty()) return false;
  base_size_ -= size_ - bytes;
  size_ = bytes;
  return true;
}

void save_output(BufferedWriter& writer, SnapshotWriter& out, std::string_view output) {
  if (!writer.sync())
    throw std::runtime_error(std::string(output) +
                             ": cannot make the output durable for the "
                             "checkpoint: " +
                             writer.error());
  out.write_u64(writer.size());
}

void restore_output(BufferedWriter& writer, SnapshotReader& in, std::string_view output) {
  std::uint64_t size = in.read_u64("the output's size");
  if (!writer.truncate_to(size))
    throw std::runtime_error(std::string(output) +
                             ": cannot go back to the output of the checkpoint: " + writer.error());
}

void report_write_losses(ActorContext& context, BufferedWriter& writer, std::string_view output) {
  if (std::uint64_t lost = writer.take_lost())
    context.report_loss(lost, std::string(output) + ": write error: " + writer.error());
}

bool BufferedWriter::close() {
  if (!stream_) return error_.empty();
  write_now();
  behind_.reset();
  if (owned_ && std::fclose(stream_) != 0 && error_.empty()) error_ = std::strerror(errno);
  stream_ = nullptr;
  owned_ = false;
  return error_.empty();
}

void append_double(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += non_finite_word(value);
    return;
  }
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  std::string_view text(buf, static_cast<std::size_t>(end - buf));
  out += text;
  if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
}

namespace {

void append_int(std::string& out, std::int64_t value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, static_cast<std::size_t>(end - buf));
}

void append_quoted(std::string& out, std::string_view text, char separator) {
  bool needs_quotes = false;
  for (char c : text)
    if (c == separator || c == '"' || c == '\n' || c == '\r') {
      needs_quotes = true;
      break;
    }
  if (!needs_quotes) {
    out += text;
    return;
  }
  out.push_back('"');
  for (char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

}  // namespace

void append_csv_field(std::string& out, const Value& value, char separator) {
  switch (value.kind()) {
    case Kind::null:
      return;
    case Kind::boolean:
      out += value.as_bool() ? "true" : "false";
      return;
    case Kind::integer:
      append_int(out, value.as_int());
      return;
    case Kind::real:
      append_double(out, value.as_double());
      return;
    case Kind::string:
      append_quoted(out, value.as_string(), separator);
      return;
    case Kind::array:
    case Kind::record: {
      std::string json;
      value.append_json(json);
      append_quoted(out, json, separator);
      return;
    }
  }
}

void append_text(std::string& out, const Value& value) {
  if (value.is_string())
    out += value.as_string();
  else if (value.is_double() && !std::isfinite(value.as_double()))
    out += non_finite_word(value.as_double());
  else
    value.append_json(out);
}

}  // namespace cwf::actors
