// The matcher over small hand-made indexes: captures, message quirks,
// ranking order, ties, fallbacks, threads, hostile inputs.
#include "match/matcher.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <thread>

#include "match/matcher_index.h"
#include "match/path_suffix.h"
#include "match/pattern_text.h"

namespace errdex::match {
namespace {

model::ErrorRecord rec(std::string id, std::string cls, std::string message, std::string pattern, std::string file,
                       int line) {
  model::ErrorRecord r;
  r.id = std::move(id);
  r.repo = "o/r";
  r.error_class = std::move(cls);
  r.error_message = std::move(message);
  r.message_pattern = std::move(pattern);
  r.file_path = std::move(file);
  r.line_number = line;
  return r;
}

std::vector<model::ErrorRecord> sample() {
  return {
      rec("a0", "ValueError", "The batch size is not consistent across layers: {values}",
          "The batch size is not consistent across layers: (.+?)", "src/transformers/cache_utils.py", 1641),
      rec("a1", "KeyError", "bad key", "bad key", "pkg/store.py", 10),
      rec("a2", "JSONDecodeError", "Expecting value", "Expecting value", "json/decoder.py", 355),
      rec("a3", "FileNotFoundError", "No such file or directory: {path!r}", "No such file or directory: (.+?)",
          "pkg/fs.py", 20),
      rec("a4", "ValueError", "{msg}", "(.+?)", "pkg/util.py", 5),
      rec("a5", "TypeError", "expected {n} values, got {m}", "expected (-?\\d+) values, got (-?\\d+)", "pkg/a.py", 7),
      rec("a6", "TypeError", "expected {n} values, got {m}", "expected (-?\\d+) values, got (-?\\d+)", "pkg/b.py", 9),
      rec("a7", "ValueError", "expected {what}", "expected (.+?)", "pkg/c.py", 3),
      rec("a8", "RuntimeError", "broken (", "broken (", "pkg/bad.py", 4),  // RE2 rejects it
  };
}

const Matcher& shared() {
  static const Matcher m = Matcher::build(sample());
  return m;
}

std::string top_id(const MatchResult& r) { return r.candidates.empty() ? "" : std::string(r.candidates.front().id); }
std::pair<std::string, std::string> pair_of(const Capture& c) { return {std::string(c.name), std::string(c.value)}; }

TEST(Matcher, CapturesAreNamedAfterInterpolations) {
  auto r = shared().match("ValueError: The batch size is not consistent across layers: [2, 3]");
  ASSERT_EQ(top_id(r), "a0");
  EXPECT_FALSE(r.ambiguous);
  ASSERT_EQ(r.candidates[0].captures.size(), 1u);
  EXPECT_EQ(r.candidates[0].captures[0].name, "values");
  EXPECT_EQ(r.candidates[0].captures[0].value, "[2, 3]");
  EXPECT_TRUE(r.candidates[0].reasons.pattern);
  // The result holds its captures' text: a moved result, outliving the
  // message it was asked and the matcher, still reads them.
  std::string message = "TypeError: expected 3 values, got 4";
  MatchResult moved;
  {
    Matcher own = Matcher::build(sample());
    MatchResult first = own.match(message);
    message.assign(message.size(), '#');
    moved = std::move(first);
    std::memset(first.inline_block, '#', MatchResult::k_inline);
  }
  ASSERT_FALSE(moved.candidates.empty());
  ASSERT_EQ(moved.candidates[0].captures.size(), 2u);
  EXPECT_EQ(pair_of(moved.candidates[0].captures[0]), (std::pair<std::string, std::string>{"n", "3"}));
  EXPECT_EQ(pair_of(moved.candidates[0].captures[1]), (std::pair<std::string, std::string>{"m", "4"}));
  EXPECT_TRUE(r.candidates[0].reasons.error_class);
}

// The exception explained, the ones chained before it and the frames are
// the result's own: they outlive the pasted text and the matcher.
TEST(Matcher, ResultHoldsTheParsedExceptions) {
  std::string text =
      "Traceback (most recent call last):\n"
      "  File \"/src/pkg/a.py\", line 7, in f\n"
      "KeyError: 'k'\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/src/pkg/a.py\", line 7, in g\n"
      "TypeError: expected 3 values, got 4\n";
  MatchResult r;
  {
    Matcher own = Matcher::build(sample());
    r = own.match(text);
    text.assign(text.size(), '#');
  }
  EXPECT_EQ(r.exception.error_class, "TypeError");
  EXPECT_EQ(r.exception.message, "expected 3 values, got 4");
  ASSERT_EQ(r.chained.size(), 1u);
  EXPECT_EQ(r.chained[0].error_class, "KeyError");
  EXPECT_EQ(r.chained[0].message, "'k'");
  ASSERT_EQ(r.frames.size(), 1u);
  EXPECT_EQ(r.frames[0].file, "/src/pkg/a.py");
  EXPECT_EQ(r.frames[0].function, "g");
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(r.candidates[0].index, 5u);  // a5 (its id is the matcher's, gone with it)
  ASSERT_EQ(r.candidates[0].captures.size(), 2u);
  EXPECT_EQ(r.candidates[0].captures[1].value, "4");
  // A single line: the class and message are copied out of it too.
  std::string line = "ValueError: The batch size is not consistent across layers: [2, 3]";
  MatchResult one = shared().match(line);
  line.assign(line.size(), '#');
  EXPECT_EQ(one.exception.error_class, "ValueError");
  EXPECT_EQ(one.exception.message, "The batch size is not consistent across layers: [2, 3]");
  EXPECT_TRUE(one.chained.empty());
}

// A paste of thousands of chained exceptions (a handler that raises in
// its own retry loop) gave a `chained` list as long as the paste: the
// answer keeps the chain's first and last exceptions and counts the rest.
TEST(Matcher, ALongChainIsBoundedAndSaysHowManyWereLeftOut) {
  const std::size_t n = 3000;
  std::string text;
  for (std::size_t i = 0; i < n; ++i)
    text += "Traceback (most recent call last):\n  File \"/src/pkg/a.py\", line 7, in f\nKeyError: 'k" +
            std::to_string(i) + "'\n\nDuring handling of the above exception, another exception occurred:\n\n";
  text += "Traceback (most recent call last):\n  File \"/src/pkg/a.py\", line 7, in g\n"
          "TypeError: expected 3 values, got 4\n";
  MatchResult r = shared().match(text);
  EXPECT_EQ(r.exception.message, "expected 3 values, got 4");
  ASSERT_EQ(r.chained.size(), MatchResult::k_max_chained);
  EXPECT_EQ(r.chained_left_out, n - MatchResult::k_max_chained);
  EXPECT_EQ(r.chained.front().message, "'k0'");
  EXPECT_EQ(r.chained[MatchResult::k_max_chained / 2 - 1].message,
            "'k" + std::to_string(MatchResult::k_max_chained / 2 - 1) + "'");
  EXPECT_EQ(r.chained[MatchResult::k_max_chained / 2].message,
            "'k" + std::to_string(n - MatchResult::k_max_chained / 2) + "'");
  EXPECT_EQ(r.chained.back().message, "'k" + std::to_string(n - 1) + "'");
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(r.candidates[0].index, 5u);
  // A chain that fits is whole, and a moved result keeps the count.
  MatchResult moved = std::move(r);
  EXPECT_EQ(moved.chained_left_out, n - MatchResult::k_max_chained);
  EXPECT_EQ(shared().match("KeyError: 'a'\n\nDuring handling of the above exception, another exception occurred:\n\n"
                           "TypeError: expected 3 values, got 4\n")
                .chained_left_out,
            0u);
}

// A pool's copy of a worker's exception is explained by the worker's
// traceback, printed before it: the copy's last frame only hands it on.
// Without such a frame, or such a traceback, the last printed is explained.
TEST(Matcher, AnExceptionHandedOnIsExplainedWhereItWasRaised) {
  const std::string worker =
      "multiprocessing.pool.RemoteTraceback: \n"
      "\"\"\"\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3.11/multiprocessing/pool.py\", line 125, in worker\n"
      "    result = (True, func(*args, **kwds))\n"
      "  File \"/srv/pkg/a.py\", line 7, in f\n"
      "    raise TypeError(f'expected {n} values, got {m}')\n"
      "TypeError: expected 3 values, got 4\n"
      "\"\"\"\n"
      "\n"
      "The above exception was the direct cause of the following exception:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/srv/main.py\", line 6, in <module>\n"
      "    pool.map(f, [3])\n"
      "  File \"/usr/lib/python3.11/multiprocessing/pool.py\", line 774, in get\n";
  auto r = shared().match(worker + "    raise self._value\nTypeError: expected 3 values, got 4\n");
  EXPECT_EQ(top_id(r), "a5");  // pkg/a.py:7, by the worker's frame
  EXPECT_TRUE(r.candidates.front().reasons.frame_line);
  ASSERT_EQ(r.frames.size(), 2u);
  EXPECT_EQ(r.frames.back().file, "/srv/pkg/a.py");
  ASSERT_EQ(r.chained.size(), 1u);  // the copy
  EXPECT_EQ(r.chained[0].message, "expected 3 values, got 4");
  // A new exception raised there, or another message: the last printed.
  for (std::string tail : {"    raise TypeError(x)\nTypeError: expected 3 values, got 4\n",
                           "    raise self._value\nTypeError: expected 3 values, got 5\n"}) {
    auto other = shared().match(worker + tail);
    EXPECT_EQ(other.frames.back().file, "/usr/lib/python3.11/multiprocessing/pool.py") << tail;
    EXPECT_EQ(other.chained.size(), 1u);
  }
}

// Names come from the record's own template; where it does not name one
// interpolation per group, the groups are numbered from 1.
TEST(Matcher, CapturesAreNumberedWhenTheTemplateDoesNotNameEachGroup) {
  auto m = Matcher::build({
      rec("n0", "ValueError", "expected {n} of {kind}", "expected (.+?) of (.+?)", "pkg/n0.py", 1),
      rec("n1", "TypeError", "expected {n} of {kind}", "expected (.+?) of (.+?)", "pkg/n1.py", 1),
      rec("n2", "KeyError", "lost {key}", "lost (.+?) in (.+?)", "pkg/n2.py", 1),
  });
  for (std::string id : {"n0", "n1"}) {
    auto r = m.match((id == "n0" ? "ValueError" : "TypeError") + std::string(": expected 3 of ints"));
    ASSERT_EQ(top_id(r), id);
    ASSERT_EQ(r.candidates[0].captures.size(), 2u);
    EXPECT_EQ(pair_of(r.candidates[0].captures[0]), (std::pair<std::string, std::string>{"n", "3"}));
    EXPECT_EQ(pair_of(r.candidates[0].captures[1]), (std::pair<std::string, std::string>{"kind", "ints"}));
  }
  auto r = m.match("KeyError: lost 'k' in table");
  ASSERT_EQ(top_id(r), "n2");
  ASSERT_EQ(r.candidates[0].captures.size(), 2u);
  EXPECT_EQ(pair_of(r.candidates[0].captures[0]), (std::pair<std::string, std::string>{"1", "'k'"}));
  EXPECT_EQ(pair_of(r.candidates[0].captures[1]), (std::pair<std::string, std::string>{"2", "table"}));
}

TEST(Matcher, PythonMessageQuirks) {
  // KeyError prints its argument's repr.
  EXPECT_EQ(top_id(shared().match("KeyError: 'bad key'")), "a1");
  // JSONDecodeError formats its own str after the template.
  EXPECT_EQ(top_id(shared().match("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)")), "a2");
  // OSError with errno.
  auto r = shared().match("FileNotFoundError: [Errno 2] No such file or directory: 'x.txt'");
  ASSERT_EQ(top_id(r), "a3");
  ASSERT_FALSE(r.candidates[0].captures.empty());
  EXPECT_EQ(r.candidates[0].captures[0].value, "'x.txt'");
}

// A class that prints a code of its own before the text it was given
// (moto's `{code}: {message}`): the site whose pattern is that text, to the
// end, is the answer, not one whose whole pattern is the code.
TEST(Matcher, AMessageAfterACodeItsClassPrintsIsTheSitesText) {
  const Matcher m = Matcher::build(
      {rec("c1", "ValidationError", "ValidationException", "ValidationException", "moto/networkmanager/models.py", 404),
       rec("c2", "ValidationError", "Could not find model '{arn}'.", "Could not find model '(.+?)'\\.", "moto/sagemaker/models.py",
           2980)});
  auto r = m.match("moto.sagemaker.exceptions.ValidationError: ValidationException: Could not find model 'arn:x'.");
  ASSERT_EQ(top_id(r), "c2");
  EXPECT_FALSE(r.ambiguous);
  ASSERT_EQ(r.candidates[0].captures.size(), 1u);
  EXPECT_EQ(r.candidates[0].captures[0].value, "arn:x");
  EXPECT_EQ(top_id(m.match("ValidationError: ValidationException")), "c1");
}

// A pattern whose fixed text is blanks only (moto's `{message} {" ".join(...)}`)
// fits any message with a blank; a site whose words the message shares, but
// whose pattern does not explain it (one line of a message joined from
// several), is the better answer. Punctuation (`{mock}.{name}`) is a layout.
TEST(Matcher, AWordlessPatternRanksBelowSharedWords) {
  const Matcher m = Matcher::build(
      {rec("a1", "ValueError", "{message} {detail}", "(.+?) (.+?)", "moto/dynamodb/comparisons.py", 920),
       rec("a2", "ValueError", "Generalized coordinate \"{q}\" is not a dynamicsymbol.\nGeneralized speed \"{u}\" is not a dynamicsymbol.",
           "Generalized coordinate \"(.+?)\" is not a dynamicsymbol\.\nGeneralized speed \"(.+?)\" is not a dynamicsymbol\.",
           "sympy/physics/mechanics/functions.py", 728)});
  auto r = m.match("ValueError: Generalized coordinate \"5\" is not a dynamicsymbol.");
  ASSERT_EQ(top_id(r), "a2");
  EXPECT_FALSE(r.ambiguous);
  // Among patterns alone, its fixed text still ranks above placeholders.
  const Matcher few = Matcher::build({rec("a1", "ValueError", "{message} {detail}", "(.+?) (.+?)", "moto/dynamodb/comparisons.py", 920),
                                      rec("a3", "ValueError", "{name}", "(.+?)", "pkg/a.py", 3),
                                      rec("a4", "ValueError", "{mock}.{name}", "(.+?)\\.(.+?)", "unittest/mock.py", 1026)});
  r = few.match("ValueError: bad value");
  EXPECT_EQ(top_id(r), "a1");
  EXPECT_FALSE(r.ambiguous);
  r = few.match("ValueError: mock.x");
  EXPECT_EQ(top_id(r), "a4");
  EXPECT_FALSE(r.ambiguous);
}

// A stored pattern whose fixed text begins or ends with blanks (a space, an
// escaped line break) against the message a traceback prints, which is read
// trimmed: the pattern is read the same way (detail::edge_trimmed).
TEST(EdgeTrimmed, DropsTheBlanksAtEitherEndOnly) {
  EXPECT_EQ(detail::edge_trimmed(" specify (.+?)\\. If"), "specify (.+?)\\. If");
  EXPECT_EQ(detail::edge_trimmed("\\n   An attempt (.+?)\\n        "), "An attempt (.+?)");
  EXPECT_EQ(detail::edge_trimmed("message: (.+?)\\n"), "message: (.+?)");
  // An escaped backslash before `n` is text, not a line break.
  EXPECT_EQ(detail::edge_trimmed("C:\\\\n"), "C:\\\\n");
  EXPECT_EQ(detail::edge_trimmed("a \\ b"), "a \\ b");
  EXPECT_EQ(detail::edge_trimmed("   "), "   ");
}

// sympy's `raise ValueError(" specify dummy variables for %s. If the
// function contains …" % func)` prints `ValueError:  specify …`: its own
// message, before integrals' shorter `specify dummy variables for %s`,
// whose placeholder would take the rest.
TEST(Matcher, APatternStartingWithABlankMatchesTheTrimmedMessage) {
  const Matcher m = Matcher::build(
      {rec("f", "ValueError", " specify dummy variables for {func}. If the function contains more than one free symbol",
           " specify dummy variables for (.+?)\\. If the function contains more than one free symbol", "sympy/series/fourier.py",
           71),
       rec("i", "ValueError", "specify dummy variables for {function}", "specify dummy variables for (.+?)", "sympy/concrete/expr_with_limits.py",
           66),
       rec("q", "ValueError", "Unserializable message: {result}\n", "Unserializable message: (.+?)\\n", "multiprocessing/queues.py", 266)});
  auto r = m.match("ValueError:  specify dummy variables for x*y. If the function contains more than one free symbol\n");
  ASSERT_EQ(top_id(r), "f");
  EXPECT_FALSE(r.ambiguous);
  ASSERT_EQ(r.candidates[0].captures.size(), 1u);
  EXPECT_EQ(r.candidates[0].captures[0].value, "x*y");
  // A message ending in a line break prints it, and the paste loses it.
  r = m.match("ValueError: Unserializable message: Traceback\n");
  ASSERT_EQ(top_id(r), "q");
  EXPECT_FALSE(r.ambiguous);
}

// A message wrapped over lines (sympy's `filldedent`, `textwrap.fill`) is
// matched as the one line its pattern was written as: each line break, with
// the blanks around it, one space.
TEST(Matcher, AWrappedMessageMatchesItsOneLinePattern) {
  const Matcher m = Matcher::build(
      {rec("w1", "ValueError", "All transfer functions should use the same complex variable of the Laplace transform. {n} different values found.",
           "All transfer functions should use the same complex variable of the Laplace transform\\. (.+?) different values found\\.",
           "sympy/physics/control/lti.py", 383),
       rec("w2", "ValueError", "All the transfer functions should use the same complex variable of the Laplace transform.",
           "All the transfer functions should use the same complex variable of the Laplace transform\\.", "sympy/physics/control/lti.py",
           1176)});
  auto r = m.match(
      "ValueError: \nAll transfer functions should use the same complex variable of the\nLaplace transform. 2 different values found.\n");
  ASSERT_EQ(top_id(r), "w1");
  EXPECT_FALSE(r.ambiguous);
  ASSERT_EQ(r.candidates[0].captures.size(), 1u);
  EXPECT_EQ(r.candidates[0].captures[0].value, "2");
  // Written on one line, it is the same answer.
  EXPECT_EQ(top_id(m.match("ValueError: All transfer functions should use the same complex variable of the Laplace transform. 2 "
                           "different values found.")),
            "w1");
}

// KeyError's repr with escapes: the unquoted, unescaped form is the one
// the pattern explains, found through the words of the message as printed
// (the two forms have the same words).
TEST(Matcher, EscapedReprFindsItsUnquotedPattern) {
  const Matcher m = Matcher::build({rec("q1", "KeyError", "it's {name}", "it's (.+?)", "pkg/q.py", 3),
                                    rec("q2", "KeyError", "{key}", "(.+?)", "pkg/r.py", 9)});
  auto r = m.match(R"(KeyError: 'it\'s a "quoted" key\\n')");
  ASSERT_EQ(top_id(r), "q1");
  EXPECT_TRUE(r.candidates[0].reasons.pattern);
  ASSERT_EQ(r.candidates[0].captures.size(), 1u);
  EXPECT_EQ(r.candidates[0].captures[0].value, R"(a "quoted" key\n)");
}

// A record's messageVariants are matched like its own pattern, and the
// record is one answer however many of its messages match.
TEST(Matcher, VariantsAnswerForTheirRecord) {
  auto records = sample();
  auto helper = rec("v0", "error", "{explanation}", "(.+?)", "_pydecimal.py", 4058);
  helper.message_variants = {{"sqrt(-x), x > 0", "sqrt\\(-x\\), x > 0"},
                             {"Invalid literal for Decimal: {value}", "Invalid literal for Decimal: (.+?)"},
                             {"Invalid {what}", "Invalid (.+?)"}};
  records.push_back(helper);
  // The printed class is raised bare elsewhere: a site that prints nothing
  // does not outrank a pattern that explains the message whole.
  records.push_back(rec("c0", "InvalidOperation", "", "", "_pydecimal.py", 100));
  auto m = Matcher::build(records);
  EXPECT_EQ(m.size(), records.size());
  auto r = m.match("decimal.InvalidOperation: Invalid literal for Decimal: 'x'");
  ASSERT_EQ(top_id(r), "v0");
  EXPECT_EQ(r.candidates[0].index, records.size() - 2);
  EXPECT_TRUE(r.candidates[0].reasons.pattern);
  ASSERT_EQ(r.candidates[0].captures.size(), 1u);
  EXPECT_EQ(r.candidates[0].captures[0].name, "value");
  EXPECT_EQ(r.candidates[0].captures[0].value, "'x'");
  std::set<std::string> ids;
  for (const auto& c : r.candidates) EXPECT_TRUE(ids.insert(std::string(c.id)).second) << c.id << " listed twice";
  EXPECT_FALSE(r.ambiguous);
  EXPECT_EQ(top_id(m.match("decimal.InvalidOperation: sqrt(-x), x > 0")), "v0");
}

// The answer says which of the record's messages matched: typing's
// `Too {'many' if alen > elen else 'few'} arguments` keeps `Too few` as a
// variant of the record's `Too many`, and a paste of `Too few` names the
// variant (its captures named after its interpolations), not the record's
// first message. Of two revisions holding the site, the one the frames'
// interpreter names answers with its own index of that message.
TEST(Matcher, AnswerNamesTheMessageVariantThatMatched) {
  auto site = [](std::string first, std::string other) {
    auto r = rec("t", "TypeError", "Too " + first + " arguments for {cls}; actual {alen}, expected {elen}",
                 "Too " + first + " arguments for (.+?); actual (-?\\d+), expected (-?\\d+)", "Lib/typing.py", 293);
    r.repo = "python/cpython";
    r.message_variants = {{"Too " + other + " arguments for {cls}; actual {n}, expected {elen}",
                           "Too " + other + " arguments for (.+?); actual (-?\\d+), expected (-?\\d+)"}};
    return r;
  };
  const Matcher one = Matcher::build({site("many", "few")});
  auto few = one.match("TypeError: Too few arguments for typing.Dict; actual 1, expected 2");
  ASSERT_EQ(few.candidates.size(), 1u);
  EXPECT_EQ(few.candidates[0].variant, std::optional<std::uint32_t>(0));
  ASSERT_EQ(few.candidates[0].captures.size(), 3u);
  EXPECT_EQ(few.candidates[0].captures[1].name, "n");
  auto many = one.match("TypeError: Too many arguments for typing.Dict; actual 3, expected 2");
  ASSERT_EQ(many.candidates.size(), 1u);
  EXPECT_FALSE(many.candidates[0].variant.has_value());
  EXPECT_EQ(many.candidates[0].captures[1].name, "alen");

  // v3.13.0 (preferred) writes `many` first, v3.11.7 `few`: a traceback of
  // 3.11 is answered by v3.11.7's record, whose own message matched.
  const std::vector<std::uint32_t> preference = {0, 1};
  const std::vector<std::string> refs = {"v3.13.0", "v3.11.7"};
  const Matcher two = Matcher::build({site("many", "few"), site("few", "many")}, {}, preference, refs);
  const std::string tb =
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3.11/typing.py\", line 293, in _check_generic\n"
      "TypeError: Too few arguments for typing.Dict; actual 1, expected 2\n";
  auto r = two.match(tb);
  ASSERT_EQ(r.candidates.size(), 1u);
  EXPECT_EQ(r.candidates[0].index, 1u);
  EXPECT_FALSE(r.candidates[0].variant.has_value());
  auto newer = two.match(tb.substr(0, tb.find("python3.11")) + "python3.13" + tb.substr(tb.find("python3.11") + 10));
  ASSERT_EQ(newer.candidates.size(), 1u);
  EXPECT_EQ(newer.candidates[0].index, 0u);
  EXPECT_EQ(newer.candidates[0].variant, std::optional<std::uint32_t>(0));
}

// A message that runs over lines is matched by its first line alone, as a
// user pastes it from a log or a summary (smol-toml's `Invalid TOML
// document: {message}\n\n{codeblock}`, which Node prints as `Error: Invalid
// TOML document: …` above the code block): the record answers, with the
// captures of that line, as its own message or the variant it starts. A
// site whose one-line message fits the line as well ranks first: the
// paste is all of its message, and only the start of the other's. A first
// line of placeholders says nothing and matches nothing by itself.
TEST(Matcher, TheFirstLineOfAMessageOfSeveralLinesFindsItsSite) {
  auto toml = rec("m0", "TomlError", "Invalid TOML document: {message}\n\n{codeblock}",
                  "Invalid TOML document: (.+?)\n\n(.+?)", "dist/error.js", 60);
  auto usage = rec("m1", "UsageError", "Bad option: {name}\nSee {url} for the options",
                   "Bad option: (.+?)\\nSee (.+?) for the options", "pkg/cli.py", 12);  // newline escaped, as RE2 reads it
  auto plain = rec("m2", "UsageError", "Bad option: {name}", "Bad option: (.+?)", "pkg/other.py", 40);
  auto helper = rec("m3", "ConfigError", "{detail}", "(.+?)", "pkg/config.py", 8);
  helper.message_variants = {{"no section {name}", "no section (.+?)"},
                             {"Duplicate key {key} in {table}\n  first set at line {line}",
                              "Duplicate key (.+?) in (.+?)\n  first set at line (-?\\d+)"}};
  auto bare = rec("m4", "LayoutError", "{head}:\n{body}", "(.+?):\n(.+?)", "pkg/layout.py", 3);
  auto thrown = rec("m5", "Error", "Unexpected end of input", "Unexpected end of input", "dist/parse.js", 5);
  const Matcher m = Matcher::build({toml, usage, plain, helper, bare, thrown});

  auto line = m.match("Error: Invalid TOML document: invalid value");
  ASSERT_EQ(top_id(line), "m0");
  EXPECT_TRUE(line.candidates[0].reasons.pattern);
  EXPECT_FALSE(line.ambiguous);
  EXPECT_FALSE(line.candidates[0].variant.has_value());
  ASSERT_EQ(line.candidates[0].captures.size(), 1u);
  EXPECT_EQ(pair_of(line.candidates[0].captures[0]), std::make_pair(std::string("message"), std::string("invalid value")));
  EXPECT_EQ(top_id(m.match("Error: Invalid TOML document: invalid value\n\n1: a = \n        ^\n")), "m0");

  auto one_line = m.match("pkg.UsageError: Bad option: --colour");
  ASSERT_EQ(top_id(one_line), "m2");
  EXPECT_FALSE(one_line.ambiguous);
  ASSERT_GE(one_line.candidates.size(), 2u);
  EXPECT_EQ(one_line.candidates[1].id, "m1");
  EXPECT_EQ(top_id(m.match("pkg.UsageError: Bad option: --colour\nSee https://x.org/cli for the options")), "m1");

  auto variant = m.match("ConfigError: Duplicate key 'a' in table [server]");
  ASSERT_EQ(top_id(variant), "m3");
  EXPECT_EQ(variant.candidates[0].variant, std::optional<std::uint32_t>(1));
  ASSERT_EQ(variant.candidates[0].captures.size(), 2u);
  EXPECT_EQ(variant.candidates[0].captures[1].name, "table");

  for (const auto& c : m.match("LayoutError: anything at all").candidates) EXPECT_FALSE(c.reasons.pattern) << c.id;
}

// A message that only fits a site whose message is all placeholders
// (`raise NoSuchMailboxError(self._path)`) matched that site's pattern: it
// is no full-text fallback, and weakness() says how little ties it. Full
// text alone, with the printed class raised by none of the answers, is
// `words`; a class whose sites' text does not fit is `class_only`.
TEST(Matcher, APlaceholderPatternIsWeakButNoFullTextFallback) {
  const Matcher m = Matcher::build({
      rec("p0", "NoSuchMailboxError", "{self._path}", "(.+?)", "Lib/mailbox.py", 286),
      rec("p1", "NoSuchMailboxError", "{self._path}", "(.+?)", "Lib/mailbox.py", 590),
      rec("f0", "ValueError", "mailbox folder is not empty: {path}", "mailbox folder is not empty: (.+?)",
          "Lib/mailbox.py", 400),
      rec("c0", "KeyError", "No message with key: {key}", "No message with key: (.+?)", "Lib/mailbox.py", 500),
  });
  auto r = m.match("mailbox.NoSuchMailboxError: /tmp/x");
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(top_id(r).substr(0, 1), "p");
  EXPECT_TRUE(r.candidates[0].reasons.pattern);
  EXPECT_FALSE(r.fulltext_fallback);
  EXPECT_EQ(weakness(r), Weakness::placeholders);
  EXPECT_EQ(weakness_word(weakness(r)), "placeholders");
  auto words = m.match("OSError: the mailbox folder is gone");
  ASSERT_FALSE(words.candidates.empty());
  EXPECT_TRUE(words.fulltext_fallback);
  EXPECT_EQ(weakness(words), Weakness::words);
  auto by_class = m.match("KeyError: no message for 'nope'");
  ASSERT_FALSE(by_class.candidates.empty());
  EXPECT_EQ(weakness(by_class), Weakness::class_only);
  EXPECT_EQ(weakness(m.match("KeyError: No message with key: 'nope'")), Weakness::none);
  // Fixed text of blanks and punctuation only (moto's `{message} {"
  // ".join(...)}`) is no fixed text: `int('x')`'s message, raised by C
  // code, fits it as it fits any message of two words.
  const Matcher two = Matcher::build({rec("m0", "ValueError", "{message} {detail}", "(.+?) (.+?)", "moto/parse.py", 920),
                                      rec("m1", "ValueError", "{a}: {b}", "(.+?): (.+?)", "moto/parse.py", 930)});
  auto c_code = two.match("ValueError: invalid literal for int() with base 10: 'x'");
  ASSERT_FALSE(c_code.candidates.empty());
  EXPECT_FALSE(c_code.candidates[0].reasons.pattern_text);
  EXPECT_EQ(weakness(c_code), Weakness::placeholders);
}

TEST(Matcher, FrameLineOutranksClassAndPattern) {
  // The message fits a7's pattern, but the frame says c.py is not where it
  // was raised: a4 (no constant text) at pkg/util.py:5 is.
  auto r = shared().match(
      "Traceback (most recent call last):\n"
      "  File \"/venv/lib/python3.11/site-packages/pkg/util.py\", line 5, in f\n"
      "    raise ValueError(msg)\n"
      "ValueError: expected a number\n");
  ASSERT_EQ(top_id(r), "a4");
  EXPECT_TRUE(r.candidates[0].reasons.frame);
  EXPECT_TRUE(r.candidates[0].reasons.frame_line);
  ASSERT_GE(r.candidates.size(), 2u);
  EXPECT_EQ(r.candidates[1].id, "a7");
}

TEST(Matcher, SitePackagesPathMapsToRepositoryPath) {
  auto r = shared().match(
      "Traceback (most recent call last):\n"
      "  File \"C:\\\\py\\\\Lib\\\\site-packages\\\\transformers\\\\cache_utils.py\", line 1641, in update\n"
      "ValueError: The batch size is not consistent across layers: [1]\n");
  ASSERT_EQ(top_id(r), "a0");
  EXPECT_TRUE(r.candidates[0].reasons.frame_line);
  EXPECT_EQ(suffix_agreement(path_components("/x/site-packages/transformers/cache_utils.py"),
                             path_components("src/transformers/cache_utils.py")),
            2);
  EXPECT_EQ(suffix_agreement(path_components("/x/email/__init__.py"), path_components("json/__init__.py")), 0);
  EXPECT_EQ(suffix_agreement(path_components("/usr/lib/python3.11/os.py"), path_components("os.py")), 1);
  using Parts = std::vector<std::string_view>;
  EXPECT_EQ(path_components("C:\\venv\\Lib\\site-packages/pkg//./x.py"), (Parts{"C:", "venv", "Lib", "site-packages", "pkg", "x.py"}));
  EXPECT_EQ(path_components("/a/"), (Parts{"a"}));
  EXPECT_EQ(path_components("x.py"), (Parts{"x.py"}));
  EXPECT_EQ(path_components(""), Parts{});
  EXPECT_EQ(path_components("/\\./"), Parts{});
  EXPECT_EQ(path_components("..\\a.b/c"), (Parts{"..", "a.b", "c"}));
}

// The issue behind it: with the standard library indexed as `make run`
// indexes it (--prefix Lib), a traceback from that same python3 named a
// top-level module's file by one component (`ipaddress.py`), which was never
// enough, and the three sites raising its message tied.
TEST(Matcher, InstalledTopLevelModuleMapsThroughItsImportRoot) {
  auto at = [](std::string id, std::string file, int line) {
    auto r = rec(std::move(id), "AddressValueError", "{exc} in {ip_str}", "(.+?) in (.+?)", std::move(file), line);
    r.repo = "python/cpython";
    return r;
  };
  std::vector<model::ErrorRecord> records = {at("i0", "Lib/ipaddress.py", 1207), at("i1", "Lib/ipaddress.py", 1647),
                                             at("i2", "Lib/ipaddress.py", 1719),
                                             at("t0", "Lib/test/ipaddress.py", 1719)};
  const std::string tb =
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3.11/ipaddress.py\", line 1719, in _ip_int_from_string\n"
      "    raise AddressValueError(\"%s in %r\" % (exc, ip_str)) from None\n"
      "ipaddress.AddressValueError: At most 4 characters permitted in '12345' in '12345::'\n";
  Matcher m = Matcher::build(records, ImportRoots{{"python/cpython", {"", "Lib"}}});
  auto r = m.match(tb);
  ASSERT_EQ(top_id(r), "i2");
  EXPECT_FALSE(r.ambiguous);
  EXPECT_TRUE(r.candidates[0].reasons.frame_line);
  // Lib/test is no import root: its file of the same name is not this module.
  for (const auto& c : r.candidates)
    if (c.id == "t0") EXPECT_FALSE(c.reasons.frame);
  // Windows' layout, a virtualenv and a repository not listed (the usual
  // roots: "", src, lib, Lib) read the same.
  EXPECT_EQ(top_id(Matcher::build(records).match(tb)), "i2");
  std::string win = tb;
  win.replace(win.find("/usr/lib/python3.11/"), 20, "C:\\\\Python311\\\\Lib\\\\");
  EXPECT_EQ(top_id(m.match(win)), "i2") << win;
  // Roots that do not hold the file: one component stays too weak, as before.
  Matcher other = Matcher::build(records, ImportRoots{{"python/cpython", {""}}});
  EXPECT_TRUE(other.match(tb).ambiguous);
}

// The same statement on the same line in two revisions of the standard
// library: the traceback fits both, and the interpreter its frames name
// (`lib/python3.11/`, `Python311\\Lib`) is the revision that answers.
TEST(Matcher, TheFramesInterpreterNamesTheStandardLibrarysRevision) {
  auto at = [](std::string repo) {
    auto r = rec("s", "ValueError", "No closing quotation", "No closing quotation", "Lib/shlex.py", 191);
    r.repo = std::move(repo);
    return r;
  };
  const std::vector<std::uint32_t> preference = {0, 1};
  const std::vector<std::string> refs = {"v3.13.0", "v3.11.7"};
  auto tb = [](std::string file) {
    return "Traceback (most recent call last):\n  File \"" + file +
           "\", line 191, in read_token\n    raise ValueError(\"No closing quotation\")\n"
           "ValueError: No closing quotation\n";
  };
  auto answer = [](const Matcher& m, const std::string& text) {
    auto r = m.match(text);
    EXPECT_EQ(r.candidates.size(), 1u) << text;
    if (r.candidates.empty()) return std::pair<std::size_t, std::vector<std::uint32_t>>{99, {}};
    const auto& c = r.candidates.front();
    return std::pair{c.index, std::vector<std::uint32_t>(c.revisions.begin(), c.revisions.end())};
  };
  using Answer = std::pair<std::size_t, std::vector<std::uint32_t>>;
  const std::vector<model::ErrorRecord> cpython = {at("python/cpython"), at("python/cpython")};
  const Matcher m = Matcher::build(cpython, {}, preference, refs);
  EXPECT_EQ(answer(m, tb("/usr/lib/python3.11/shlex.py")), (Answer{1, {0}}));
  EXPECT_EQ(answer(m, tb("/opt/py/lib64/python3.13t/shlex.py")), (Answer{0, {1}}));
  EXPECT_EQ(answer(m, tb("C:\\Python311\\Lib\\shlex.py")), (Answer{1, {0}}));
  // An interpreter neither revision is, or none named: the preferred one.
  EXPECT_EQ(answer(m, tb("/usr/lib/python3.12/shlex.py")), (Answer{0, {1}}));
  EXPECT_EQ(answer(m, tb("/srv/app/shlex.py")), (Answer{0, {1}}));
  // Without the revisions' names, or for another repository (its tags are
  // its own versions, not Python's): the preferred one.
  EXPECT_EQ(answer(Matcher::build(cpython, {}, preference), tb("/usr/lib/python3.11/shlex.py")), (Answer{0, {1}}));
  const Matcher other = Matcher::build({at("o/r"), at("o/r")}, {}, preference, refs);
  EXPECT_EQ(answer(other, tb("/usr/lib/python3.11/site-packages/Lib/shlex.py")), (Answer{0, {1}}));
}

TEST(PathSuffix, PythonVersionsOfPathsAndRevisions) {
  auto of_path = [](const char* p) { return python_version_of_path(path_components(p)); };
  EXPECT_EQ(of_path("/usr/lib/python3.11/ipaddress.py"), 3011u);
  EXPECT_EQ(of_path("/v/lib/python3.9/site-packages/pkg/x.py"), 3009u);
  EXPECT_EQ(of_path("/opt/py/lib64/python3.13t/os.py"), 3013u);
  EXPECT_EQ(of_path("C:\\Python311\\Lib\\os.py"), 3011u);
  EXPECT_EQ(of_path("C:\\Users\\u\\Python310\\Lib\\site-packages\\x.py"), 3010u);
  EXPECT_EQ(of_path("/usr/lib/python3/dist-packages/x.py"), 0u);  // no minor version
  EXPECT_EQ(of_path("/home/u/python3.11/x.py"), 0u);               // not under lib
  EXPECT_EQ(of_path("lib/python3/os.py"), 0u);                      // a frozen module's
  EXPECT_EQ(of_path("x.py"), 0u);
  EXPECT_EQ(python_version_of_ref("v3.11.7"), 3011u);
  EXPECT_EQ(python_version_of_ref("3.13.0"), 3013u);
  EXPECT_EQ(python_version_of_ref("v3.12"), 3012u);
  EXPECT_EQ(python_version_of_ref("v3.14.0rc1"), 3014u);
  EXPECT_EQ(python_version_of_ref("v3.14rc1"), 0u);
  EXPECT_EQ(python_version_of_ref("main"), 0u);
  EXPECT_EQ(python_version_of_ref("0123456789abcdef"), 0u);
  EXPECT_EQ(python_version_of_ref(""), 0u);
}

// Another version of the file: the frame's line holds another statement
// in the indexed file, and its own statement sits a few lines away.
TEST(Matcher, PrintedStatementFindsItsSiteOnAnotherLine) {
  auto at = [](std::string id, int line, std::string excerpt, int start) {
    auto r = rec(std::move(id), "StatisticsError", "no median for empty data", "no median for empty data",
                 "Lib/statistics.py", line);
    r.source_code = std::move(excerpt);
    r.source_code_start = start;
    return r;
  };
  std::vector<model::ErrorRecord> records = {
      at("median", 5, "def median(data):\n    n = len(data)\n    if n == 0:\n        raise StatisticsError(\"no median for empty data\")", 2),
      at("low", 9, "def median_low(data):\n    if not data:\n        raise StatisticsError(\"no median for empty data\")", 7),
      at("other", 20, "def f():\n    x = 1\n    raise StatisticsError(\"no median for empty data\")  # f", 18),
  };
  Matcher m = Matcher::build(records);
  auto tb = [](int line, const char* function, const char* source) {
    return std::string("Traceback (most recent call last):\n  File \"/usr/lib/python3.12/statistics.py\", line ") +
           std::to_string(line) + ", in " + function + "\n    " + source +
           "\nstatistics.StatisticsError: no median for empty data\n";
  };
  // Line 9 is median_low's raise here; the frame says median's statement.
  auto r = m.match(tb(9, "median", "raise StatisticsError(\"no median for empty data\")"));
  ASSERT_EQ(top_id(r), "median");
  EXPECT_FALSE(r.ambiguous);
  EXPECT_TRUE(r.candidates[0].reasons.frame_source);
  EXPECT_FALSE(r.candidates[0].reasons.frame_line);
  // The same text in two functions: the frame's function decides, not the
  // nearer line.
  EXPECT_EQ(top_id(m.match(tb(8, "median_low", "raise StatisticsError(\"no median for empty data\")"))), "low");
  EXPECT_EQ(top_id(m.match(tb(6, "median", "raise StatisticsError(\"no median for empty data\")"))), "median");
  // Its own line and text: as before.
  r = m.match(tb(20, "f", "raise StatisticsError(\"no median for empty data\")  # f"));
  ASSERT_EQ(top_id(r), "other");
  EXPECT_TRUE(r.candidates[0].reasons.frame_line);
  // No source printed (a log that keeps only the frame lines): the line
  // number is all there is, and it is believed.
  // `<module>` names no function.
  for (const char* function : {"median_low", "<module>"}) {
    std::string bare = std::string("Traceback (most recent call last):\n  File \"/usr/lib/python3.12/statistics.py\", line 9, in ") +
                       function + "\nstatistics.StatisticsError: no median for empty data\n";
    EXPECT_EQ(top_id(m.match(bare)), "low") << function;
  }
}

TEST(Matcher, SrcLayoutModuleMapsThroughItsImportRoot) {
  std::vector<model::ErrorRecord> records = {
      rec("s0", "ValueError", "bad {x}", "bad (.+?)", "src/tool.py", 3),
      rec("s1", "ValueError", "bad {x}", "bad (.+?)", "scripts/tool.py", 3),
  };
  Matcher m = Matcher::build(records, ImportRoots{{"o/r", {"", "src"}}});
  auto r = m.match(
      "Traceback (most recent call last):\n"
      "  File \"/home/u/.venv/lib/python3.12/site-packages/tool.py\", line 3, in f\n"
      "ValueError: bad input\n");
  ASSERT_EQ(top_id(r), "s0");
  EXPECT_FALSE(r.ambiguous);
}

TEST(PathSuffix, ModuleStartAfterTheInstallationsFolders) {
  auto start = [](const char* p) { return module_start(path_components(p), std::string_view(p).find('\\') != std::string_view::npos); };
  EXPECT_EQ(start("/usr/lib/python3.11/ipaddress.py"), 3);
  EXPECT_EQ(start("/usr/lib/python3.11/json/decoder.py"), 3);
  EXPECT_EQ(start("/v/lib/python3.11/site-packages/pkg/x.py"), 4);
  EXPECT_EQ(start("/usr/lib/python3/dist-packages/pkg/x.py"), 4);
  EXPECT_EQ(start("/opt/py/lib64/python3.13t/os.py"), 4);
  EXPECT_EQ(start("/x/foo-1.0-py3.11.egg/foo/x.py"), 2);
  EXPECT_EQ(start("/x/app.pyz/pkg/x.py"), 2);
  EXPECT_EQ(start("C:\\Python311\\Lib\\ipaddress.py"), 3);
  EXPECT_EQ(start("/home/u/Lib/ipaddress.py"), -1);  // Lib marks only a Windows path
  EXPECT_EQ(start("/home/u/python3.11/x.py"), -1);     // pythonX.Y only under lib
  EXPECT_EQ(start("/x/site-packages"), -1);
  EXPECT_EQ(start("x.py"), -1);
  EXPECT_EQ(module_lengths(path_components("Lib/ipaddress.py"), {"", "Lib"}), (1u << 1) | (1u << 2));
  EXPECT_EQ(module_lengths(path_components("Lib/test/x.py"), {"", "Lib"}), (1u << 2) | (1u << 3));
  EXPECT_EQ(module_lengths(path_components("x.py"), {"x.py"}), 0u);
}

TEST(PathSuffix, FrozenModulesAreTheirFiles) {
  EXPECT_EQ(frozen_module_file("<frozen os>"), "lib/python3/os.py");
  EXPECT_EQ(frozen_module_file("<frozen importlib._bootstrap>"), "lib/python3/importlib/_bootstrap.py");
  auto file = frozen_module_file("<frozen _collections_abc>");
  ASSERT_TRUE(file);
  EXPECT_EQ(module_start(path_components(*file), false), 2);  // the module path is `_collections_abc.py`
  EXPECT_EQ(frozen_module_file("/srv/app/<frozen os>"), "lib/python3/os.py");
  EXPECT_EQ(frozen_module_file("<frozen >"), std::nullopt);
  EXPECT_EQ(frozen_module_file("<frozen ../x>"), std::nullopt);
  EXPECT_EQ(frozen_module_file("<string>"), std::nullopt);
  EXPECT_EQ(frozen_module_file("/usr/lib/python3.11/os.py"), std::nullopt);
}

TEST(Matcher, ClassOutranksSpecificity) {
  // a7 "expected {what}" (ValueError) and a5/a6 (TypeError) all match.
  auto r = shared().match("ValueError: expected 2 values, got 3");
  EXPECT_EQ(top_id(r), "a7");
  auto t = shared().match("TypeError: expected 2 values, got 3");
  EXPECT_TRUE(t.ambiguous);
  ASSERT_GE(t.candidates.size(), 2u);
  EXPECT_EQ(t.candidates[0].score, t.candidates[1].score);
  std::set<std::string> tied{std::string(t.candidates[0].id), std::string(t.candidates[1].id)};
  EXPECT_EQ(tied, (std::set<std::string>{"a5", "a6"}));
}

// Sites raise variables (`raise path`, `raise exc`): in a pasted line such
// a name is no class, or a log's `path: /srv/x.json: ` would hide the
// exception after it. Lower-case class names that read as ones still count.
TEST(Matcher, RaisedVariablesAreNoClassNames) {
  auto m = Matcher::build({
      rec("v0", "path", "{path}", "(.+?)", "pkg/walk.py", 3),
      rec("v1", "exc", "{exc}", "(.+?)", "pkg/retry.py", 8),
      rec("j0", "JSONDecodeError", "Expecting value", "Expecting value", "json/decoder.py", 355),
      rec("r0", "source.error", "missing {what}", "missing (.+?)", "re/_parser.py", 750),
  });
  auto r = m.match("worker 3 failed, path: /srv/x.json: json.decoder.JSONDecodeError: Expecting value");
  EXPECT_EQ(r.exception.error_class, "json.decoder.JSONDecodeError");
  EXPECT_EQ(top_id(r), "j0");
  EXPECT_EQ(m.match("retrying, exc: 3 tries left").exception.error_class, "");
  auto e = m.match("compile failed: error: missing )");
  EXPECT_EQ(e.exception.error_class, "error");
  EXPECT_EQ(top_id(e), "r0");
}

TEST(Matcher, TiesAreListedBeyondTop) {
  auto t = shared().match("TypeError: expected 2 values, got 3", 1);
  EXPECT_TRUE(t.ambiguous);
  EXPECT_EQ(t.candidates.size(), 2u);
}

// A result's views follow it when it moves, whether its block is held
// inline (a few answers) or on the heap (a tie of a hundred).
TEST(Matcher, MovedResultsKeepTheirViews) {
  auto check_small = [](const MatchResult& r) {
    ASSERT_EQ(r.candidates.size(), 2u);
    EXPECT_EQ(r.exception.error_class, "TypeError");
    EXPECT_EQ(r.exception.message, "expected 2 values, got 3");
    for (const Candidate& c : r.candidates) {
      ASSERT_EQ(c.captures.size(), 2u);
      EXPECT_EQ(pair_of(c.captures[0]), (std::pair<std::string, std::string>{"n", "2"}));
      EXPECT_EQ(pair_of(c.captures[1]), (std::pair<std::string, std::string>{"m", "3"}));
    }
  };
  MatchResult first = shared().match("TypeError: expected 2 values, got 3", 1);
  check_small(first);
  // The moved-from block is scribbled over: a view left pointing into it
  // reads '#'.
  auto scribble = [](MatchResult& r) { std::memset(r.inline_block, '#', MatchResult::k_inline); };
  MatchResult second(std::move(first));
  EXPECT_TRUE(first.candidates.empty());
  scribble(first);
  check_small(second);
  MatchResult third;
  third = std::move(second);
  scribble(second);
  check_small(third);

  std::vector<model::ErrorRecord> many;
  for (int i = 0; i < 150; ++i)
    many.push_back(rec("t" + std::to_string(i), "LookupError", "no entry {key} in table {name}",
                       "no entry (.+?) in table (.+?)", "pkg/t" + std::to_string(i) + ".py", i + 1));
  const Matcher m = Matcher::build(many);
  MatchResult big = m.match("LookupError: no entry 'k' in table users");
  ASSERT_TRUE(big.ambiguous);
  ASSERT_EQ(big.candidates.size(), 100u);
  MatchResult moved;
  moved = std::move(big);
  ASSERT_EQ(moved.candidates.size(), 100u);
  EXPECT_EQ(moved.exception.message, "no entry 'k' in table users");
  for (const Candidate& c : moved.candidates) {
    ASSERT_EQ(c.captures.size(), 2u);
    EXPECT_EQ(c.captures[0].value, "'k'");
    EXPECT_EQ(c.captures[1].name, "name");
    EXPECT_EQ(c.captures[1].value, "users");
  }
}

TEST(Matcher, NoPatternFallsBackToFullText) {
  auto r = shared().match("SomethingError: layers batch mismatch");
  EXPECT_TRUE(r.fulltext_fallback);
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(top_id(r), "a0");
  EXPECT_TRUE(r.candidates[0].reasons.fulltext);
  auto none = shared().match("zzz qqq");
  EXPECT_TRUE(none.candidates.empty());
}

// Full text scores only the records that can rank: of each word's list the
// lightest (a record sharing one word scores less the more words of its
// own it has), and every record sharing two words or more. A heavy record
// last in both of its words' lists still wins when it shares both, and a
// tie at the best score longer than the 21 records it reaches by default
// is shown whole.
TEST(Matcher, FullTextFindsTheBestBeyondEachWordsLightestRecords) {
  std::vector<model::ErrorRecord> records;
  // Sixty records per word: the first the lightest, the others tied a
  // little heavier, and the heavy record last in both lists. Forty more
  // share one word and are all alike.
  for (int i = 0; i < 60; ++i) {
    const std::string n = std::to_string(i), more = i > 0 ? " extra" + n : "";
    records.push_back(rec("l" + n, "ValueError", "alpha light" + n + more + " {x}", "alpha light" + n + more + " (.+?)", "pkg/l.py", i + 1));
    records.push_back(rec("r" + n, "ValueError", "beta right" + n + more + " {x}", "beta right" + n + more + " (.+?)", "pkg/r.py", i + 1));
  }
  records.push_back(rec("heavy", "ValueError", "alpha beta gamma delta {x}", "alpha beta gamma delta (.+?)", "pkg/h.py", 1));
  for (int i = 0; i < 40; ++i)
    records.push_back(rec("t" + std::to_string(i), "ValueError", "omega tie" + std::to_string(i) + " {x}",
                          "omega tie" + std::to_string(i) + " (.+?)", "pkg/t.py", i + 1));
  const Matcher m = Matcher::build(records);

  MatchResult both = m.match("SomethingError: alpha beta");
  EXPECT_TRUE(both.fulltext_fallback);
  EXPECT_FALSE(both.ambiguous);
  EXPECT_EQ(top_id(both), "heavy");

  MatchResult tie = m.match("SomethingError: omega", 5);
  EXPECT_TRUE(tie.fulltext_fallback);
  EXPECT_TRUE(tie.ambiguous);
  ASSERT_EQ(tie.candidates.size(), 40u);
  std::set<std::string> ids;
  for (const Candidate& c : tie.candidates) ids.insert(std::string(c.id));
  EXPECT_EQ(ids.size(), 40u);
}

TEST(Matcher, RejectedPatternStillReachableByFrame) {
  EXPECT_EQ(shared().stats().bad_patterns, 1u);
  EXPECT_EQ(shared().stats().records, 9u);
  auto r = shared().match("Traceback (most recent call last):\n  File \"/x/pkg/bad.py\", line 4, in f\nRuntimeError: broken (\n");
  EXPECT_EQ(top_id(r), "a8");
}

TEST(Matcher, ConcurrentMatchesAgree) {
  // A large index compiles patterns on first use: threads race for them.
  std::vector<model::ErrorRecord> many;
  for (int i = 0; i < 210000; ++i)
    many.push_back(rec("id" + std::to_string(i), "ValueError", "bad thing number" + std::to_string(i) + " {x}",
                       "bad thing number" + std::to_string(i) + " (.+?)", "p/f" + std::to_string(i % 97) + ".py", i));
  Matcher m = Matcher::build(many);
  std::vector<std::thread> threads;
  std::vector<int> right(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 3000; ++i) {
        int k = (i * 7919) % 210000;
        auto r = m.match("ValueError: bad thing number" + std::to_string(k) + " 42");
        if (top_id(r) == "id" + std::to_string(k) && !r.ambiguous && !r.candidates[0].captures.empty() &&
            r.candidates[0].captures[0].value == "42")
          ++right[t];
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(right[t], 3000);
}

// More candidates than the matcher confirms (20,000): the answer says it
// was cut, even when the word that overflowed is the message's last.
TEST(Matcher, TooManyCandidatesSaysTruncated) {
  std::vector<model::ErrorRecord> records;
  for (int i = 0; i < 20500; ++i)
    records.push_back(rec("c" + std::to_string(i), "ValueError", "{n} crowded", "(.+?) crowded",
                          "pkg/m" + std::to_string(i) + ".py", 1));
  Matcher m = Matcher::build(records);
  auto r = m.match("ValueError: 7 crowded");
  EXPECT_TRUE(r.truncated);
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_TRUE(r.ambiguous);
  EXPECT_EQ(r.candidates[0].captures.size(), 1u);
  auto few = Matcher::build(std::vector<model::ErrorRecord>(records.begin(), records.begin() + 50)).match("ValueError: 7 crowded");
  EXPECT_FALSE(few.truncated);
  EXPECT_EQ(few.candidates.size(), 50u);
}

TEST(Matcher, HostileInputsFinishWithAResult) {
  const Matcher& m = shared();
  std::string big(10u << 20, 'x');
  big += "\nValueError: expected it\n";
  auto r = m.match(big);
  EXPECT_EQ(top_id(r), "a7");

  std::string bin;
  for (int i = 0; i < (1 << 20); ++i) bin += static_cast<char>((i * 131) & 0xff);
  (void)m.match(bin);  // any result; must not crash

  std::string long_message = "ValueError: expected ";
  for (int i = 0; i < 100000; ++i) long_message += "line " + std::to_string(i) + "\n";
  auto l = m.match(long_message);
  EXPECT_EQ(top_id(l), "a7");
  EXPECT_TRUE(l.truncated);  // matched on the message's first part

  std::string frames = "Traceback (most recent call last):\n";
  for (int i = 0; i < 100000; ++i) frames += "  File \"/a/pkg/util.py\", line " + std::to_string(i + 1) + ", in f\n";
  frames += "ValueError: expected 1\n";
  auto f = m.match(frames);
  EXPECT_EQ(f.frames.size(), 100000u);
  // The innermost frame's file holds a4, at another line: file agreement.
  ASSERT_EQ(top_id(f), "a4");
  EXPECT_TRUE(f.candidates[0].reasons.frame);
  EXPECT_FALSE(f.candidates[0].reasons.frame_line);
}

TEST(PatternText, WordsAndNames) {
  auto p = read_pattern("The batch size is not consistent across layers: (.+?)");
  EXPECT_EQ(p.constant_chars, 48u);
  EXPECT_EQ(p.words, (std::vector<std::string>{"The", "batch", "size", "is", "not", "consistent", "across", "layers"}));
  auto edge = read_pattern("(.+?)th item \\(of (-?\\d+)\\)");
  EXPECT_EQ(edge.words, (std::vector<std::string>{"item", "of"}));
  EXPECT_TRUE(read_pattern("a|b").unreliable);
  EXPECT_TRUE(read_pattern("(.+?)").words.empty());
  EXPECT_EQ(interpolation_names("{x!r} and {len(y):>4} {d['a:b']}"),
            (std::vector<std::string>{"x", "len(y)", "d['a:b']"}));
  EXPECT_EQ(statement_literals("x = 1\n    msg = 'bad %s'\n    raise ValueError(msg % (a,\n        'tail'))\nnext = 'no'\n",
                               10, 12),
            "bad %s tail ");
}

}  // namespace
}  // namespace errdex::match

namespace errdex::match {
namespace {

// The module agreement kept per file during a call once held 16 bits: a
// printed class of 40,000 dotted parts, each naming a directory of one
// site's path, wrapped it negative and ranked that site last.
TEST(Matcher, RegressionModuleAgreementOfAHugeDottedClass) {
  auto m = Matcher::build({rec("p", "ValueError", "m", "bad thing", "a/p.py", 1),
                           rec("q", "ValueError", "m", "bad thing", "b/q.py", 1)});
  std::string cls;
  for (int i = 0; i < 40000; ++i) cls += "a.";
  auto r = m.match(cls + "ValueError: bad thing");
  EXPECT_EQ(top_id(r), "p");
}

// A literal pattern as the matcher confirms it: its groups may be empty,
// and the blanks at its ends are not read (messages are trimmed).
std::unique_ptr<RE2> relaxed_re2(const std::string& pattern) {
  std::string relaxed = detail::edge_trimmed(pattern);
  for (auto at = relaxed.find("(.+?)"); at != std::string::npos; at = relaxed.find("(.+?)", at + 5))
    relaxed.replace(at, 5, "(.*?)");
  RE2::Options o;
  o.set_dot_nl(true);
  return std::make_unique<RE2>(relaxed, o);
}

// The best candidate for `msg` over an index of `pattern` alone is it, with
// the values RE2 captured (`sub`, group 0 first).
void expect_re2_captures(const std::string& pattern, const std::string& msg, const std::vector<re2::StringPiece>& sub) {
  auto m = Matcher::build({rec("p", "ValueError", "m", pattern, "pkg/p.py", 1)});
  auto r = m.match("ValueError: " + msg);
  ASSERT_EQ(top_id(r), "p") << pattern << " / " << msg;
  ASSERT_EQ(r.candidates[0].captures.size(), sub.size() - 1) << pattern << " / " << msg;
  for (std::size_t g = 1; g < sub.size(); ++g)
    EXPECT_EQ(r.candidates[0].captures[g - 1].value, std::string(sub[g].data(), sub[g].size()))
        << pattern << " / " << msg << " group " << g;
}

// Patterns of literal text and groups are matched without RE2: the values
// captured must be the ones RE2 gives the same pattern (groups lazy, `(.*?)`).
TEST(Matcher, LiteralPatternCapturesAgreeWithRe2) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"(.+?) is not a valid (.+?)", {"5 is not a valid E", "x is not a valid y is not a valid z", "is not a valid is not a valid x"}},
      {"a (.+?) b (.+?) b", {"a 1 b 2 b", "a b b b b b", "a  b  b b", "a x b  b"}},
      {"(.+?)(.+?)", {"abc", "a"}},
      {"key (.+?)(.+?): end", {"key k: end: end", "key : end"}},
      {"\\(x\\) (.+?)\\.", {"(x) 1.2.", "(x) ."}},
      {"start (.+?)", {"start here and there", "start  x"}},
      {"(.+?) end", {"the end end", "end end end"}},
      {"only text", {"only text"}},
      {"caf\xc3\xa9 (.+?)", {"caf\xc3\xa9 ol\xc3\xa9", "caf\xc3\xa9 x"}},
      {"tab\\t(.+?)", {"tab\tv"}},
  };
  for (const auto& [pattern, messages] : cases) {
    auto re = relaxed_re2(pattern);
    ASSERT_TRUE(re->ok()) << pattern;
    for (const auto& msg : messages) {
      std::vector<re2::StringPiece> sub(static_cast<std::size_t>(re->NumberOfCapturingGroups()) + 1);
      ASSERT_TRUE(re->Match(msg, 0, msg.size(), RE2::ANCHOR_BOTH, sub.data(), static_cast<int>(sub.size())))
          << pattern << " / " << msg;
      expect_re2_captures(pattern, msg, sub);
    }
  }
}

