#include "cli/flags.h"

#include <string>
#include <vector>

#include "catch2/catch.hpp"

namespace tflite_inspect {
namespace {

TEST_CASE("the num_threads flag takes TFLite's values and refuses the rest in one line") {
  for (const auto& [text, want] : std::vector<std::pair<std::string, int>>{
           {"1", 1}, {"4", 4}, {"0", 0}, {"-1", -1}, {"64", 64}}) {
    CLI::App app;
    int threads = 7;
    AddNumThreadsFlag(app, "--num_threads", &threads, "");
    const std::string arg = "--num_threads=" + text;
    std::vector<const char*> argv = {"tool", arg.c_str()};
    app.parse(2, argv.data());
    CHECK(threads == want);
  }
  for (const std::string bad : {"-5", "-2", "abc", "1.5", "99999999999", "4x"}) {
    CAPTURE(bad);
    CLI::App app;
    int threads = 7;
    AddNumThreadsFlag(app, "--num_threads", &threads, "");
    const std::string arg = "--num_threads=" + bad;
    std::vector<const char*> argv = {"tool", arg.c_str()};
    try {
      app.parse(2, argv.data());
      FAIL("accepted");
    } catch (const CLI::ParseError& e) {
      const std::string what = e.what();
      CHECK_THAT(what, Catch::Contains("'" + bad + "' is not a thread count: N >= 1, 0 (one "
                                       "thread) or -1 (the runtime's choice), as in TFLite"));
      CHECK(what.size() < 200);
    }
  }
}

}  // namespace
}  // namespace tflite_inspect
