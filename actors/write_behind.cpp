#include "actors/write_behind.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace cwf::actors {

namespace {
// Held while a buffer goes to a descriptor shared with other writers of the process.
std::mutex& shared_descriptor_mutex() {
  static std::mutex mutex;
  return mutex;
}
}  // namespace

WriteBehind::WriteBehind(int fd, bool shared, std::size_t max_behind)
    : fd_(fd), shared_(shared), max_behind_(max_behind) {
  thread_ = std::thread([this] { run(); });
}

WriteBehind::~WriteBehind() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void WriteBehind::hand_over(std::string& text, std::uint64_t events) {
  if (text.empty() && events == 0) return;
  std::string spare;
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return bytes_behind_ <= max_behind_; });
    bytes_behind_ += text.size();
    jobs_.push_back({std::move(text), events});
    if (!spare_.empty()) {
      spare = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  changed_.notify_all();
  spare.clear();
  text = std::move(spare);
}

void WriteBehind::drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return jobs_.empty() && !writing_; });
}

WriteBehind::Outcome WriteBehind::take_outcome() {
  std::lock_guard lock(mutex_);
  Outcome outcome = outcome_;
  outcome_.events_lost = 0;
  return outcome;
}

bool WriteBehind::write_all(const std::string& text, std::string& error) {
  std::unique_lock<std::mutex> shared_lock;
  if (shared_) shared_lock = std::unique_lock(shared_descriptor_mutex());
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::strerror(errno);
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void WriteBehind::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping, everything written
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    writing_ = true;
    const bool failed_before = !outcome_.error.empty();
    lock.unlock();
    std::string error;
    const bool written = !failed_before && write_all(job.text, error);
    lock.lock();
    writing_ = false;
    bytes_behind_ -= job.text.size();
    if (written) {
      outcome_.bytes_written += job.text.size();
    } else {
      if (outcome_.error.empty()) outcome_.error = std::move(error);
      failed_.store(true, std::memory_order_release);
      outcome_.events_lost += job.events;
    }
    if (spare_.size() < 4) spare_.push_back(std::move(job.text));
    changed_.notify_all();
  }
}

}  // namespace cwf::actors