// A message the pattern explains only from its start or somewhere inside
// it: the captures are still RE2's, from where RE2's leftmost match is.
TEST(Matcher, LiteralPatternPartialCapturesAgreeWithRe2) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"a (.+?) b", {"a 1 b tail", "a 1 b 2 b tail", "za a 1 b b", "x a  b"}},
      {"(.+?) end", {"the end end tail", "end end x"}},
      {"key (.+?)(.+?): end", {"key k: end: end more", "see key k: end"}},
      {"start (.+?) mid (.+?)", {"x start a mid b", "go start a mid mid b"}},
      {"\\(x\\) (.+?)\\.", {"(x) 1.2. and more", "then (x) y. z"}},
  };
  for (const auto& [pattern, messages] : cases) {
    auto re = relaxed_re2(pattern);
    ASSERT_TRUE(re->ok()) << pattern;
    for (const auto& msg : messages) {
      std::vector<re2::StringPiece> sub(static_cast<std::size_t>(re->NumberOfCapturingGroups()) + 1);
      const int n = static_cast<int>(sub.size());
      // The matcher's order: whole, from the start, anywhere.
      ASSERT_FALSE(re->Match(msg, 0, msg.size(), RE2::ANCHOR_BOTH, nullptr, 0)) << pattern << " / " << msg;
      ASSERT_TRUE(re->Match(msg, 0, msg.size(), RE2::ANCHOR_START, sub.data(), n) ||
                  re->Match(msg, 0, msg.size(), RE2::UNANCHORED, sub.data(), n))
          << pattern << " / " << msg;
      expect_re2_captures(pattern, msg, sub);
    }
  }
}

