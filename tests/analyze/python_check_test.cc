// The snippet checks (analyze/python_check.h), whose verdicts the process's
// threads share: the same answer from any thread, first time or again.
#include "analyze/python_check.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace errdex::analyze {
namespace {

struct Case {
  std::string code;
  bool module, expression;
};

std::vector<Case> cases() {
  return {
      {"x = 1\n", true, false},
      {"f(x)", true, true},
      {"if x:\n    raise ValueError('x')\n", true, false},
      {"def f(:\n", false, false},
      {"a +", false, false},
      {"", false, false},
      {"   \n", false, false},
      {"lambda y: y + 1", true, true},
      {"raise ValueError(", false, false},
      {"x = (1,", false, false},
      // A block must be indented: tree-sitter alone takes the `if` as
      // the body of the `class` (a test's excerpt cut after its opener).
      {"class B(object):\n\n# after\nif x:\n    f(x)\n", false, false},
      {"with self.assertWarns(DeprecationWarning) as cm:\nif x:\n    f()\n", false, false},
      {"if x: f(x)\n", true, false},
      {"def f():\n# a comment at the margin\n    return 1\n", true, false},
      {"try:\n    f()\nexcept ValueError:\n    pass\nelse:\n    g()\n", true, false},
  };
}

TEST(PythonCheck, VerdictsAreTheSameFromEveryThreadAndEveryTime) {
  auto check = [](std::vector<std::string>& wrong, int round) {
    for (const auto& c : cases()) {
      // A snippet never seen, then a repeated one.
      std::string fresh = c.code.empty() ? c.code : c.code + "\n# round " + std::to_string(round) + "\n";
      if (parses_as_python(c.code) != c.module) wrong.push_back("module: " + c.code);
      if (!c.code.empty() && c.code.find_first_not_of(" \n") != std::string::npos &&
          parses_as_python(fresh) != c.module)
        wrong.push_back("module, commented: " + fresh);
      if (parses_as_expression(c.code) != c.expression) wrong.push_back("expression: " + c.code);
    }
  };
  std::vector<std::vector<std::string>> wrong(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 50; ++round) check(wrong[static_cast<std::size_t>(t)], t * 100 + round % 3);
    });
  for (auto& t : threads) t.join();
  for (const auto& w : wrong) EXPECT_TRUE(w.empty()) << w.front();
}

}  // namespace
}  // namespace errdex::analyze
