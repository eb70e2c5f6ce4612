// Writes an actor's output on a thread of its own, behind the firings that fill it, so that a
// firing does not wait for a disk or for the reader of a pipe: the actor hands a full buffer over
// and goes on with an empty one. What is handed over is written in order, with write(2), to a
// descriptor the caller keeps open until drain() or destruction.
//
// Bounded: while more than `max_behind` bytes wait to be written, hand_over() waits for the
// writes to catch up. Output slower than the workflow for that long holds the workflow back
// (backpressure) instead of growing memory without end.
//
// Events are counted with their text: those of a buffer are written once all of it is; after a
// write error nothing is written any more and every event handed over counts as lost (a partial
// write leaves a broken file).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cwf::actors {

class WriteBehind {
 public:
  static constexpr std::size_t kMaxBehind = 4 << 20;

  // `shared`: other writers in the process write to the same descriptor (standard output for
  // several sinks): each buffer is then written whole under a lock they share, so that lines from
  // two writers never interleave within a buffer, even on a pipe (where only writes of up to
  // PIPE_BUF bytes are atomic).
  explicit WriteBehind(int fd, bool shared = false, std::size_t max_behind = kMaxBehind);
  ~WriteBehind();  // writes what was handed over first
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // Hands `text` (holding `events` events) over to be written; `text` comes back empty, with the
  // capacity of a buffer already written when there is one.
  void hand_over(std::string& text, std::uint64_t events);
  // Waits until everything handed over is written (or lost to an error).
  void drain();

  // What the writes came to so far: bytes written, and events lost to an error not taken yet.
  struct Outcome {
    std::uint64_t bytes_written = 0;
    std::uint64_t events_lost = 0;
    std::string error;  // the first write error
  };
  Outcome take_outcome();
  // Whether a write failed: cheap enough to ask after every firing (take_outcome locks).
  bool failed() const { return failed_.load(std::memory_order_acquire); }

 private:
  struct Job {
    std::string text;
    std::uint64_t events;
  };
  void run();
  // write(2) until all of `text` is written; false with `error` set when it cannot be.
  bool write_all(const std::string& text, std::string& error);

  const int fd_;
  const bool shared_;
  const std::size_t max_behind_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> jobs_;             // guarded by mutex_
  std::size_t bytes_behind_ = 0;     // guarded by mutex_: text in jobs_ and being written
  bool writing_ = false;             // guarded by mutex_: the thread holds a job
  bool stopping_ = false;            // guarded by mutex_
  std::vector<std::string> spare_;   // guarded by mutex_: written buffers to use again
  Outcome outcome_;                  // guarded by mutex_
  std::atomic<bool> failed_{false};  // outcome_.error is set
  std::thread thread_;
};

}  // namespace cwf::actors