// A `%d` interpolation's `(-?\\d+)` is matched without RE2 where the
// walk that places each literal run at its first occurrence fits; where it
// does not, RE2 decides. Random patterns of literal runs, `(.+?)` and
// `(-?\\d+)` over random messages: the matcher agrees with RE2 on whether
// the pattern explains the whole message, and on what it captures.
// Whether a literal pattern explains a message whole, from its start or
// only somewhere inside it decides how much its constant text counts (all
// of it from the start, a quarter inside): the matcher's walks must agree
// with RE2's anchors. With the class agreeing and the pattern specific, a
// record's score is then exactly k_class + 4 per constant char + the kind
// (3 whole, 2 from the start); inside it, a quarter of that and the few
// full-text points a one-record index gives.
TEST(Matcher, LiteralPatternAnchoringAgreesWithRe2) {
  std::mt19937 rng(7);
  const std::vector<std::string> pattern_items = {"(.+?)", "kw", "ab", " ", "-"};
  // Messages of whole words with separators between them: the matcher
  // looks words up whole, RE2 would find "kw" inside "xkw" too.
  const std::vector<std::string> words = {"kw", "ab", "x"}, separators = {" ", "-", " - "};
  int whole = 0, start = 0, inside = 0, none = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string pattern;
    for (int k = 1 + static_cast<int>(rng() % 4); k > 0; --k) pattern += pattern_items[rng() % pattern_items.size()];
    if (pattern.find("kw") == std::string::npos) pattern.insert(rng() % 2 ? 0 : pattern.size(), "kw");
    std::string msg = words[rng() % words.size()];
    for (int k = static_cast<int>(rng() % 4); k > 0; --k)
      msg += separators[rng() % separators.size()] + words[rng() % words.size()];
    auto re = relaxed_re2(pattern);
    ASSERT_TRUE(re->ok()) << pattern;
    auto m = Matcher::build({rec("p", "ValueError", "m", pattern, "pkg/p.py", 1)});
    auto r = m.match("ValueError: " + msg);
    const Candidate* p = r.candidates.empty() ? nullptr : &r.candidates[0];
    const double cc = static_cast<double>(read_pattern(detail::edge_trimmed(pattern)).constant_chars);
    const double specific = 1e6 + 4 * cc;
    if (re->Match(msg, 0, msg.size(), RE2::ANCHOR_BOTH, nullptr, 0)) {
      ++whole;
      ASSERT_TRUE(p && p->reasons.pattern) << pattern << " / " << msg;
      EXPECT_DOUBLE_EQ(p->score, specific + 3) << pattern << " / " << msg;
    } else if (re->Match(msg, 0, msg.size(), RE2::ANCHOR_START, nullptr, 0)) {
      ++start;
      ASSERT_TRUE(p && p->reasons.pattern) << pattern << " / " << msg;
      EXPECT_DOUBLE_EQ(p->score, specific + 2) << pattern << " / " << msg;
    } else if (re->Match(msg, 0, msg.size(), RE2::UNANCHORED, nullptr, 0)) {
      ++inside;
      ASSERT_TRUE(p && p->reasons.pattern) << pattern << " / " << msg;
      EXPECT_LT(p->score, specific + 1) << pattern << " / " << msg;
      EXPECT_GT(p->score, 1e6 + cc) << pattern << " / " << msg;
    } else {
      ++none;
      EXPECT_FALSE(p && p->reasons.pattern) << pattern << " / " << msg;
    }
  }
  // Every outcome was exercised.
  EXPECT_GT(whole, 100);
  EXPECT_GT(start, 100);
  EXPECT_GT(inside, 100);
  EXPECT_GT(none, 100);
}

