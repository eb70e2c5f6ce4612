// Waiting in tests for something another thread or process brings about: polls `condition`
// until it holds or `timeout` (generous: only a hung peer reaches it) has passed.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace cwf::testing {

inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace cwf::testing
