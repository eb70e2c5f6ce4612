// A fixture with a fresh folder per test (removed afterwards) and helpers to read and damage the
// files in it: the base of the checkpoint file and store tests.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace cwf::testing {

class ScratchFolderTest : public ::testing::Test {
 public:
  using Bytes = std::vector<std::uint8_t>;

 protected:
  // `prefix` names the folder (with the process and the test), so parallel runs do not meet.
  explicit ScratchFolderTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           (prefix_ + "-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    // A process the test started may still be closing files there (a browser's helpers): the
    // folder goes once they are done, within a second.
    for (int attempt = 0; attempt < 50; ++attempt) {
      std::error_code error;
      std::filesystem::remove_all(dir_, error);
      if (!error) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::filesystem::remove_all(dir_);
  }

  // The names of the files in the folder (or in `folder`), sorted.
  std::vector<std::string> files() const { return files(dir_); }
  static std::vector<std::string> files(const std::filesystem::path& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  static Bytes contents(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  static void overwrite(const std::filesystem::path& path, const Bytes& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

}  // namespace cwf::testing