TEST(Matcher, IntegerGroupsAgreeWithRe2) {
  std::mt19937 rng(11);
  const std::string lit = "ab-1 ", text = "ab-12 x";
  int whole = 0, start = 0, none = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string pattern = "kw ";
    for (int k = 1 + static_cast<int>(rng() % 5); k > 0; --k) {
      switch (rng() % 3) {
        case 0: pattern += "(.+?)"; break;
        case 1: pattern += "(-?\\d+)"; break;
        default: pattern += lit[rng() % lit.size()]; break;
      }
    }
    std::string msg = "kw ";
    for (int k = static_cast<int>(rng() % 9); k > 0; --k) msg += text[rng() % text.size()];
    while (msg.back() == ' ') msg.pop_back();  // a pasted line is read trimmed
    auto re = relaxed_re2(pattern);
    ASSERT_TRUE(re->ok()) << pattern;
    std::vector<re2::StringPiece> sub(static_cast<std::size_t>(re->NumberOfCapturingGroups()) + 1);
    const int n = static_cast<int>(sub.size());
    auto m = Matcher::build({rec("p", "ValueError", "m", pattern, "pkg/p.py", 1)});
    auto r = m.match("ValueError: " + msg);
    const Candidate* p = nullptr;
    for (const auto& c : r.candidates)
      if (c.id == "p") p = &c;
    if (re->Match(msg, 0, msg.size(), RE2::ANCHOR_BOTH, sub.data(), n)) {
      ++whole;
      ASSERT_TRUE(p && p->reasons.pattern) << pattern << " / " << msg;
      ASSERT_EQ(p->captures.size(), sub.size() - 1) << pattern << " / " << msg;
      for (std::size_t g = 1; g < sub.size(); ++g)
        EXPECT_EQ(p->captures[g - 1].value, std::string(sub[g].data() ? sub[g].data() : "", sub[g].size()))
            << pattern << " / " << msg << " group " << g;
    } else if (re->Match(msg, 0, msg.size(), RE2::ANCHOR_START, sub.data(), n)) {
      // A match from the start only: when the matcher has it (a word of
      // the pattern may stand inside a longer word of the message, "1" in
      // "111", which the word index does not look up), its groups are the
      // ones RE2 takes there.
      if (!p || !p->reasons.pattern) continue;
      ++start;
      ASSERT_EQ(p->captures.size(), sub.size() - 1) << pattern << " / " << msg;
      for (std::size_t g = 1; g < sub.size(); ++g)
        EXPECT_EQ(p->captures[g - 1].value, std::string(sub[g].data() ? sub[g].data() : "", sub[g].size()))
            << pattern << " / " << msg << " group " << g << " (from the start)";
    } else if (!re->Match(msg, 0, msg.size(), RE2::UNANCHORED, nullptr, 0)) {
      ++none;
      EXPECT_FALSE(p && p->reasons.pattern) << pattern << " / " << msg;
    }
  }
  // Every outcome was exercised, not only one.
  EXPECT_GT(whole, 200);
  EXPECT_GT(start, 100);
  EXPECT_GT(none, 200);
}

