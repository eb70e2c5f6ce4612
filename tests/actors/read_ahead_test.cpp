// Files read ahead and written behind on threads of their own: a line reader reading ahead gives
// exactly the lines it gives reading in place (plain and .xz, lines across the thread's chunks);
// a file source waiting on a pipe holds no worker under every director; a record or a line that
// arrives in two parts is read once whole; stopping never waits for a pipe's writer; the
// write-behind writes in order and counts the events a write error lost.
#include <fcntl.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "actors/csv_source.hpp"
#include "actors/jsonl_source.hpp"
#include "actors/line_reader.hpp"
#include "actors/output.hpp"
#include "actors/write_behind.hpp"
#include "tests/eventually.hpp"
#include "tests/runtime/beside_a_chain.hpp"

namespace cwf::actors {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  fs::path dir =
      fs::temp_directory_path() / ("cwf-read-ahead-" + std::to_string(::getpid()) + "-" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::create_directories(dir);
  return dir / name;
}

// Lines of random lengths (some longer than the thread's 256 KiB chunks), some ending in "\r\n",
// the last one without its newline half the time.
std::string random_text(unsigned seed) {
  std::mt19937 random(seed);
  std::string text;
  while (text.size() < 3 * 256 * 1024) {
    std::size_t length = random() % 2000 == 0 ? random() % 400000 : random() % 200;
    for (std::size_t i = 0; i < length; ++i)
      text.push_back(static_cast<char>('a' + random() % 26));
    text += random() % 4 == 0 ? "\r\n" : "\n";
  }
  if (random() % 2) text += "no newline at the end";
  return text;
}

std::string xz_compressed(const std::string& text) {
  std::vector<std::uint8_t> out(lzma_stream_buffer_bound(text.size()));
  std::size_t used = 0;
  EXPECT_EQ(lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64, nullptr,
                                    reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
                                    out.data(), &used, out.size()),
            LZMA_OK);
  return std::string(reinterpret_cast<const char*>(out.data()), used);
}

// Every line, waiting (as a firing would, by trying again) while the thread has not read it yet.
std::vector<std::string> all_lines(LineReader& reader) {
  std::vector<std::string> lines;
  std::string_view line;
  for (;;) {
    if (reader.next(line)) {
      lines.emplace_back(line);
      continue;
    }
    if (!reader.waiting()) break;
    std::this_thread::yield();
  }
  EXPECT_EQ(reader.error(), "");
  return lines;
}

TEST(ReadAhead, GivesTheLinesReadingInPlaceGives) {
  for (unsigned seed : {1u, 2u, 3u}) {
    for (bool compressed : {false, true}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + (compressed ? ", .xz" : ""));
      const std::string text = random_text(seed);
      const fs::path path = scratch(compressed ? "text.xz" : "text");
      std::ofstream(path, std::ios::binary) << (compressed ? xz_compressed(text) : text);
      LineReader in_place, ahead;
      ASSERT_TRUE(in_place.open(path));
      ASSERT_TRUE(ahead.open(path));
      ahead.read_ahead(ExternalWake(), 10 * kMillisecond, path);
      const std::vector<std::string> expected = all_lines(in_place);
      EXPECT_GT(expected.size(), 100u);
      EXPECT_EQ(all_lines(ahead), expected);
      EXPECT_EQ(ahead.position(), in_place.position());
      EXPECT_EQ(ahead.line_number(), in_place.line_number());
    }
  }
}

// A resumed run: the reader goes back to the checkpoint's position before its first read, in a
// plain file (a seek) and in an .xz one (decompressing up to it, in place; the thread then reads
// on from there).
TEST(ReadAhead, GoesBackToACheckpointsPositionBeforeItsFirstRead) {
  const std::string text = random_text(5);
  for (bool compressed : {false, true}) {
    SCOPED_TRACE(compressed ? ".xz" : "plain");
    const fs::path path = scratch(compressed ? "text.xz" : "text");
    std::ofstream(path, std::ios::binary) << (compressed ? xz_compressed(text) : text);
    LineReader in_place;
    ASSERT_TRUE(in_place.open(path));
    std::string_view line;
    for (int i = 0; i < 1000; ++i)
      ASSERT_TRUE(in_place.next(line));
    const std::uint64_t position = in_place.position(), line_number = in_place.line_number();
    const std::vector<std::string> rest = all_lines(in_place);
    LineReader reader;
    ASSERT_TRUE(reader.open(path));
    reader.read_ahead(ExternalWake(), 10 * kMillisecond, path);
    ASSERT_TRUE(reader.seek(position, line_number)) << reader.error();
    EXPECT_EQ(all_lines(reader), rest);
    EXPECT_EQ(reader.line_number(), in_place.line_number());
  }
}

