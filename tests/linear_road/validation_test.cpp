// cwf lr validate's comparison: hand-made expected directories for every rule (Perl tables with
// an input explaining re-entering cars and exit-segment tolls; an expected.out compared
// exactly), and the shared dataset's Perl answers fed back in as a product's answers (failing
// without the dataset, shared_dataset.hpp).
#include "linear_road/validation.hpp"

#include <gtest/gtest.h>

#include "tests/linear_road/sanitized_build.hpp"
#include "tests/linear_road/shared_dataset.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <unistd.h>

#include "linear_road/expected_perl.hpp"
#include "linear_road/integer_file.hpp"

namespace cwf::lr {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("cwf-lr-validation-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
    return (path_ / name).string();
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

// A small world in the Perl validator's tables:
//  car 1: lav -1 (no data) and a toll; car 2: a wrong lav; car 3: an accident alert;
//  car 7: exits in seg 2 (Perl charges its toll of 50 there), re-enters at 200 and passes
//  segments 1 and 2 again, which Perl has no rows for; car 5: an answer Perl never expects.
// `time,carid,dir,seg,lav,toll,accidentseg`
const char* kPerlTolls =
    "0,1,0,10,-1,0,-1\n"
    "30,1,0,11,35,8,-1\n"
    "0,2,0,20,45,0,-1\n"
    "60,3,0,30,30,18,32\n"
    "60,4,0,31,30,18,33\n"
    "0,7,0,1,30,0,-1\n"
    "30,7,0,2,30,50,-1\n";
// `carid,querytime,resulttime,qid,balance`
const char* kPerlBalances =
    "7,230,230,100,50\n"
    "8,100,100,101,10\n"
    "8,100,70,101,12\n";
// `carid,day,balance,qid`
const char* kPerlExpenditures =
    "9,1,55,200\n"
    "9,2,60,201\n";
// `type,time,carid,speed,xway,lane,dir,seg,pos,qid,sinit,send,dow,tod,day`
const char* kInput =
    "0,0,1,50,0,0,0,10,52800,-1,-1,-1,-1,-1,-1\n"
    "0,0,2,50,0,0,0,20,105600,-1,-1,-1,-1,-1,-1\n"
    "0,0,7,50,0,0,0,1,5280,-1,-1,-1,-1,-1,-1\n"
    "0,30,1,50,0,1,0,11,58080,-1,-1,-1,-1,-1,-1\n"
    "0,30,7,50,0,1,0,2,10560,-1,-1,-1,-1,-1,-1\n"
    "0,60,3,50,0,1,0,30,158400,-1,-1,-1,-1,-1,-1\n"
    "0,60,4,50,0,1,0,31,163680,-1,-1,-1,-1,-1,-1\n"
    "0,60,7,10,0,4,0,2,11000,-1,-1,-1,-1,-1,-1\n"
    "0,90,5,50,0,1,0,40,211200,-1,-1,-1,-1,-1,-1\n"
    "0,100,8,50,0,1,0,50,264000,-1,-1,-1,-1,-1,-1\n"
    "2,100,8,50,0,1,0,50,264000,101,-1,-1,-1,-1,-1\n"
    "0,200,7,50,0,0,0,1,5280,-1,-1,-1,-1,-1,-1\n"
    "0,230,7,50,0,1,0,2,10560,-1,-1,-1,-1,-1,-1\n"
    "2,230,7,50,0,1,0,2,10560,100,-1,-1,-1,-1,-1\n"
    "0,260,7,10,0,4,0,3,15900,-1,-1,-1,-1,-1,-1\n"
    "0,300,9,50,0,1,0,60,316800,-1,-1,-1,-1,-1,-1\n"
    "3,300,9,50,0,1,0,60,316800,200,-1,-1,-1,-1,1\n"
    "3,300,9,50,0,1,0,60,316800,201,-1,-1,-1,-1,2\n";

// What a correct product answers for that world, in the product line format.
const char* kCorrectAnswers =
    "0,1,0,0,0,0\n"  // Perl's lav -1 is our 0
    "0,1,30,31,35,8\n"
    "0,2,0,1,45,0\n"
    "0,3,60,60,30,18\n"
    "1,60,60,0,32,0,3\n"
    "0,4,60,61,30,18\n"
    "1,60,61,0,33,0,4\n"
    "0,7,0,0,30,0\n"
    "0,7,30,30,30,50\n"
    "0,7,200,200,30,0\n"      // re-entry: Perl has no row for this second visit
    "0,7,230,231,30,0\n"      // re-entry
    "2,100,101,100,101,12\n"  // Perl's second acceptable answer
    "2,230,231,230,100,0\n"   // Perl's 50 less the exit-segment toll 50
    "3,300,302,200,55\n"
    "3,300,301,201,60\n";

struct PerlWorld {
  TempDir dir;
  PerlWorld(bool with_input = true) {
    dir.write("expected-perl-tollaccalerts.csv", kPerlTolls);
    dir.write("expected-perl-accountbalance.csv", kPerlBalances);
    dir.write("expected-perl-dailyexpenditure.csv", kPerlExpenditures);
    if (with_input) dir.write("input.dat", kInput);
  }
  ValidationReport validate(const std::string& answers) {
    ValidationOptions options;
    options.expected_dir = dir.path();
    options.actual_path = dir.write("actual.out", answers);
    return validate_answers(options);
  }
};

// Replaces the line starting with `prefix` in `text` by `replacement` ("" removes it).
std::string with_line(std::string text, const std::string& prefix, const std::string& replacement) {
  auto at = text.find(prefix);
  EXPECT_NE(at, std::string::npos) << prefix;
  auto end = text.find('\n', at);
  text.replace(at, end - at + 1, replacement.empty() ? "" : replacement + "\n");
  return text;
}

TEST(LrValidation, CorrectAnswersMatchThePerlTables) {
  PerlWorld world;
  ValidationReport report = world.validate(kCorrectAnswers);
  EXPECT_TRUE(report.passed());
  EXPECT_EQ(report.types[0].expected, 7u);
  EXPECT_EQ(report.types[0].matched, 7u);
  EXPECT_EQ(report.types[0].extra_explained, 2u);
  EXPECT_EQ(report.types[1].expected, 2u);
  EXPECT_EQ(report.types[1].matched, 2u);
  EXPECT_EQ(report.types[2].matched, 2u);
  EXPECT_EQ(report.types[2].matched_less_exit_tolls, 1u);
  EXPECT_EQ(report.types[3].matched, 2u);
  EXPECT_FALSE(report.mtbq.has_value());
}

TEST(LrValidation, PerlLavMinusOneMatchesOnlyZero) {
  PerlWorld world;
  auto report = world.validate(with_line(kCorrectAnswers, "0,1,0,0,", "0,1,0,0,1,0"));
  EXPECT_EQ(report.types[0].wrong, 1u);
  EXPECT_FALSE(report.passed());
  ASSERT_EQ(report.types[0].examples[static_cast<int>(DifferenceKind::wrong)].size(), 1u);
  const Difference& d = report.types[0].examples[static_cast<int>(DifferenceKind::wrong)][0];
  EXPECT_NE(d.expected.find("0,1,0,10,-1,0,-1"), std::string::npos) << d.expected;
  EXPECT_EQ(d.actual, "0,1,0,0,1,0");
}

TEST(LrValidation, MissingAndWrongTollsAndAlerts) {
  PerlWorld world;
  std::string answers = with_line(kCorrectAnswers, "0,2,0,1,", "0,2,0,1,44,0");  // lav
  answers = with_line(answers, "0,1,30,", "0,1,30,31,35,9");                     // toll
  answers = with_line(answers, "0,3,60,", "");                                   // missing
  answers = with_line(answers, "1,60,61,", "1,60,61,0,34,0,4");                  // accseg
  answers = with_line(answers, "1,60,60,", "");                                  // missing
  auto report = world.validate(answers);
  EXPECT_EQ(report.types[0].wrong, 2u);
  EXPECT_EQ(report.types[0].missing, 1u);
  EXPECT_EQ(report.types[0].matched, 4u);
  EXPECT_EQ(report.types[1].wrong, 1u);
  EXPECT_EQ(report.types[1].missing, 1u);
  EXPECT_FALSE(report.passed());
}

TEST(LrValidation, ExtrasOnlyForReenteringCarsAreExplained) {
  PerlWorld world;
  // Car 5 is on its first trip: Perl would have its row, so the answer is unexplained; a
  // duplicate of a matched answer is unexplained too.
  std::string answers = std::string(kCorrectAnswers) + "0,5,90,90,0,0\n0,1,30,31,35,8\n";
  auto report = world.validate(answers);
  EXPECT_EQ(report.types[0].extra_explained, 2u);
  EXPECT_EQ(report.types[0].extra_unexplained, 2u);
  EXPECT_FALSE(report.passed());
  const auto& explained =
      report.types[0].examples[static_cast<int>(DifferenceKind::extra_explained)];
  ASSERT_EQ(explained.size(), 2u);
  EXPECT_NE(explained[0].note.find("re-entering"), std::string::npos) << explained[0].note;
  const auto& unexplained =
      report.types[0].examples[static_cast<int>(DifferenceKind::extra_unexplained)];
  ASSERT_EQ(unexplained.size(), 2u);
}

TEST(LrValidation, ReentryAlertIsExplained) {
  PerlWorld world;
  auto report = world.validate(std::string(kCorrectAnswers) + "1,230,231,0,4,0,7\n");
  EXPECT_EQ(report.types[1].extra_explained, 1u);
  EXPECT_TRUE(report.passed());
}

TEST(LrValidation, WithoutInputNoExtraIsExplained) {
  PerlWorld world(false);
  auto report = world.validate(kCorrectAnswers);
  EXPECT_EQ(report.types[0].extra_explained, 0u);
  EXPECT_EQ(report.types[0].extra_unexplained, 2u);
  // Without the input the exit-segment toll is unknown: 0 is no answer Perl accepts.
  EXPECT_EQ(report.types[2].wrong, 1u);
  EXPECT_FALSE(report.passed());
}

TEST(LrValidation, BalanceIsPerlsAnswerOrThatLessExitSegmentTolls) {
  PerlWorld world;
  // Perl's own 50 is accepted as it is.
  auto perl_answer = world.validate(with_line(kCorrectAnswers, "2,230,", "2,230,231,230,100,50"));
  EXPECT_EQ(perl_answer.types[2].matched, 2u);
  EXPECT_EQ(perl_answer.types[2].matched_less_exit_tolls, 0u);
  // Any other value is wrong; for car 8 (no exit tolls) only 10 or 12 are right.
  std::string answers = with_line(kCorrectAnswers, "2,230,", "2,230,231,230,100,20");
  answers = with_line(answers, "2,100,", "2,100,101,100,101,0");
  auto report = world.validate(answers);
  EXPECT_EQ(report.types[2].wrong, 2u);
  EXPECT_EQ(report.types[2].matched, 0u);
}

// Car 10 queries at its exit-lane report in the segment after the one it was tolled for: it has
// just moved on and owes that toll, which Perl's only answer leaves out. Car 11 re-enters and is
// tolled on its second trip through segments Perl keeps only its first visit of.
TEST(LrValidation, BalancesOwingMoveIntoExitLaneOrReentryTollsAreRight) {
  TempDir dir;
  dir.write("expected-perl-tollaccalerts.csv",
            "0,10,0,70,30,0,-1\n30,10,0,71,30,40,-1\n0,11,0,80,30,0,-1\n30,11,0,81,30,0,-1\n");
  dir.write("expected-perl-accountbalance.csv", "10,60,30,102,0\n11,330,300,103,0\n");
  dir.write("expected-perl-dailyexpenditure.csv", "");
  dir.write("input.dat",
            "0,0,10,50,0,0,0,70,369600,-1,-1,-1,-1,-1,-1\n"
            "0,0,11,50,0,0,0,80,422400,-1,-1,-1,-1,-1,-1\n"
            "0,30,10,50,0,1,0,71,374880,-1,-1,-1,-1,-1,-1\n"
            "0,30,11,50,0,1,0,81,427680,-1,-1,-1,-1,-1,-1\n"
            "0,60,10,10,0,4,0,72,380160,-1,-1,-1,-1,-1,-1\n"
            "2,60,10,10,0,4,0,72,380160,102,-1,-1,-1,-1,-1\n"
            "0,60,11,10,0,4,0,82,432960,-1,-1,-1,-1,-1,-1\n"
            "0,300,11,50,0,0,0,80,422400,-1,-1,-1,-1,-1,-1\n"
            "0,330,11,50,0,1,0,81,427680,-1,-1,-1,-1,-1,-1\n"
            "2,330,11,50,0,1,0,81,427680,103,-1,-1,-1,-1,-1\n");
  const std::string tolls =
      "0,10,0,0,30,0\n0,10,30,30,30,40\n0,11,0,0,30,0\n0,11,30,30,30,0\n"
      "0,11,300,300,30,30\n0,11,330,330,30,0\n";
  ValidationOptions options;
  options.expected_dir = dir.path();
  options.actual_path =
      dir.write("actual.out", tolls + "2,60,60,60,102,40\n2,330,330,330,103,30\n");
  ValidationReport report = validate_answers(options);
  EXPECT_TRUE(report.passed());
  EXPECT_EQ(report.types[0].extra_explained, 2u);
  EXPECT_EQ(report.types[2].matched, 2u);
  EXPECT_EQ(report.types[2].matched_plus_exit_lane_move_toll, 1u);
  EXPECT_EQ(report.types[2].matched_plus_reentry_tolls, 1u);
  // Perl's own answers are still right; anything else is not.
  options.actual_path = dir.write("perl.out", tolls + "2,60,60,30,102,0\n2,330,330,300,103,0\n");
  EXPECT_TRUE(validate_answers(options).passed());
  options.actual_path = dir.write("off.out", tolls + "2,60,60,60,102,41\n2,330,330,330,103,60\n");
  EXPECT_EQ(validate_answers(options).types[2].wrong, 2u);
}

TEST(LrValidation, LateAnswersCountEvenWhenRight) {
  PerlWorld world;
  std::string answers = with_line(kCorrectAnswers, "0,1,30,", "0,1,30,36,35,8");  // 6 s
  answers = with_line(answers, "3,300,301,", "3,300,311,201,60");                 // 11 s
  answers = with_line(answers, "3,300,302,", "3,300,310,200,55");                 // 10 s: in time
  auto report = world.validate(answers);
  EXPECT_EQ(report.types[0].late, 1u);
  EXPECT_EQ(report.types[0].matched, 7u);
  EXPECT_EQ(report.types[3].late, 1u);
  EXPECT_EQ(report.types[3].matched, 2u);
  EXPECT_FALSE(report.passed());
}

TEST(LrValidation, MalformedLinesAreCountedWithFileAndLine) {
  PerlWorld world;
  auto report = world.validate(std::string(kCorrectAnswers) + "0,1,2\nhello\n7,1,2,3\n\n");
  EXPECT_EQ(report.malformed.count(), 3u);
  ASSERT_EQ(report.malformed.first().size(), 3u);
  EXPECT_EQ(report.malformed.first()[0].line, 16u);
  EXPECT_NE(report.malformed.first()[0].file.find("actual.out"), std::string::npos);
  EXPECT_EQ(report.malformed.first()[1].text, "hello");
  EXPECT_EQ(report.types[0].matched, 7u);  // the good lines still count
  EXPECT_FALSE(report.passed());
}

TEST(LrValidation, UnreadableFilesThrow) {
  PerlWorld world;
  ValidationOptions options;
  options.expected_dir = world.dir.path();
  options.actual_path = world.dir.path() + "/no-such-file";
  EXPECT_THROW(validate_answers(options), DataFileError);
  TempDir empty;
  options.expected_dir = empty.path();
  options.actual_path = world.dir.write("actual.out", kCorrectAnswers);
  EXPECT_THROW(validate_answers(options), DataFileError);
}

TEST(LrValidation, ExpectedOutIsComparedExactly) {
  TempDir dir;
  dir.write("expected.out",
            "0,1,0,0,0,0\n0,1,30,30,35,8\n1,60,60,0,32,0,3\n2,100,100,100,101,12\n"
            "3,300,300,200,55\n0,2,0,0,45,0\n");
  ValidationOptions options;
  options.expected_dir = dir.path();
  // Emit may differ; lav of car 2 is wrong; the balance's result time is wrong; car 9's
  // toll notification is extra; the expenditure is missing.
  options.actual_path = dir.write("actual.out",
                                  "0,1,0,4,0,0\n0,1,30,31,35,8\n1,60,62,0,32,0,3\n"
                                  "2,100,100,70,101,12\n0,2,0,0,44,0\n0,9,0,0,0,0\n");
  auto report = validate_answers(options);
  EXPECT_EQ(report.types[0].matched, 2u);
  EXPECT_EQ(report.types[0].wrong, 1u);
  EXPECT_EQ(report.types[0].extra_unexplained, 1u);
  EXPECT_EQ(report.types[1].matched, 1u);
  EXPECT_EQ(report.types[2].wrong, 1u);
  EXPECT_EQ(report.types[3].missing, 1u);
  EXPECT_FALSE(report.passed());

  options.actual_path = dir.write("same.out",
                                  "0,2,0,3,45,0\n0,1,0,0,0,0\n0,1,30,30,35,8\n"
                                  "1,60,60,0,32,0,3\n2,100,100,100,101,12\n3,300,300,200,55\n");
  EXPECT_TRUE(validate_answers(options).passed());
}

// ---- The shared dataset ----

// The Perl validator's expected answers, written as a product would answer.
std::string perl_answers_as_product(const std::string& dir) {
  MalformedLines malformed;
  std::map<std::int64_t, std::int64_t> expenditure_time;  // qid -> query time
  read_integer_file(*find_data_file(dir, "input.dat"), 15, 15, malformed,
                    [&](const std::int64_t* f, int, std::uint64_t, std::string_view) {
                      if (f[0] == 3) expenditure_time[f[9]] = f[1];
                      return std::string();
                    });
  std::string out;
  auto line = [&](std::initializer_list<std::int64_t> fields) {
    bool first = true;
    for (auto v : fields) {
      if (!first) out += ',';
      out += std::to_string(v);
      first = false;
    }
    out += '\n';
  };
  read_integer_file(*find_data_file(dir, "expected-perl-tollaccalerts.csv"), 7, 7, malformed,
                    [&](const std::int64_t* f, int, std::uint64_t, std::string_view) {
                      line({0, f[1], f[0], f[0], f[4] < 0 ? 0 : f[4], f[5]});
                      if (f[6] != -1) line({1, f[0], f[0], 0, f[6], f[2], f[1]});
                      return std::string();
                    });
  std::int64_t last_qid = -1;
  read_integer_file(*find_data_file(dir, "expected-perl-accountbalance.csv"), 5, 5, malformed,
                    [&](const std::int64_t* f, int, std::uint64_t, std::string_view) {
                      if (f[3] != last_qid) line({2, f[1], f[1], f[2], f[3], f[4]});
                      last_qid = f[3];
                      return std::string();
                    });
  read_integer_file(*find_data_file(dir, "expected-perl-dailyexpenditure.csv"), 4, 4, malformed,
                    [&](const std::int64_t* f, int, std::uint64_t, std::string_view) {
                      std::int64_t time = expenditure_time[f[3]];
                      line({3, time, time, f[3], f[2]});
                      return std::string();
                    });
  EXPECT_EQ(malformed.count(), 0u);
  return out;
}

TEST(LrValidation, SharedDatasetPerlAnswersMatchThemselves) {
  if (cwf::lr::testing::kSanitizedBuild) GTEST_SKIP() << cwf::lr::testing::kSkippedUnderSanitizers;
  CWF_REQUIRE_SHARED_DATASET();
  const std::string dir = cwf::lr::testing::shared_dataset_dir();
  TempDir scratch;
  ValidationOptions options;
  options.expected_dir = dir;
  options.actual_path = scratch.write("perl-as-product.out", perl_answers_as_product(dir));
  ValidationReport report = validate_answers(options);
  EXPECT_TRUE(report.passed());
  EXPECT_EQ(report.malformed.count(), 0u);
  EXPECT_EQ(report.types[0].matched, 1'837'587u);
  EXPECT_EQ(report.types[1].matched, 22'061u);
  EXPECT_EQ(report.types[2].matched, 25'213u);
  EXPECT_EQ(report.types[3].matched, 5'063u);
  // The second validator's opinion of the Perl answers (FORMAT.md, validator-comparison.txt).
  ASSERT_TRUE(report.mtbq.has_value());
  EXPECT_EQ((*report.mtbq)[1].matched, 19'687u);
  EXPECT_EQ((*report.mtbq)[1].missing, 15u);
  EXPECT_EQ((*report.mtbq)[3].matched, 5'063u);
}

}  // namespace
}  // namespace cwf::lr