// Patterns that open with a group, a `(-?\\d+)` or the keyed word, and
// messages with text before the keyed word: whether the pattern matches
// whole, from the start, inside or not at all is RE2's answer, found
// without RE2 (each run placed where it occurs, the first anywhere) when
// the first-occurrence walk does not fit.
TEST(Matcher, IntegerGroupsAnywhereAgreeWithRe2) {
  std::mt19937 rng(13);
  const std::string lit = "ab-1 ", text = "ab-12 x";
  int whole = 0, start = 0, inside = 0, none = 0;
  for (int round = 0; round < 6000; ++round) {
    std::string pattern;
    switch (rng() % 3) {
      case 0: pattern = "(.+?) "; break;
      case 1: pattern = "(-?\\d+) "; break;
      default: break;
    }
    pattern += "kw ";
    for (int k = 1 + static_cast<int>(rng() % 4); k > 0; --k) {
      switch (rng() % 3) {
        case 0: pattern += "(.+?)"; break;
        case 1: pattern += "(-?\\d+)"; break;
        default: pattern += lit[rng() % lit.size()]; break;
      }
    }
    std::string msg;
    for (int k = static_cast<int>(rng() % 6); k > 0; --k) msg += text[rng() % text.size()];
    msg += msg.empty() ? "kw " : " kw ";
    for (int k = static_cast<int>(rng() % 9); k > 0; --k) msg += text[rng() % text.size()];
    while (!msg.empty() && msg.front() == ' ') msg.erase(0, 1);  // a pasted line is read trimmed
    while (!msg.empty() && msg.back() == ' ') msg.pop_back();
    auto re = relaxed_re2(pattern);
    ASSERT_TRUE(re->ok()) << pattern;
    auto m = Matcher::build({rec("p", "ValueError", "m", pattern, "pkg/p.py", 1)});
    auto r = m.match("ValueError: " + msg);
    const Candidate* p = nullptr;
    for (const auto& c : r.candidates)
      if (c.id == "p" && c.reasons.pattern) p = &c;
    const double cc = static_cast<double>(read_pattern(detail::edge_trimmed(pattern)).constant_chars);
    const double specific = 1e6 + 4 * cc;
    // A word of the pattern may stand inside a longer word of the message
    // ("1" in "12"), which the word index does not look up: only a whole
    // match is sure to be found, and none is never found.
    if (re->Match(msg, 0, msg.size(), RE2::ANCHOR_BOTH, nullptr, 0)) {
      ++whole;
      ASSERT_TRUE(p) << pattern << " / " << msg;
      EXPECT_DOUBLE_EQ(p->score, specific + 3) << pattern << " / " << msg;
    } else if (re->Match(msg, 0, msg.size(), RE2::ANCHOR_START, nullptr, 0)) {
      if (!p) continue;
      ++start;
      EXPECT_DOUBLE_EQ(p->score, specific + 2) << pattern << " / " << msg;
    } else if (re->Match(msg, 0, msg.size(), RE2::UNANCHORED, nullptr, 0)) {
      if (!p) continue;
      ++inside;
      EXPECT_LT(p->score, specific + 1) << pattern << " / " << msg;
      EXPECT_GT(p->score, 1e6 + cc) << pattern << " / " << msg;
    } else {
      ++none;
      EXPECT_FALSE(p) << pattern << " / " << msg;
    }
  }
  std::printf("whole %d, from the start %d, inside %d, none %d\n", whole, start, inside, none);
  // Every outcome was exercised, not only one.
  EXPECT_GT(whole, 100);
  EXPECT_GT(start, 100);
  EXPECT_GT(inside, 100);
  EXPECT_GT(none, 100);
}

