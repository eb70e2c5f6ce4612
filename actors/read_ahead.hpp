// Reads a file on a thread of its own, ahead of the actor that takes its lines, so that a firing
// never waits for a disk, a pipe or decompression: the thread reads (and decompresses) into a few
// fixed-size chunks, hands them over, and wakes the actor (ExternalWake); the actor takes what
// has come and otherwise waits for the wake (FiringContext::await_input). Read-ahead is bounded:
// the thread stops reading while `chunks` chunks wait to be taken.
//
// Followed (tail -f), the thread does what the end of a growing file needs: it looks again every
// `poll`, and notices a file truncated (read again from its start) or replaced at its path (a
// rotated log: the new file is opened and read from its start, when it is a regular file); each
// is handed over as a piece of its own, between the bytes before and after it.
//
// A pipe or FIFO is read only once it is readable, so that stopping never waits for its writer.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/actor/external_wake.hpp"
#include "runtime/time/clock.hpp"

namespace cwf::actors {

class XzDecoder;

// A followed file at its end, open on `fd` (plain, `offset` bytes read from it): when it was
// truncated (shorter than that) the descriptor goes back to its start; when another file is at
// `path` now (a log rotated) and it is a regular one, `fd` is closed and replaced by it. Returns
// what was done: none also when the path names nothing yet (between a rename and the new file)
// or something that is not a regular file (opening a FIFO would wait for its writer).
enum class FileChange { none, truncated, replaced };
FileChange follow_change(int& fd, const std::string& path, std::uint64_t offset);

class ReadAhead {
 public:
  struct Options {
    std::string path;  // looked at again when following
    bool follow = false;
    Duration poll = 200 * kMillisecond;
    std::size_t chunk = 256 * 1024;  // bytes per read
    std::size_t chunks = 4;          // chunks handed over and not taken yet, at most
  };
  enum class Kind { data, end, error, truncated, replaced };
  struct Piece {
    Kind kind = Kind::data;
    std::vector<char> bytes;  // data
    std::string error;        // error
  };

  // Reads on from where `fd` stands (`offset` bytes of it already read), decompressing with `xz`
  // when set; both are the read-ahead's until stop().
  ReadAhead(int fd, std::unique_ptr<XzDecoder> xz, std::uint64_t offset, Options options,
            ExternalWake wake);
  ~ReadAhead();
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next piece; false when none has come yet (the wake comes when one does).
  bool take(Piece& piece);
  // A taken piece's buffer, for the thread to read into again.
  void recycle(std::vector<char>&& bytes);

  // Stops the thread (without waiting for a pipe's writer) and gives back the descriptor (another
  // one than given when a followed file was replaced) and the decoder, where the reading stopped.
  struct Handover {
    int fd;
    std::unique_ptr<XzDecoder> xz;
  };
  Handover stop();

 private:
  void run();
  // Before a read: false when told to stop (a pipe is waited on until readable or stopped).
  bool readable();
  // > 0 bytes read, 0 at the end, -1 on an error (error set), -2 stopped.
  long read_some(std::vector<char>& buffer, std::string& error);
  void hand_over(Piece&& piece);

  int fd_;
  std::unique_ptr<XzDecoder> xz_;
  std::uint64_t offset_;
  const Options options_;
  ExternalWake wake_;
  bool regular_ = true;  // a regular file never makes a read wait for long
  int stop_fd_ = -1;     // eventfd: readable once stop() was called

  std::mutex mutex_;
  std::condition_variable room_or_stop_;
  std::deque<Piece> ready_;               // guarded by mutex_
  std::vector<std::vector<char>> spare_;  // guarded by mutex_
  bool stopping_ = false;                 // guarded by mutex_
  std::thread thread_;
};

}  // namespace cwf::actors