// Following without reading ahead (a source in a sub-workflow): a file truncated, or replaced at
// its path, is read again from its start.
TEST(LineReaderFollow, InPlaceNoticesATruncatedAndAReplacedFile) {
  const fs::path path = scratch("log");
  std::ofstream(path) << "one\ntwo\n";
  LineReader reader;
  ASSERT_TRUE(reader.open(path));
  reader.set_follow(true);
  EXPECT_EQ(all_lines(reader), (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(reader.take_change(path), LineReader::Change::none);
  std::ofstream(path, std::ios::trunc) << "3\n";
  EXPECT_EQ(all_lines(reader), std::vector<std::string>{});
  EXPECT_EQ(reader.take_change(path), LineReader::Change::truncated);
  EXPECT_EQ(all_lines(reader), std::vector<std::string>{"3"});
  fs::rename(path, scratch("log.1"));
  std::ofstream(path) << "new\n";
  EXPECT_EQ(reader.take_change(path), LineReader::Change::replaced);
  EXPECT_EQ(all_lines(reader), std::vector<std::string>{"new"});
  EXPECT_EQ(reader.line_number(), 1u);
}

// A record spanning lines is read again from its mark after a wait: lines read after the mark
// (here across the buffer's refill) come again, and a line found after the refill is whole.
TEST(LineReaderMark, RewindGivesTheLinesAfterTheMarkAgainAcrossARefill) {
  const fs::path path = scratch("text");
  const std::string first(LineReader::kBufferSize - 10, 'a');
  std::ofstream(path) << first << "\nsecond line\nthird\n";
  LineReader reader;
  ASSERT_TRUE(reader.open(path));
  std::string_view line;
  reader.mark();
  ASSERT_TRUE(reader.next(line));
  EXPECT_EQ(line.size(), first.size());
  ASSERT_TRUE(reader.next(line));  // refills the buffer, keeping the text from the mark
  EXPECT_EQ(line, "second line");
  reader.rewind();
  EXPECT_EQ(reader.line_number(), 0u);
  EXPECT_EQ(reader.position(), 0u);
  ASSERT_TRUE(reader.next(line));
  EXPECT_EQ(line, first);
  reader.mark();
  ASSERT_TRUE(reader.next(line));
  EXPECT_EQ(line, "second line");
  ASSERT_TRUE(reader.next(line));
  EXPECT_EQ(line, "third");
  EXPECT_EQ(reader.line_number(), 3u);
}

// A FIFO whose write end the test holds (opened read-write, so that neither open waits).
struct Fifo {
  explicit Fifo(const fs::path& at) : path(at) {
    fs::remove(path);
    EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
    fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    EXPECT_GE(fd, 0);
  }
  ~Fifo() { close(); }
  void write(const std::string& text) const {
    EXPECT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }
  void close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  fs::path path;
  int fd = -1;
};

TEST(ReadAhead, StoppingDoesNotWaitForAPipesWriter) {
  Fifo fifo(scratch("fifo"));
  LineReader reader;
  ASSERT_TRUE(reader.open(fifo.path));
  reader.read_ahead(ExternalWake(), 10 * kMillisecond, fifo.path);
  std::string_view line;
  EXPECT_FALSE(reader.next(line));
  EXPECT_TRUE(reader.waiting());
  fifo.write("a line\n");
  EXPECT_TRUE(cwf::testing::eventually([&] { return reader.next(line); }));
  EXPECT_EQ(line, "a line");
  reader.close();  // the writer is still there and writes nothing: returns all the same
  EXPECT_FALSE(reader.is_open());
}

// Runs `source` (reading `fifo`) beside an independent chain under `director_name`: the chain
// ends while the pipe is silent; then `parts` are written with pauses between them and the pipe
// is closed. Returns what the source emitted, as JSON.
std::vector<std::string> run_from_pipe(std::unique_ptr<Actor> source, Fifo& fifo,
                                       const std::string& director_name,
                                       const std::vector<std::string>& parts) {
  cwf::testing::BesideAChain run =
      cwf::testing::run_beside_a_chain(std::move(source), director_name, [&](Actor&) {
        for (const std::string& part : parts) {
          fifo.write(part);
          std::this_thread::sleep_for(std::chrono::milliseconds(30));
        }
        fifo.close();
      });
  EXPECT_EQ(run.summary.incomplete(), 0u);
  std::vector<std::string> out;
  for (const Event& event : run.received)
    out.push_back(event.token.to_json());
  return out;
}

FileSourceOptions options_for(const fs::path& path) {
  FileSourceOptions options;
  options.path = path;
  return options;
}

class AFileSourceWaitingOnAPipe : public ::testing::TestWithParam<std::string> {};

TEST_P(AFileSourceWaitingOnAPipe, LeavesTheWorkersToTheOtherActorsAndReadsALineOnceWhole) {
  Fifo fifo(scratch("fifo"));
  auto source = std::make_unique<JsonlSource>(options_for(fifo.path));
  EXPECT_EQ(run_from_pipe(std::move(source), fifo, GetParam(),
                          {"{\"n\": 1}\n{\"n\":", " 2}\n", "{\"n\": 3}"}),
            (std::vector<std::string>{"{\"n\":1}", "{\"n\":2}", "{\"n\":3}"}));
}

TEST_P(AFileSourceWaitingOnAPipe, ReadsACsvRecordSpanningLinesOnceWhole) {
  Fifo fifo(scratch("fifo"));
  CsvOptions csv;
  auto source = std::make_unique<CsvSource>(options_for(fifo.path), csv);
  EXPECT_EQ(run_from_pipe(std::move(source), fifo, GetParam(),
                          {"id,text\n1,\"first\n", "second\"\n2,plain\n"}),
            (std::vector<std::string>{"{\"id\":1,\"text\":\"first\\nsecond\"}",
                                      "{\"id\":2,\"text\":\"plain\"}"}));
}

INSTANTIATE_TEST_SUITE_P(Directors, AFileSourceWaitingOnAPipe,
                         ::testing::Values("fifo/1", "fifo/2", "qbs/1", "qbs/2", "rr/1", "rr/2",
                                           "rb/1", "rb/2", "threaded"),
                         schedulers::testing::director_test_name);

TEST(WriteBehind, WritesWhatIsHandedOverInOrder) {
  const fs::path path = scratch("out");
  BufferedWriter writer;
  writer.open(path);
  std::string expected;
  for (int i = 0; i < 100000; ++i) {
    std::string line = std::to_string(i) + "\n";
    writer.buffer() += line;
    expected += line;
    writer.count_event();
    writer.maybe_flush();
  }
  EXPECT_TRUE(writer.sync());
  EXPECT_EQ(writer.size(), expected.size());
  EXPECT_TRUE(writer.close());
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), expected);
}