// A text where the runs occur everywhere: the search gives up within its
// bound of bytes and RE2 decides, or finds the match within it; either
// way the answer is RE2's.
TEST(Matcher, IntegerSearchOnHostileTextAgreesWithRe2) {
  const std::string pattern = "kw (.+?)a(.+?)a(-?\\d+)b";
  auto m = Matcher::build({rec("p", "ValueError", "m", pattern, "pkg/p.py", 1)});
  auto re = relaxed_re2(pattern);
  for (const std::string tail : {"1c", "1b", "x1b"}) {
    const std::string msg = "kw " + std::string(20000, 'a') + tail;
    auto r = m.match("ValueError: " + msg);
    bool found = false;
    for (const auto& c : r.candidates) found |= c.id == "p" && c.reasons.pattern;
    EXPECT_EQ(found, re->Match(msg, 0, msg.size(), RE2::UNANCHORED, nullptr, 0)) << tail;
  }
  // A pattern of more runs than the search recurses over is RE2's to decide.
  std::string many = "kw ", text = "kw ";
  for (int k = 0; k < 400; ++k) {
    many += "(-?\\d+)a";
    text += std::to_string(k) + "a";
  }
  auto long_one = Matcher::build({rec("q", "ValueError", "m", many, "pkg/q.py", 1)});
  auto long_re = relaxed_re2(many);
  for (const std::string tail : {"", " x", "-"}) {
    const std::string msg = text + tail;
    auto r = long_one.match("ValueError: " + msg);
    bool found = false;
    for (const auto& c : r.candidates) found |= c.id == "q" && c.reasons.pattern;
    EXPECT_EQ(found, long_re->Match(msg, 0, msg.size(), RE2::UNANCHORED, nullptr, 0)) << tail;
    EXPECT_TRUE(found) << tail;  // each text holds the whole run of numbers
  }
}

// The case a first-occurrence walk gets wrong: RE2 places the first `b`
// later so that the digits fit.
TEST(Matcher, IntegerGroupAfterALaterRunPlacement) {
  auto m = Matcher::build({rec("p", "ValueError", "kw a{x}b{n}c", "kw a(.+?)b(-?\\d+)c", "pkg/p.py", 1)});
  auto r = m.match("ValueError: kw a1bxb2c");
  ASSERT_EQ(top_id(r), "p");
  ASSERT_EQ(r.candidates[0].captures.size(), 2u);
  EXPECT_EQ(r.candidates[0].captures[0].value, "1bx");
  EXPECT_EQ(r.candidates[0].captures[1].value, "2");
  EXPECT_EQ(r.candidates[0].captures[1].name, "n");
}

// Rules about Python the fresh corpus found (tests/match/fresh_cases.py).
// A record of repository `repo` (rec() names o/r).
model::ErrorRecord site_in(std::string id, std::string repo, std::string cls, std::string message, std::string pattern,
                           std::string file, int line) {
  auto r = rec(std::move(id), std::move(cls), std::move(message), std::move(pattern), std::move(file), line);
  r.repo = std::move(repo);
  return r;
}

// pip vendors pygments at pip/_vendor/pygments/: the same raise, the same
// message. `pygments.util.ClassNotFound` is what pygments' own copy prints;
// pip's copy would print `pip._vendor.pygments.util.ClassNotFound`.
TEST(Matcher, PrintedModuleNamesThePackageNotAVendoredCopy) {
  std::vector<model::ErrorRecord> records = {
      site_in("vendored", "pypi/pip", "ClassNotFound", "no lexer for alias {alias!r} found",
              "no lexer for alias (.+?) found", "pip/_vendor/pygments/lexers/__init__.py", 120),
      site_in("own", "pypi/pygments", "ClassNotFound", "no lexer for alias {alias!r} found",
              "no lexer for alias (.+?) found", "pygments/lexers/__init__.py", 121)};
  auto m = Matcher::build(records, {{"pypi/pip", {""}}, {"pypi/pygments", {""}}});
  auto r = m.match("pygments.util.ClassNotFound: no lexer for alias 'x' found");
  EXPECT_EQ(top_id(r), "own");
  EXPECT_FALSE(r.ambiguous);
  // The vendored copy's own class path names it.
  r = m.match("pip._vendor.pygments.util.ClassNotFound: no lexer for alias 'x' found");
  EXPECT_EQ(top_id(r), "vendored");
  EXPECT_FALSE(r.ambiguous);
  // A class printed without its module (a built-in) says nothing of it.
  records[0].error_class = records[1].error_class = "ValueError";
  auto plain = Matcher::build(records, {{"pypi/pip", {""}}, {"pypi/pygments", {""}}});
  EXPECT_TRUE(plain.match("ValueError: no lexer for alias 'x' found").ambiguous);
}

// axios commits its bundles beside its sources: `dist/axios.js`,
// `dist/esm/axios.js`, `dist/node/axios.cjs`, `dist/browser/axios.cjs`
// each hold lib/core/settle.js's raise. A pasted message is one answer, the
// source; a frame in a bundle names that bundle's copy. A file of the
// package's name that raises a message no other file does stays its own.
TEST(Matcher, ARepositorysCommittedBundlesAreOneAnswerWithTheirSource) {
  const std::string cls = "AxiosError", msg = "Request failed with status code {response.status}",
                    pat = "Request failed with status code (.+?)";
  std::vector<model::ErrorRecord> records = {
      site_in("lib", "acme/axios", cls, msg, pat, "lib/core/settle.js", 19),
      site_in("umd", "acme/axios", cls, msg, pat, "dist/axios.js", 2511),
      site_in("esm", "acme/axios", cls, msg, pat, "dist/esm/axios.js", 2008),
      site_in("node", "acme/axios", cls, msg, pat, "dist/node/axios.cjs", 2010),
      site_in("browser", "acme/axios", cls, msg, pat, "dist/browser/axios.cjs", 2010),
      site_in("own", "acme/axios", "Error", "bundle only {x}", "bundle only (.+?)", "dist/axios.js", 40)};
  auto m = Matcher::build(records, {{"acme/axios", {""}}});
  auto r = m.match("AxiosError: Request failed with status code 404");
  EXPECT_EQ(top_id(r), "lib");
  EXPECT_FALSE(r.ambiguous);
  EXPECT_EQ(r.candidates.size(), 1u);
  r = m.match("AxiosError: Request failed with status code 404\n    at settle (/app/node_modules/axios/dist/node/axios.cjs:2010:12)\n");
  EXPECT_EQ(top_id(r), "node");
  EXPECT_EQ(top_id(m.match("Error: bundle only 3")), "own");
}

// A frame under `node_modules/<pkg>/` is that package's: of the npm/*
// repositories only npm/<pkg> holds it. A repository of GitHub's `npm`
// owner named otherwise (npm/node-semver is the `semver` package) is no
// other package then, when no npm/semver is indexed: its paths agree as
// any repository's do.
TEST(Matcher, AnNpmOwnedRepositoryNamedOtherwiseThanItsPackageAgreesByPath) {
  const std::string cls = "TypeError", msg = "Invalid Version: {version}", pat = "Invalid Version: (.+?)";
  const std::string tb = "TypeError: Invalid Version: 1.x\n    at new SemVer (/app/node_modules/semver/classes/semver.js:40:13)\n";
  auto github = Matcher::build({site_in("gh", "npm/node-semver", cls, msg, pat, "classes/semver.js", 40),
                                site_in("other", "acme/versions", cls, msg, pat, "lib/semver.js", 12)});
  auto r = github.match(tb);
  ASSERT_EQ(top_id(r), "gh");
  EXPECT_TRUE(r.candidates[0].reasons.frame_line);
  EXPECT_FALSE(r.ambiguous);
  auto both = Matcher::build({site_in("gh", "npm/node-semver", cls, msg, pat, "classes/semver.js", 40),
                              site_in("pkg", "npm/semver", cls, msg, pat, "classes/semver.js", 40)});
  r = both.match(tb);
  ASSERT_EQ(top_id(r), "pkg");
  EXPECT_TRUE(r.candidates[0].reasons.frame_line);
  EXPECT_FALSE(r.ambiguous);
}

// lru-cache builds one copy per runtime, each in a folder named after its
// `exports` condition: `dist/commonjs/index.js`, `dist/commonjs/node/`,
// `dist/commonjs/react-native/`, `dist/esm/browser/`. They are one
// statement: a pasted message is one answer, and a frame names its copy.
TEST(Matcher, BuildsPerRuntimeAreOneAnswer) {
  const std::string cls = "TypeError", msg = "max option must be a nonnegative integer", pat = msg;
  std::vector<model::ErrorRecord> records = {
      site_in("cjs", "npm/lru-cache", cls, msg, pat, "dist/commonjs/index.js", 294),
      site_in("node", "npm/lru-cache", cls, msg, pat, "dist/commonjs/node/index.js", 294),
      site_in("rn", "npm/lru-cache", cls, msg, pat, "dist/commonjs/react-native/index.js", 294),
      site_in("esm-rn", "npm/lru-cache", cls, msg, pat, "dist/esm/react-native/index.js", 290),
      site_in("esm-browser", "npm/lru-cache", cls, msg, pat, "dist/esm/browser/index.js", 290)};
  auto m = Matcher::build(records, {{"npm/lru-cache", {""}}});
  auto r = m.match("TypeError: max option must be a nonnegative integer");
  EXPECT_FALSE(r.ambiguous);
  EXPECT_EQ(r.candidates.size(), 1u);
  EXPECT_TRUE(top_id(r) == "cjs" || top_id(r) == "node") << top_id(r);
  r = m.match("TypeError: max option must be a nonnegative integer\n    at new LRUCache (/app/node_modules/lru-cache/dist/commonjs/react-native/index.js:294:19)\n");
  EXPECT_EQ(top_id(r), "rn");
}

// lru-cache's `require` entry is `dist/commonjs/node/index.min.js`, which
// the scan skips as minified: its frame (`index.min.js:1:3111`) names the
// readable `index.js` beside it, the file only, and the message picks the
// site; a message none of its sites prints (V8's own TypeError) is not
// answered by that file.
TEST(Matcher, AMinifiedFrameNamesTheReadableBuildBesideIt) {
  const std::string cls = "TypeError", msg = "max option must be a nonnegative integer";
  std::vector<model::ErrorRecord> records = {
      site_in("cjs", "npm/lru-cache", cls, msg, msg, "dist/commonjs/index.js", 294),
      site_in("node", "npm/lru-cache", cls, msg, msg, "dist/commonjs/node/index.js", 294),
      site_in("node-ttl", "npm/lru-cache", cls, "ttl must be a positive integer if specified",
              "ttl must be a positive integer if specified", "dist/commonjs/node/index.js", 376)};
  auto m = Matcher::build(records, {{"npm/lru-cache", {""}}});
  const std::string frame = "\n    at new LRUCache (/app/node_modules/lru-cache/dist/commonjs/node/index.min.js:1:3111)\n";
  auto r = m.match("TypeError: max option must be a nonnegative integer" + frame);
  EXPECT_EQ(top_id(r), "node");
  EXPECT_FALSE(r.ambiguous);
  EXPECT_TRUE(r.candidates.front().reasons.frame);
  EXPECT_FALSE(r.candidates.front().reasons.frame_line);
  EXPECT_FALSE(r.raised_below);
  for (const auto& c : m.match("TypeError: Cannot read properties of undefined (reading 'max')" + frame).candidates)
    EXPECT_FALSE(c.reasons.frame) << c.id;
}

