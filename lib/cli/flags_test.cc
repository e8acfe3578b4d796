#include "cli/flags.h"

#include <iostream>
#include <sstream>
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

TEST_CASE("a text flag written --name= takes the empty value, as in TFLite") {
  for (bool tflite_style : {true, false}) {
    CAPTURE(tflite_style);
    CLI::App app;
    std::string path = "preset", other = "preset";
    int runs = 3;
    app.add_option("--output_filepath", path, "");
    app.add_option("--other", other, "");
    app.add_option("--num_runs", runs, "");
    std::vector<const char*> argv = {"tool", "--output_filepath=", "--other=x", "--num_runs=5"};
    std::vector<std::string> unknown;
    const int rc = tflite_style
                       ? ParseFlagsAsTflite(app, 4, argv.data(), &unknown,
                                            [](const std::string&, const std::string&) { return 1; })
                       : ParseFlags(app, 4, argv.data());
    CHECK(rc == -1);
    CHECK(path.empty());
    CHECK(other == "x");
    CHECK(runs == 5);
  }
  // A number or a boolean is TFLite's parse failure: its parser cannot read them from
  // nothing (CLI11 said "required INT missing", and took a bare boolean for true).
  for (const char* arg : {"--num_runs=", "--use_xnnpack="}) {
    CAPTURE(arg);
    CLI::App app;
    int runs = 3;
    bool use = false;
    app.add_option("--num_runs", runs, "");
    AddBoolFlag(app, "--use_xnnpack", &use, "");
    std::vector<const char*> argv = {"tool", arg};
    std::vector<std::string> unknown;
    std::string line, reason;
    CHECK(ParseFlagsAsTflite(app, 2, argv.data(), &unknown,
                             [&](const std::string& l, const std::string& r) {
                               line = l;
                               reason = r;
                               return 7;
                             }) == 7);
    const std::string name = std::string(arg).substr(2, std::string(arg).size() - 3);
    CHECK(line == "Failed to parse flag '" + name + "' against argv '" + arg + "'");
    CHECK(reason == "--" + name + ": an empty value");
    CHECK(runs == 3);
    CHECK_FALSE(use);
  }
}

// ParseFlags prints to stderr; this captures it.
struct StderrCapture {
  StderrCapture() : old(std::cerr.rdbuf(text.rdbuf())) {}
  ~StderrCapture() { std::cerr.rdbuf(old); }
  std::ostringstream text;
  std::streambuf* old;
};

TEST_CASE("our tools: a number written --name= is an empty value, not the next argument's") {
  for (const char* arg : {"--num_runs=", "--verbose="}) {
    CAPTURE(arg);
    CLI::App app("", "tool");
    int runs = 3;
    bool verbose = false;
    std::string model;
    app.add_option("--num_runs", runs, "");
    AddBoolFlag(app, "--verbose", &verbose, "");
    app.add_option("model", model, "");
    std::vector<const char*> argv = {"tool", arg, "m.tflite"};
    StderrCapture err;
    CHECK(ParseFlags(app, 3, argv.data()) == kExitUsage);
    const std::string name = std::string(arg).substr(0, std::string(arg).size() - 1);
    CHECK(err.text.str() == "tool: " + name + ": an empty value\nRun with --help for the list "
                            "of flags.\n");
    CHECK(runs == 3);
    CHECK(model.empty());
  }
}

TEST_CASE("a value a flag cannot take is named with the flag and what it takes") {
  for (const auto& [arg, want] : std::vector<std::pair<std::string, std::string>>{
           {"--num_runs=abc", "--num_runs: 'abc' is not an integer"},
           {"--count=-2", "--count: '-2' is not an integer >= 0"},
           {"--epsilon=x1", "--epsilon: 'x1' is not a number"}}) {
    CAPTURE(arg);
    CLI::App app("", "tool");
    int runs = 3;
    unsigned count = 1;
    double epsilon = 0;
    app.add_option("--num_runs", runs, "");
    app.add_option("--count", count, "");
    app.add_option("--epsilon", epsilon, "");
    std::vector<const char*> argv = {"tool", arg.c_str()};
    {
      StderrCapture err;
      CHECK(ParseFlags(app, 2, argv.data()) == kExitUsage);
      CHECK(err.text.str() == "tool: " + want + "\nRun with --help for the list of flags.\n");
    }
    std::vector<std::string> unknown;
    std::string reason;
    CHECK(ParseFlagsAsTflite(app, 2, argv.data(), &unknown,
                             [&](const std::string&, const std::string& r) {
                               reason = r;
                               return 1;
                             }) == 1);
    CHECK(reason == want);
  }
}

}  // namespace
}  // namespace tflite_inspect