TEST(WriteBehind, CountsTheEventsAWriteErrorLost) {
  BufferedWriter writer;
  writer.open("/dev/full");
  for (int i = 0; i < 10; ++i) {
    writer.buffer() += "an event\n";
    writer.count_event();
  }
  writer.flush();
  writer.buffer() += "and one more\n";
  writer.count_event();
  EXPECT_FALSE(writer.close());
  EXPECT_EQ(writer.take_lost(), 11u);
  EXPECT_NE(writer.error(), "");
}

TEST(WriteBehind, HandsOverWithoutWaitingForAPipesReader) {
  Fifo fifo(scratch("fifo"));
  int reader = ::open(fifo.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  {
    WriteBehind behind(fifo.fd);
    // More than a pipe holds (64 KiB), less than the write-behind keeps: nobody reads yet, and
    // handing over returns all the same.
    std::string text(1 << 20, 'x');
    behind.hand_over(text, 1);
    EXPECT_TRUE(text.empty());
    std::string got;
    char buf[65536];
    while (got.size() < (1u << 20)) {
      ssize_t n = ::read(reader, buf, sizeof buf);
      if (n > 0)
        got.append(buf, static_cast<std::size_t>(n));
      else
        std::this_thread::yield();
    }
    behind.drain();
    EXPECT_EQ(behind.take_outcome().bytes_written, 1u << 20);
    EXPECT_EQ(got, std::string(1 << 20, 'x'));
  }
  ::close(reader);
}

// Two sinks on standard output (a stream neither owns), written from two threads into one pipe:
// each line comes out whole. A pipe makes only writes of up to PIPE_BUF bytes atomic, and the
// buffers are 256 KiB.
TEST(WriteBehind, TwoWritersOnOneSharedStreamNeverSplitALine) {
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  std::FILE* stream = ::fdopen(ends[1], "w");
  ASSERT_NE(stream, nullptr);
  const std::string a_line = std::string(99, 'a') + "\n", b_line = std::string(99, 'b') + "\n";
  constexpr int kLines = 20000;
  std::string got;
  std::thread reader([&] {
    char buf[65536];
    for (ssize_t n; (n = ::read(ends[0], buf, sizeof buf)) > 0;)
      got.append(buf, static_cast<std::size_t>(n));
  });
  auto write_lines = [&](const std::string& line) {
    BufferedWriter writer;
    writer.attach(stream);
    for (int i = 0; i < kLines; ++i) {
      writer.buffer() += line;
      writer.count_event();
      writer.maybe_flush();
    }
    EXPECT_TRUE(writer.close());
  };
  std::thread a(write_lines, a_line), b(write_lines, b_line);
  a.join();
  b.join();
  std::fclose(stream);
  reader.join();
  ::close(ends[0]);
  ASSERT_EQ(got.size(), 2u * kLines * 100);
  for (std::size_t at = 0; at < got.size(); at += 100) {
    const std::string_view line(got.data() + at, 100);
    ASSERT_TRUE(line == a_line || line == b_line) << "a split line at byte " << at;
  }
}

}  // namespace
}  // namespace cwf::actors