// smol-toml ships its ES modules (`dist/error.js`, `dist/stringify.js`, …)
// and a CommonJS bundle of them, `dist/index.cjs`, whose name says nothing
// of what it holds: its statements are the modules' twins. Two modules
// that share a few checks are not a bundle of each other.
TEST(Matcher, AFileMadeOfOtherFilesStatementsIsABundle) {
  const std::vector<std::pair<std::string, std::string>> modules = {
      {"dist/error.js", "Invalid TOML document: (.+?)"},
      {"dist/stringify.js", "stringify can only be called with an object"},
      {"dist/stringify.js", "cannot serialize values of type (.+?)"},
      {"dist/primitive.js", "invalid date"},
      {"dist/parse.js", "trying to redefine an already defined table or value"}};
  std::vector<model::ErrorRecord> records;
  for (std::size_t k = 0; k < modules.size(); ++k) {
    const auto& [file, pat] = modules[k];
    records.push_back(site_in("m" + std::to_string(k), "npm/smol-toml", "TypeError", pat, pat, file, 10 + static_cast<int>(k)));
    records.push_back(site_in("b" + std::to_string(k), "npm/smol-toml", "TypeError", pat, pat, "dist/index.cjs", 100 * static_cast<int>(k + 1)));
  }
  auto m = Matcher::build(records, {{"npm/smol-toml", {""}}});
  auto r = m.match("TypeError: stringify can only be called with an object");
  EXPECT_EQ(top_id(r), "m1");
  EXPECT_FALSE(r.ambiguous);
  r = m.match("TypeError: stringify can only be called with an object\n    at stringify (/app/node_modules/smol-toml/dist/index.cjs:200:9)\n");
  EXPECT_EQ(top_id(r), "b1");
  // Its ES build beside it, which throws messages of its own too, is a bundle as well (json5's
  // `dist/index.js` beside `dist/index.mjs`): one answer still.
  for (std::size_t k = 0; k < modules.size(); ++k)
    records.push_back(site_in("e" + std::to_string(k), "npm/smol-toml", "TypeError", modules[k].second, modules[k].second, "dist/index.js",
                              100 * static_cast<int>(k + 1) + 5));
  records.push_back(site_in("own", "npm/smol-toml", "TypeError", "a polyfill's own check", "a polyfill's own check", "dist/index.js", 3));
  auto both = Matcher::build(records, {{"npm/smol-toml", {""}}}).match("TypeError: stringify can only be called with an object");
  EXPECT_EQ(top_id(both), "m1");
  EXPECT_EQ(both.candidates.size(), 1u);
  // Two modules raising the same four checks are two statements, not one.
  std::vector<model::ErrorRecord> shared;
  for (const std::string file : {"lib/a.js", "lib/b.js"})
    for (int k = 0; k < 4; ++k)
      shared.push_back(site_in(file + std::to_string(k), "npm/x", "TypeError", "check " + std::to_string(k), "check " + std::to_string(k), file, 10 + k));
  EXPECT_TRUE(Matcher::build(shared, {{"npm/x", {""}}}).match("TypeError: check 2").ambiguous);
}

// luxon's `class InvalidUnitError extends LuxonError` sets no `name`: V8
// prints `Error: Invalid unit nope`. Its site's text is the answer, not
// another package's `throw new Error(message)` that any text fits; a site
// throwing Error itself with the same text ranks above it; a Python class
// of the same name is not printed as its base.
TEST(Matcher, AJavaScriptClassThatSetsNoNameAgreesWithTheBuiltInPrinted) {
  std::vector<model::ErrorRecord> records = {
      site_in("luxon", "npm/luxon", "InvalidUnitError", "Invalid unit {unit}", "Invalid unit (.+?)", "src/duration.js", 40),
      site_in("any", "npm/ajv", "Error", "{message}", "(.+?)", "dist/core.js", 267),
      site_in("py", "o/py", "InvalidUnitError", "Invalid unit {unit}", "Invalid unit (.+?)", "pkg/units.py", 9)};
  auto m = Matcher::build(records);
  auto r = m.match("Error: Invalid unit nope");
  EXPECT_EQ(top_id(r), "luxon");
  EXPECT_TRUE(r.candidates.front().reasons.error_class);
  records.push_back(site_in("plain", "npm/other", "Error", "Invalid unit {u}", "Invalid unit (.+?)", "lib/units.js", 3));
  EXPECT_EQ(top_id(Matcher::build(records).match("Error: Invalid unit nope")), "plain");
  // V8's own TypeError shares no text with the class: its site is no answer by class.
  auto v8 = m.match("TypeError: Cannot read properties of undefined (reading 'unit')");
  for (const auto& c : v8.candidates) EXPECT_FALSE(c.reasons.error_class) << c.id;
}

// postcss's `input.error(…)` returns the CssSyntaxError the parser throws
// (`throw this.input.error('Unclosed block', …)`): the stack, taken where
// the error was made, has the helper innermost and the throw on the next
// frame's line. Python's innermost frame is the raise: no such walk.
TEST(Matcher, AJavaScriptErrorMadeByAHelperIsThrownOnAnOuterFramesLine) {
  std::vector<model::ErrorRecord> records = {
      site_in("input", "npm/postcss", "Error", "{message}", "(.+?)", "lib/input.js", 43),
      site_in("parser", "npm/postcss", "CssSyntaxError", "Unclosed block", "Unclosed block", "lib/parser.js", 594),
      site_in("other", "npm/postcss", "CssSyntaxError", "Unclosed block", "Unclosed block", "lib/parser.js", 700)};
  auto m = Matcher::build(records);
  const std::string stack =
      "CssSyntaxError: <css input>:1:1: Unclosed block\n"
      "    at Input.error (/app/node_modules/postcss/lib/input.js:135:16)\n"
      "    at Parser.unclosedBlock (/app/node_modules/postcss/lib/parser.js:594:22)\n"
      "    at Parser.endFile (/app/node_modules/postcss/lib/parser.js:338:35)\n";
  auto r = m.match(stack);
  EXPECT_EQ(top_id(r), "parser");
  EXPECT_TRUE(r.candidates.front().reasons.frame_line);
  EXPECT_FALSE(r.raised_below);
}

// yaml's messages quote the input with a caret under it: that caret is the
// message's, not Node's header (which has `file:line` and a source line
// above its caret), and the header still names the throw.
TEST(Matcher, ACaretInsideANodeMessageIsNotTheHeader) {
  std::vector<model::ErrorRecord> records = {
      site_in("throw", "npm/yaml", "doc.errors[0]", "", "", "dist/public-api.js", 74),
      site_in("other", "npm/yaml", "YAMLParseError", "{message}", "(.+?)", "dist/errors.js", 10)};
  auto m = Matcher::build(records);
  auto r = m.match(
      "/app/node_modules/yaml/dist/public-api.js:74\n"
      "            throw doc.errors[0];\n"
      "            ^\n\n"
      "YAMLParseError: Map keys must be unique at line 2, column 1:\n\na: 1\na: 2\n^\n\n"
      "    at Composer.onError (/app/node_modules/yaml/dist/compose/composer.js:70:34)\n"
      "    at Object.resolveBlockMap (/app/node_modules/yaml/dist/compose/resolve-block-map.js:64:13)\n");
  EXPECT_EQ(r.exception.error_class, "YAMLParseError");
  EXPECT_EQ(top_id(r), "throw");
}

// handlebars ships each module as its source (`lib/`), a CommonJS build
// (`dist/cjs/`, where Babel writes the class `_exception2['default']`), an
// AMD build (`dist/amd/`) and bundles named after the package
// (`dist/handlebars.runtime.amd.js`): one answer, a module's file before
// a bundle (luxon's `src/duration.js` before `build/node/luxon.js`).
TEST(Matcher, EveryBuildOfAModuleIsOneAnswer) {
  const std::string msg = "#if requires exactly one argument";
  std::vector<model::ErrorRecord> records = {
      site_in("lib", "npm/handlebars", "Exception", msg, msg, "lib/handlebars/helpers/if.js", 7),
      site_in("cjs", "npm/handlebars", "_exception2['default']", msg, msg, "dist/cjs/handlebars/helpers/if.js", 17),
      site_in("amd", "npm/handlebars", "_Exception['default']", msg, msg, "dist/amd/handlebars/helpers/if.js", 13),
      site_in("bundle", "npm/handlebars", "_exception2['default']", msg, msg, "dist/handlebars.runtime.amd.js", 421),
      site_in("src", "npm/luxon", "Error", "Invalid unit {u}", "Invalid unit (.+?)", "src/duration.js", 40),
      site_in("node", "npm/luxon", "Error", "Invalid unit {u}", "Invalid unit (.+?)", "build/node/luxon.js", 3276),
      site_in("global", "npm/luxon", "Error", "Invalid unit {u}", "Invalid unit (.+?)", "build/global/luxon.js", 3700)};
  auto m = Matcher::build(records);
  auto r = m.match("Error: #if requires exactly one argument");
  EXPECT_TRUE(top_id(r) == "lib" || top_id(r) == "cjs") << top_id(r);
  EXPECT_FALSE(r.ambiguous);
  EXPECT_EQ(r.candidates.size(), 1u);
  r = m.match("Error: Invalid unit nope");
  EXPECT_EQ(top_id(r), "src");
  EXPECT_EQ(r.candidates.size(), 1u);
  EXPECT_FALSE(r.ambiguous);
  // A build named in the file's name (yup's `index.esm.js` beside `index.js`).
  const std::string ref = "ref must be a string, got: {key}", ref_pat = "ref must be a string, got: (.+?)";
  auto yup = Matcher::build({site_in("cjs", "npm/yup", "TypeError", ref, ref_pat, "index.js", 267),
                             site_in("esm", "npm/yup", "TypeError", ref, ref_pat, "index.esm.js", 259)});
  r = yup.match("TypeError: ref must be a string, got: 5");
  EXPECT_EQ(top_id(r), "cjs");
  EXPECT_EQ(r.candidates.size(), 1u);
  // Two modules raise one message: each bundle holds both, in one order;
  // the n-th of each bundle is one site, the Node build's speaks for it.
  const std::string unit = "Invalid unit {u}", unit_pat = "Invalid unit (.+?)";
  std::vector<model::ErrorRecord> two = {
      site_in("duration", "npm/luxon", "Error", unit, unit_pat, "src/duration.js", 421),
      site_in("datetime", "npm/luxon", "Error", unit, unit_pat, "src/datetime.js", 366)};
  for (const char* bundle : {"build/amd/luxon.js", "build/node/luxon.js", "build/global/luxon.js"}) {
    two.push_back(site_in(std::string(bundle) + ":1", "npm/luxon", "Error", unit, unit_pat, bundle, 3000));
    two.push_back(site_in(std::string(bundle) + ":2", "npm/luxon", "Error", unit, unit_pat, bundle, 6000));
  }
  auto bundles = Matcher::build(two);
  r = bundles.match("Error: Invalid unit nope");
  EXPECT_TRUE(r.ambiguous);
  std::set<std::string> ids;
  for (const auto& c : r.candidates) ids.insert(std::string(c.id));
  EXPECT_EQ(ids, (std::set<std::string>{"duration", "datetime", "build/node/luxon.js:1", "build/node/luxon.js:2"}));
}

// jinja2 raises `self._undefined_exception(self._undefined_message)`: no
// site names UndefinedError, so the printed `jinja2.exceptions.UndefinedError`
// matched another package's pattern by its words. A site of the printed
// package raising a class given by an expression may be that class: it
// ranks above other classes' sites, the one whose expression shares the
// class name's words first; a bare variable raised again (`raise e`) and a
// site that prints nothing are no such answer.
TEST(Matcher, PrintedClassNoSiteNamesIsOneAnExpressionOfItsPackageRaises) {
  std::vector<model::ErrorRecord> records = {
      site_in("other", "pypi/setuptools", "AttributeError", "{obj!r} has no attribute {attr!r}",
              "(.+?) has no attribute (.+?)", "setuptools/config/expand.py", 87),
      site_in("token", "pypi/jinja2", "token", "{lineno}", "(.+?)", "jinja2/lexer.py", 761),
      site_in("undefined", "pypi/jinja2", "self._undefined_exception", "{self._undefined_message}", "(.+?)",
              "jinja2/runtime.py", 859),
      site_in("again", "pypi/jinja2", "e", "", "", "jinja2/runtime.py", 953)};
  const ImportRoots roots = {{"pypi/setuptools", {""}}, {"pypi/jinja2", {""}}};
  auto m = Matcher::build(records, roots);
  auto r = m.match("jinja2.exceptions.UndefinedError: 'dict object' has no attribute 'b'");
  EXPECT_EQ(top_id(r), "undefined");
  EXPECT_FALSE(r.ambiguous);
  ASSERT_GE(r.candidates.size(), 2u);
  EXPECT_EQ(r.candidates[1].id, "token");
  for (const auto& c : r.candidates) EXPECT_NE(c.id, "again");
  // Without its module the class names no package: the pattern decides.
  EXPECT_EQ(top_id(m.match("UndefinedError: 'dict object' has no attribute 'b'")), "other");
  // Another package's class: nothing of jinja2 comes in by expression.
  EXPECT_EQ(top_id(m.match("mako.exceptions.UndefinedError: 'dict object' has no attribute 'b'")), "other");
  // Once a site names the class, that site is the answer.
  records.push_back(site_in("named", "pypi/jinja2", "UndefinedError", "{msg}", "(.+?)", "jinja2/runtime.py", 900));
  auto named = Matcher::build(records, roots);
  EXPECT_EQ(top_id(named.match("jinja2.exceptions.UndefinedError: 'dict object' has no attribute 'b'")), "named");
}

// `except ImportError as err: raise ValueError(str(err))`: a ValueError
// whose message a site of ImportError wrote (its pattern matched, no
// ValueError's did) was raised by the site that turns the one into the
// other, above the writer and above ValueError sites sharing a word.
TEST(Matcher, AMessageOfAnotherClassIsRaisedByTheSiteThatWrapsIt) {
  auto writer = site_in("writer", "o/r", "ImportError", "Parser \"{parser_name}\" not found. {err}",
                        "Parser \"(.+?)\" not found\\. (.+?)", "pkg/parsers/__init__.py", 20);
  auto wrapper = site_in("wrapper", "o/r", "ValueError", "{str(err)}", "(.+?)", "pkg/directives.py", 8);
  wrapper.source_code =
      "def parser_name(argument):\n"
      "    try:\n"
      "        return parsers.get_parser_class(argument)\n"
      "    except (ImportError, errors.Missing) as err:\n"
      "        raise ValueError(str(err))\n";
  wrapper.source_code_start = 4;
  // Raises a ValueError too, but not what its handler caught.
  auto other_handler = site_in("other", "o/r", "ValueError", "{str(err)}", "(.+?)", "pkg/other.py", 5);
  other_handler.source_code =
      "try:\n"
      "    x = load()\n"
      "except KeyError as err:\n"
      "    raise ValueError(str(err))\n";
  other_handler.source_code_start = 2;
  auto words = site_in("words", "o/r", "ValueError", "not found", "not found", "pkg/util.py", 3);
  auto m = Matcher::build({writer, wrapper, other_handler, words});
  auto r = m.match("ValueError: Parser \"rst2\" not found. No module named 'rst2'");
  ASSERT_GE(r.candidates.size(), 2u);
  EXPECT_EQ(r.candidates[0].id, "wrapper");
  EXPECT_FALSE(r.ambiguous);
  EXPECT_TRUE(r.candidates[0].reasons.wraps);
  ASSERT_TRUE(r.candidates[0].wraps.has_value());
  EXPECT_EQ(*r.candidates[0].wraps, 0u);  // the writer, as an index into the records
  EXPECT_FALSE(weak(r.candidates[0].reasons));
  for (const auto& c : r.candidates)
    if (c.id != "wrapper") EXPECT_FALSE(c.reasons.wraps) << c.id;
  // The writer's own class printed: the writer, and no wrapper.
  auto own = m.match("ImportError: Parser \"rst2\" not found. No module named 'rst2'");
  EXPECT_EQ(top_id(own), "writer");
  for (const auto& c : own.candidates) EXPECT_FALSE(c.reasons.wraps);
}

