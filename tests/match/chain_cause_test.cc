// The cause of a chained traceback (match/chain_cause.h): which text is
// the cause, and when the matcher's answer for the last exception gives
// way to it.
#include "match/chain_cause.h"

#include <gtest/gtest.h>

namespace errdex::match {
namespace {

model::ErrorRecord rec(std::string id, std::string cls, std::string message, std::string file, int line) {
  model::ErrorRecord r;
  r.id = std::move(id);
  r.repo = "o/r";
  r.error_class = std::move(cls);
  r.error_message = message;
  r.message_pattern = std::move(message);
  r.file_path = std::move(file);
  r.line_number = line;
  return r;
}

// Matcher::match with the tests' top.
auto answer(const Matcher& m) {
  return [&m](std::string_view t) { return m.match(t, 3); };
}

constexpr std::string_view k_inner =
    "Traceback (most recent call last):\n"
    "  File \"/venv/lib/python3.11/site-packages/pkg/store.py\", line 10, in get\n"
    "    raise KeyError('bad key')\n"
    "KeyError: 'bad key'\n";
constexpr std::string_view k_direct = "\nThe above exception was the direct cause of the following exception:\n\n";
constexpr std::string_view k_during = "\nDuring handling of the above exception, another exception occurred:\n\n";
constexpr std::string_view k_outer =
    "Traceback (most recent call last):\n"
    "  File \"/home/me/app.py\", line 9, in load\n"
    "    raise ConfigError('config is broken') from e\n"
    "app.ConfigError: config is broken\n";

TEST(ChainCause, TheCauseIsTheTextAboveTheLastSeparator) {
  EXPECT_FALSE(chain_cause(k_inner));
  const std::string from = std::string(k_inner) + std::string(k_direct) + std::string(k_outer);
  auto c = chain_cause(from);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->direct);
  EXPECT_EQ(c->text, k_inner.substr(0, k_inner.size() - 1));
  // Three exceptions: the last separator, here "During handling".
  const std::string three = from + std::string(k_during) + std::string(k_outer);
  c = chain_cause(three);
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->direct);
  EXPECT_EQ(c->text, from.substr(0, from.size() - 1));
  // A message quoting the separator on its only line is no chain.
  EXPECT_FALSE(chain_cause("ValueError: The above exception was the direct cause of the following exception: x"));
}

TEST(ChainCause, AnUnexplainedLastExceptionGivesWayToTheNearestExplainedCause) {
  const Matcher m = Matcher::build({rec("k", "KeyError", "bad key", "pkg/store.py", 10),
                                    rec("v", "ValueError", "the value is wrong", "pkg/check.py", 4)});
  const std::string from = std::string(k_inner) + std::string(k_direct) + std::string(k_outer);
  MatchResult last = m.match(from, 3);
  EXPECT_TRUE(unexplained(last));
  auto cause = match_cause(answer(m), from, last);
  ASSERT_TRUE(cause);
  EXPECT_TRUE(cause->direct);
  EXPECT_EQ(cause->depth, 1);
  ASSERT_FALSE(cause->result.candidates.empty());
  EXPECT_EQ(cause->result.candidates.front().index, 0u);

  // Two up: the middle exception is unexplained too.
  const std::string three = from + std::string(k_during) + std::string(k_outer);
  cause = match_cause(answer(m), three, m.match(three, 3));
  ASSERT_TRUE(cause);
  EXPECT_EQ(cause->depth, 2);
  EXPECT_TRUE(cause->direct);  // the separator passed last on the way up
  EXPECT_EQ(cause->result.candidates.front().index, 0u);

  // An explained last exception keeps its answer alone.
  const std::string explained = std::string(k_outer) + std::string(k_during) +
                                "Traceback (most recent call last):\n"
                                "  File \"/venv/lib/python3.11/site-packages/pkg/check.py\", line 4, in check\n"
                                "    raise ValueError('the value is wrong')\n"
                                "ValueError: the value is wrong\n";
  MatchResult own = m.match(explained, 3);
  EXPECT_FALSE(unexplained(own));
  EXPECT_FALSE(match_cause(answer(m), explained, own));

  // No cause explained either: nothing.
  const std::string neither = std::string(k_outer) + std::string(k_direct) + std::string(k_outer);
  EXPECT_FALSE(match_cause(answer(m), neither, m.match(neither, 3)));
}

