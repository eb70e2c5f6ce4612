#include "runtime/snapshot/checkpoint_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "runtime/snapshot/checksum.hpp"

namespace cwf {

namespace {

constexpr std::uint8_t kMagic[8] = {'C', 'W', 'F', 'C', 'K', 'P', 'T', 0};
// Temporary files are named "<final name>.tmp-<pid>-<n>": beside the final file (a rename within
// one file system is atomic), unique per process and write.
constexpr std::string_view kTemporaryMarker = ".tmp-";

void put_le(std::vector<std::uint8_t>& out, std::size_t at, std::uint64_t value,
            std::size_t width) {
  for (std::size_t i = 0; i < width; ++i)
    out[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

std::uint64_t get_le(std::span<const std::uint8_t> bytes, std::size_t at, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i)
    value |= std::uint64_t{bytes[at + i]} << (8 * i);
  return value;
}

[[noreturn]] void refuse(CheckpointProblem problem, std::string_view source,
                         const std::string& detail) {
  throw CheckpointFileError(problem, source, detail);
}

[[noreturn]] void system_failure(CheckpointProblem problem, const std::filesystem::path& path,
                                 const char* action, int error) {
  refuse(problem, path.string(), std::string(action) + ": " + std::strerror(error));
}

// Closes a descriptor on every way out.
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
  int release() {
    const int out = fd;
    fd = -1;
    return out;
  }
};

void write_all(int fd, std::span<const std::uint8_t> bytes, const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      system_failure(CheckpointProblem::unwritable, path, "write", errno);
    }
    done += static_cast<std::size_t>(n);
  }
}

std::filesystem::path temporary_path_for(const std::filesystem::path& path) {
  static std::atomic<std::uint64_t> counter{0};
  return path.parent_path() /
         (path.filename().string() + std::string(kTemporaryMarker) + std::to_string(::getpid()) +
          "-" + std::to_string(counter.fetch_add(1, std::memory_order_relaxed)));
}

void sync_folder(const std::filesystem::path& folder, const std::filesystem::path& path) {
  FileDescriptor dir{
      ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (dir.fd < 0) system_failure(CheckpointProblem::unwritable, path, "open its folder", errno);
  if (::fsync(dir.fd) != 0)
    system_failure(CheckpointProblem::unwritable, path, "flush its folder", errno);
}

}  // namespace

CheckpointFileError::CheckpointFileError(CheckpointProblem problem, std::string_view source,
                                         std::string detail)
    : SnapshotError("checkpoint file " + std::string(source) + ": " +
                    std::string(problem_name(problem)) + " (" + detail + ")"),
      problem_(problem),
      detail_(std::move(detail)) {}

std::string_view problem_name(CheckpointProblem problem) noexcept {
  switch (problem) {
    case CheckpointProblem::unreadable:
      return "unreadable";
    case CheckpointProblem::unwritable:
      return "unwritable";
    case CheckpointProblem::not_a_checkpoint:
      return "not a checkpoint file";
    case CheckpointProblem::incompatible_version:
      return "incompatible version";
    case CheckpointProblem::truncated:
      return "truncated";
    case CheckpointProblem::trailing_bytes:
      return "trailing bytes";
    case CheckpointProblem::checksum_mismatch:
      return "checksum mismatch";
  }
  return "unknown problem";
}

std::vector<std::uint8_t> encode_checkpoint(std::span<const std::uint8_t> payload) {
  std::vector<std::uint8_t> file(kCheckpointHeaderBytes + payload.size());
  std::copy(std::begin(kMagic), std::end(kMagic), file.begin());
  put_le(file, 8, kCheckpointFormatVersion, 4);
  put_le(file, 12, payload.size(), 8);
  put_le(file, 20, crc32_of(payload), 4);
  std::copy(payload.begin(), payload.end(), file.begin() + kCheckpointHeaderBytes);
  return file;
}

std::span<const std::uint8_t> verify_checkpoint(std::span<const std::uint8_t> file,
                                                std::string_view source) {
  const std::size_t magic_bytes = std::min(file.size(), sizeof kMagic);
  if (magic_bytes > 0 && std::memcmp(file.data(), kMagic, magic_bytes) != 0)
    refuse(CheckpointProblem::not_a_checkpoint, source, "it does not start with CWFCKPT");
  if (file.size() < kCheckpointHeaderBytes)
    refuse(CheckpointProblem::truncated, source,
           std::to_string(file.size()) + " bytes, shorter than the " +
               std::to_string(kCheckpointHeaderBytes) + "-byte header");
  const auto version = static_cast<std::uint32_t>(get_le(file, 8, 4));
  if (version != kCheckpointFormatVersion)
    refuse(CheckpointProblem::incompatible_version, source,
           "written in format version " + std::to_string(version) + ", this build reads version " +
               std::to_string(kCheckpointFormatVersion));
  const std::uint64_t length = get_le(file, 12, 8);
  const std::size_t present = file.size() - kCheckpointHeaderBytes;
  if (length > present)
    refuse(CheckpointProblem::truncated, source,
           "the header says " + std::to_string(length) + " payload bytes, the file holds " +
               std::to_string(present));
  if (length < present)
    refuse(CheckpointProblem::trailing_bytes, source,
           "the header says " + std::to_string(length) + " payload bytes, the file holds " +
               std::to_string(present));
  const std::span<const std::uint8_t> payload = file.subspan(kCheckpointHeaderBytes);
  const auto expected = static_cast<std::uint32_t>(get_le(file, 20, 4));
  const std::uint32_t actual = crc32_of(payload);
  if (actual != expected) {
    char detail[96];
    std::snprintf(detail, sizeof detail, "CRC-32 of the payload is %08x, the header says %08x",
                  actual, expected);
    refuse(CheckpointProblem::checksum_mismatch, source, detail);
  }
  return payload;
}

void write_checkpoint_file(const std::filesystem::path& path,
                           std::span<const std::uint8_t> payload) {
  const std::vector<std::uint8_t> file = encode_checkpoint(payload);
  const std::filesystem::path temporary = temporary_path_for(path);
  FileDescriptor out{::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)};
  if (out.fd < 0)
    system_failure(CheckpointProblem::unwritable, path, "create a temporary file", errno);
  try {
    write_all(out.fd, file, path);
    if (::fsync(out.fd) != 0) system_failure(CheckpointProblem::unwritable, path, "flush", errno);
    if (::close(out.release()) != 0)
      system_failure(CheckpointProblem::unwritable, path, "close", errno);
    if (::rename(temporary.c_str(), path.c_str()) != 0)
      system_failure(CheckpointProblem::unwritable, path, "rename the temporary file", errno);
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  sync_folder(path.parent_path(), path);
}

std::vector<std::uint8_t> read_checkpoint_file(const std::filesystem::path& path) {
  FileDescriptor in{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0) system_failure(CheckpointProblem::unreadable, path, "open", errno);
  std::vector<std::uint8_t> file;
  // Read to the end rather than trusting the size reported before: the file is what is read.
  std::uint8_t buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(in.fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      system_failure(CheckpointProblem::unreadable, path, "read", errno);
    }
    if (n == 0) break;
    file.insert(file.end(), buffer, buffer + n);
  }
  const std::span<const std::uint8_t> payload = verify_checkpoint(file, path.string());
  return {payload.begin(), payload.end()};
}

bool is_checkpoint_temporary(std::string_view file_name) noexcept {
  return file_name.find(kTemporaryMarker) != std::string_view::npos;
}

}  // namespace cwf