// A class raised with no text of its own by more sites than are listed:
// the result says how many, and lists none; a frame still names one.
TEST(Matcher, TooManySitesOfAClassWithNoTextAreCountedNotListed) {
  std::vector<model::ErrorRecord> records;
  for (int i = 0; i < 600; ++i)
    records.push_back(site_in("bare" + std::to_string(i), "o/r", "NotImplementedError", "", "",
                              "pkg/m" + std::to_string(i) + ".py", 10));
  records.push_back(site_in("text", "o/r", "ValueError", "bad value {x}", "bad value (.+?)", "pkg/v.py", 3));
  auto m = Matcher::build(records);
  auto r = m.match("NotImplementedError");
  EXPECT_TRUE(r.candidates.empty());
  EXPECT_EQ(r.class_sites, 600u);
  // A message another class's site wrote is not that.
  EXPECT_EQ(m.match("ValueError: bad value 3").class_sites, 0u);
  auto framed = m.match(
      "Traceback (most recent call last):\n"
      "  File \"/x/pkg/m7.py\", line 10, in f\n"
      "NotImplementedError\n");
  EXPECT_EQ(top_id(framed), "bare7");
  EXPECT_EQ(framed.class_sites, 0u);
}

// Raised below the innermost frame, the frame's file is where the call was
// made, not where the error was raised: jinja2's `getattr(obj, attribute)`
// in environment.py runs StrictUndefined's `__getattr__`, whose frame
// jinja2 cuts from the traceback; a site of environment.py raising another
// class (TemplatesNotFound's `{names}`, which fits any text) came first,
// above runtime.py's `raise self._undefined_exception(…)`.
TEST(Matcher, RaisedBelowTheFrameItsFilesSitesOfAnotherClassGetNoFrameWeight) {
  const ImportRoots roots = {{"pypi/jinja2", {""}}};
  auto m = Matcher::build(
      {site_in("notfound", "pypi/jinja2", "TemplatesNotFound", "{names}", "(.+?)", "jinja2/environment.py", 1070),
       site_in("undefined", "pypi/jinja2", "self._undefined_exception", "{self._undefined_message}", "(.+?)",
               "jinja2/runtime.py", 859)},
      roots);
  const std::string pasted =
      "Traceback (most recent call last):\n"
      "  File \"/srv/app.py\", line 2, in <module>\n"
      "    env.from_string(\"{{ x.y }}\").render()\n"
      "  File \"<template>\", line 1, in top-level template code\n"
      "  File \"/usr/lib/python3/site-packages/jinja2/environment.py\", line 490, in getattr\n"
      "    return getattr(obj, attribute)\n"
      "jinja2.exceptions.UndefinedError: 'x' is undefined\n";
  auto r = m.match(pasted);
  EXPECT_TRUE(r.raised_below);
  EXPECT_EQ(top_id(r), "undefined");
  // Printed as the file's own class, the file's site is still first.
  auto own = m.match(pasted.substr(0, pasted.rfind("jinja2.exceptions")) + "jinja2.exceptions.TemplatesNotFound: x\n");
  EXPECT_EQ(top_id(own), "notfound");
}

// The innermost frame in an indexed file, on a line no site raises at,
// printing a statement that is no raise: C code it calls (or the statement
// itself) raised the error, and the sites with that message are elsewhere.
TEST(Matcher, AnInnermostFrameThatIsNoSiteSaysTheErrorWasRaisedBelowIt) {
  auto m = Matcher::build({site_in("pad", "o/r", "binascii.Error", "Incorrect padding", "Incorrect padding", "Lib/codec.py", 10),
                           site_in("other", "o/r", "ValueError", "bad {x}", "bad (.+?)", "Lib/codec.py", 40)});
  auto traceback = [](int line, const std::string& source, const std::string& file = "/usr/lib/python3.11/codec.py") {
    return "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n  File \"" + file + "\", line " +
           std::to_string(line) + ", in b64decode\n    " + source + "\nbinascii.Error: Incorrect padding\n";
  };
  auto below = m.match(traceback(25, "return binascii.a2b_base64(s)"));
  EXPECT_TRUE(below.raised_below);
  ASSERT_EQ(top_id(below), "pad");  // the same message, elsewhere: still shown
  EXPECT_FALSE(below.candidates[0].reasons.frame_line);
  // The site's own line; a raise handing on an exception made elsewhere;
  // a file the index does not hold; no traceback at all.
  EXPECT_FALSE(m.match(traceback(10, "raise binascii.Error('Incorrect padding')")).raised_below);
  EXPECT_FALSE(m.match(traceback(25, "raise err")).raised_below);
  EXPECT_FALSE(m.match(traceback(25, "throw err;")).raised_below);
  EXPECT_FALSE(m.match(traceback(25, "return f(s)", "/home/me/app/main.py")).raised_below);
  EXPECT_FALSE(m.match("binascii.Error: Incorrect padding").raised_below);
  // Kept by a move, as the rest of the result.
  MatchResult moved = std::move(below);
  EXPECT_TRUE(moved.raised_below);
}

// `raise IOError(...)`, `socket.error`: Python 3 prints OSError, so a
// site raising one of its other names agrees with a printed OSError.
TEST(Matcher, OtherNamesOfOSErrorAgreeWithOSError) {
  auto m = Matcher::build({site_in("io", "o/r", "IOError", "{path!r} exists but is not a directory",
                                   "(.+?) exists but is not a directory", "pkg/path.py", 9),
                           site_in("value", "o/r", "ValueError", "{path!r} exists but is not a directory",
                                   "(.+?) exists but is not a directory", "pkg/other.py", 4),
                           site_in("sock", "o/r", "socket.error", "connection closed", "connection closed", "pkg/net.py", 7),
                           site_in("env", "o/r", "EnvironmentError", "File not found", "File not found", "pkg/env.py", 3),
                           site_in("re", "o/r", "re.error", "File not found", "File not found", "pkg/re.py", 3)});
  auto r = m.match("OSError: '/etc/passwd' exists but is not a directory");
  EXPECT_EQ(top_id(r), "io");
  EXPECT_TRUE(r.candidates[0].reasons.error_class);
  EXPECT_FALSE(r.ambiguous);
  EXPECT_EQ(top_id(m.match("OSError: connection closed")), "sock");
  // `re.error` is no OSError: only the other names of OSError are.
  auto f = m.match("OSError: File not found");
  EXPECT_EQ(top_id(f), "env");
  EXPECT_FALSE(f.ambiguous);
}

// A raise's message that is the caught exception, and the handler's
// classes, read off the record's source excerpt.
TEST(PatternText, CaughtClassesOfARaiseThatWrapsItsHandlersException) {
  const std::string window =
      "def f(a):\n"
      "    try:\n"
      "        g(a)\n"
      "    except (ImportError, pkg.errors.Missing) as err:\n"
      "        if a:\n"
      "            raise ValueError(str(err))\n"
      "        raise TypeError(err)\n"
      "    except KeyError as e:\n"
      "        raise LookupError(e.args[0]) from e\n"
      "    raise RuntimeError(err)\n";
  using V = std::vector<std::string_view>;
  EXPECT_EQ(caught_classes("{str(err)}", window, 10, 15), (V{"ImportError", "Missing"}));
  EXPECT_EQ(caught_classes("{err}", window, 10, 16), (V{"ImportError", "Missing"}));
  EXPECT_EQ(caught_classes("{e.args[0]}", window, 10, 18), V{"KeyError"});
  // Outside the handler, another name, or a message of its own: none.
  EXPECT_TRUE(caught_classes("{err}", window, 10, 19).empty());
  EXPECT_TRUE(caught_classes("{exc}", window, 10, 15).empty());
  EXPECT_TRUE(caught_classes("bad: {err}", window, 10, 15).empty());
  // The handler is above the excerpt: none.
  EXPECT_TRUE(caught_classes("{err}", "        raise TypeError(err)\n", 16, 16).empty());
}

// Under an import root (the standard library's Lib/), the module is read
// from the root: `xml.sax` is Lib/xml/sax/, not a folder named sax
// elsewhere.
TEST(Matcher, PrintedModuleIsReadFromTheImportRoot) {
  std::vector<model::ErrorRecord> records = {
      site_in("other", "python/cpython", "SAXParseException", "{msg}", "(.+?)", "Lib/test/xml/sax/x.py", 5),
      site_in("sax", "python/cpython", "SAXParseException", "{msg}", "(.+?)", "Lib/xml/sax/expatreader.py", 5)};
  auto m = Matcher::build(records, {{"python/cpython", {"Lib"}}});
  EXPECT_EQ(top_id(m.match("xml.sax._exceptions.SAXParseException: <unknown>:1:8: mismatched tag")), "sax");
}

// `assert x` and `raise KeyError` print no message: a printed one was not
// theirs, however many of its words their statement holds.
TEST(Matcher, ABareBuiltinClassPrintsNoMessage) {
  auto bare = site_in("bare", "o/r", "AssertionError", "", "", "pkg/a.py", 3);
  bare.source_code = "assert unicodedata.unidata_version == '3.2.0'\n";
  bare.source_code_start = 3;
  auto m = Matcher::build({bare, site_in("kw", "o/r", "ValueError", "{x}", "(.+?)", "pkg/b.py", 9)});
  auto r = m.match("AssertionError: 1 != 2");
  for (const auto& c : r.candidates) EXPECT_NE(c.id, "bare");
  // An empty message is still its own.
  EXPECT_EQ(top_id(m.match("AssertionError")), "bare");
  // So is a frame on its line, whatever the message says.
  EXPECT_EQ(top_id(m.match("Traceback (most recent call last):\n  File \"/x/pkg/a.py\", line 3, in <module>\n"
                        "AssertionError: 1 != 2\n")),
            "bare");
  // A class that is not built in may print a message of its own making
  // (its __init__ or __str__ in code not indexed): it stays a candidate.
  auto m2 = Matcher::build({site_in("own", "o/r", "PluginError", "", "", "pkg/c.py", 4)});
  EXPECT_EQ(top_id(m2.match("PluginError: something went wrong")), "own");
}

// Python prints a SyntaxError's place in the text it compiled as a last
// `File "x", line 1` with no function, under the frames: the frame above
// it raised (lib2to3's pgen: `raise SyntaxError(msg, (filename, ...))`).
TEST(Matcher, ASyntaxErrorsSourcePlaceIsNotTheRaisingFrame) {
  auto m = Matcher::build({site_in("pgen", "o/r", "SyntaxError", "{msg}", "(.+?)", "pkg/pgen.py", 334),
                           site_in("other", "o/r", "SyntaxError", "expected {what}", "expected (.+?)", "lib/util.py", 155)});
  const std::string tb =
      "Traceback (most recent call last):\n"
      "  File \"/srv/app.py\", line 1, in <module>\n"
      "  File \"/usr/lib/python3/pkg/pgen.py\", line 334, in raise_error\n"
      "    raise SyntaxError(msg, (self.filename, self.end[0],\n"
      "  File \"x\", line 1\n"
      "    start: 'a' |\n"
      "                ^\n"
      "SyntaxError: expected (...) or NAME or STRING, got 4/\n";
  auto r = m.match(tb);
  EXPECT_EQ(top_id(r), "pgen");
  EXPECT_TRUE(!r.candidates.empty() && r.candidates.front().reasons.frame_line);
  // The place is still shown among the frames.
  ASSERT_FALSE(r.frames.empty());
  EXPECT_EQ(r.frames.back().file, "x");
  // Frames that never print a function (pytest's) are all frames.
  auto plain = m.match("  File \"/usr/lib/python3/pkg/pgen.py\", line 334\nSyntaxError: expected x\n");
  EXPECT_EQ(top_id(plain), "pgen");
}

// pytest's long report ends a failure with `path.py:1369: BadZipFile`,
// the line the exception was raised on, which names no function under a
// frame that does (`path.py:1302: in __init__`): no SyntaxError's place,
// the raising frame. (Two raises of one message: the line picks.)
TEST(Matcher, PytestsLastFrameNamingTheClassIsTheRaisingFrame) {
  auto m = Matcher::build(
      {site_in("caught", "python/cpython", "BadZipFile", "File is not a zip file", "File is not a zip file", "Lib/zipfile.py", 1367),
       site_in("empty", "python/cpython", "BadZipFile", "File is not a zip file", "File is not a zip file", "Lib/zipfile.py", 1369)});
  auto r = m.match(
      "/usr/lib/python3.11/zipfile.py:1302: in __init__\n"
      "    self._RealGetContents()\n"
      ">           raise BadZipFile(\"File is not a zip file\")\n"
      "E           zipfile.BadZipFile: File is not a zip file\n"
      "\n"
      "/usr/lib/python3.11/zipfile.py:1369: BadZipFile\n");
  EXPECT_EQ(top_id(r), "empty");
  EXPECT_FALSE(r.raised_below);
  EXPECT_TRUE(!r.candidates.empty() && r.candidates.front().reasons.frame_line);
}

}  // namespace
}  // namespace errdex::match