// Node prints the cause inside the error's properties (`new Error(msg,
// {cause})`), as node 20 printed this one.
TEST(ChainCause, ANodeErrorsCauseIsItsBracketedCause) {
  const std::string stack =
      "/tmp/me/node/app.js:2\n"
      "try { pkg.get('x'); } catch (e) { throw new Error('config is broken', { cause: e }); }\n"
      "                                  ^\n"
      "\n"
      "Error: config is broken\n"
      "    at Object.<anonymous> (/tmp/me/node/app.js:2:41)\n"
      "    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n"
      "    ... 4 lines matching cause stack trace ...\n"
      "    at node:internal/main/run_main_module:28:49 {\n"
      "  [cause]: RangeError: bad key x\n"
      "      at Object.get (/tmp/me/node/node_modules/pkg/index.js:2:9)\n"
      "      at Object.<anonymous> (/tmp/me/node/app.js:2:11)\n"
      "      at Module._compile (node:internal/modules/cjs/loader:1521:14)\n"
      "      at node:internal/main/run_main_module:28:49\n"
      "}\n"
      "\n"
      "Node.js v20.20.2\n";
  auto c = chain_cause(stack);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->direct);
  EXPECT_TRUE(c->text.starts_with("RangeError: bad key x\n      at Object.get ("));
  // Quoted in a message, on a line with other text before it: no cause.
  EXPECT_FALSE(chain_cause("Error: see [cause]: x\n    at f (/a.js:1:1)\n"));

  model::ErrorRecord r = rec("r", "RangeError", "bad key (.+?)", "index.js", 2);
  r.error_message = "bad key {key}";
  r.repo = "npm/pkg";
  const Matcher m = Matcher::build({r, rec("v", "Error", "the value is wrong", "check.js", 4)});
  MatchResult last = m.match(stack, 3);
  EXPECT_TRUE(unexplained(last));
  auto cause = match_cause(answer(m), stack, last);
  ASSERT_TRUE(cause);
  ASSERT_FALSE(cause->result.candidates.empty());
  EXPECT_EQ(cause->result.candidates.front().index, 0u);
  EXPECT_EQ(cause->result.exception.error_class, "RangeError");
}

// json's C scanner raises under the innermost frame (`self.scan_once(s,
// idx)`): no site raises there, but its Python twin prints the same class
// and message. With nothing up the chain explained, that cause is named.
TEST(ChainCause, ACauseRaisedByCCodeIsNamedByASitePrintingItsMessage) {
  const Matcher m = Matcher::build(
      {rec("j", "JSONDecodeError", "Expecting property name enclosed in double quotes", "pkg/decoder.py", 163),
       rec("k", "JSONDecodeError", "Extra data", "pkg/decoder.py", 340)});
  const std::string inner =
      "Traceback (most recent call last):\n"
      "  File \"/home/me/app.py\", line 5, in load\n"
      "    return pkg.loads(text)\n"
      "  File \"/venv/lib/python3.11/site-packages/pkg/decoder.py\", line 353, in raw_decode\n"
      "    obj, end = self.scan_once(s, idx)\n"
      "pkg.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)\n";
  MatchResult below = m.match(inner, 3);
  ASSERT_TRUE(below.raised_below);
  EXPECT_FALSE(explains(below));
  EXPECT_TRUE(echoes_below(below));
  EXPECT_EQ(below.candidates.front().index, 0u);

  const std::string from = inner + std::string(k_direct) + std::string(k_outer);
  MatchResult last = m.match(from, 3);
  EXPECT_TRUE(unexplained(last));
  auto cause = match_cause(answer(m), from, last);
  ASSERT_TRUE(cause);
  EXPECT_EQ(cause->depth, 1);
  EXPECT_TRUE(cause->result.raised_below);
  EXPECT_EQ(cause->result.candidates.front().index, 0u);

  // An explained cause further up comes first.
  const std::string explained =
      "Traceback (most recent call last):\n"
      "  File \"/venv/lib/python3.11/site-packages/pkg/decoder.py\", line 340, in decode\n"
      "    raise JSONDecodeError(\"Extra data\", s, end)\n"
      "pkg.decoder.JSONDecodeError: Extra data: line 1 column 5 (char 4)\n" +
      std::string(k_during) + from;
  cause = match_cause(answer(m), explained, m.match(explained, 3));
  ASSERT_TRUE(cause);
  EXPECT_EQ(cause->depth, 2);
  EXPECT_FALSE(cause->result.raised_below);
  EXPECT_EQ(cause->result.candidates.front().index, 1u);

  // Raised below a frame, with only the class agreeing: no site is named.
  const std::string other =
      "Traceback (most recent call last):\n"
      "  File \"/venv/lib/python3.11/site-packages/pkg/decoder.py\", line 353, in raw_decode\n"
      "    obj, end = self.scan_once(s, idx)\n"
      "pkg.decoder.JSONDecodeError: Unterminated string starting at: line 1 column 2 (char 1)\n" +
      std::string(k_direct) + std::string(k_outer);
  EXPECT_FALSE(match_cause(answer(m), other, m.match(other, 3)));
}

}  // namespace
}  // namespace errdex::match
