// `errdex match` end to end: a small repository scanned by the real binary
// into a real SQLite file, then matched from arguments and stdin.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/process.h"

namespace errdex {
namespace {

using testing::run;
using testing::shell_quote;

// A traceback of the fixture's site, as Python prints it.
const char* const k_plain =
    "Traceback (most recent call last):\n"
    "  File \"/srv/app/shapes/cache.py\", line 3, in update\n"
    "ValueError: The batch size is not consistent across layers: [2, 3]\n";

class MatchCli : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::write_file(m_tmp / "repo/shapes/cache.py",
                        "def update(values, layers):\n"
                        "    if len(values) != len(layers):\n"
                        "        raise ValueError(f\"The batch size is not consistent across layers: {values}\")\n"
                        "    return values\n"
                        "\n"
                        "def get(d, key):\n"
                        "    if key not in d:\n"
                        "        raise KeyError(key)\n"
                        "    return d[key]\n");
    m_db = "sqlite:" + (m_tmp / "e.db").string();
    auto r = run(testing::errdex_cmd() + " scan " + shell_quote((m_tmp / "repo").string()) +
                 " --repo acme/shapes -q --db " + shell_quote(m_db));
    ASSERT_EQ(r.code, 0) << r.err;
  }
  testing::RunResult match(const std::string& args, const std::string& stdin_text = "") {
    std::string cmd = testing::errdex_cmd() + " match " + args + " --db " + shell_quote(m_db);
    if (!stdin_text.empty()) {
      testing::write_file(m_tmp / "in.txt", stdin_text);
      cmd += " < " + shell_quote((m_tmp / "in.txt").string());
    }
    return run(cmd);
  }
  // `pasted` on stdin answers as k_plain does, with the site; the output.
  std::string expect_answers_as_plain(const std::string& pasted) {
    auto a = match("", k_plain), b = match("", pasted);
    EXPECT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(a.out, b.out);
    EXPECT_NE(b.out.find("shapes/cache.py:3"), std::string::npos) << b.out;
    return b.out;
  }
  testing::TempDir m_tmp;
  std::string m_db;
};

TEST_F(MatchCli, MessageArgumentFindsTheSite) {
  auto r = match(shell_quote("ValueError: The batch size is not consistent across layers: [2, 3]"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("shapes/cache.py:3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("values = [2, 3]"), std::string::npos) << r.out;
}

TEST_F(MatchCli, TracebackOnStdinAsJson) {
  auto r = match("--json --top 3",
                 "Traceback (most recent call last):\n"
                 "  File \"/home/u/.venv/lib/python3.11/site-packages/shapes/cache.py\", line 8, in get\n"
                 "    raise KeyError(key)\n"
                 "KeyError: 'user'\n");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["candidates"].is_array());
  ASSERT_FALSE(j["candidates"].empty());
  const auto& c = j["candidates"][0];
  for (const char* k : {"id", "repo", "ref", "sha", "filePath", "lineNumber", "errorClass", "errorMessage", "score",
                        "captures", "reasons"})
    EXPECT_TRUE(c.contains(k)) << k;
  EXPECT_EQ(c["filePath"], "shapes/cache.py");
  EXPECT_EQ(c["lineNumber"], 8);
  EXPECT_EQ(c["repo"], "acme/shapes");
  ASSERT_EQ(c["captures"].size(), 1u);
  EXPECT_EQ(c["captures"][0]["name"], "key");
  EXPECT_EQ(c["captures"][0]["value"], "'user'");
  EXPECT_NE(std::find(c["reasons"].begin(), c["reasons"].end(), "frame-line"), c["reasons"].end()) << c.dump();
  EXPECT_EQ(j["exception"]["errorClass"], "KeyError");
}

// A traceback copied with its colours: the answer is the plain one's, and
// nothing of the escapes reaches the terminal.
TEST_F(MatchCli, ColouredTracebackAnswersAsPlainAndPrintsNoEscape) {
  const std::string coloured =
      "\x1b]0;term\x07Traceback (most recent call last):\n"
      "  File \x1b[35m\"/srv/app/shapes/cache.py\"\x1b[0m, line \x1b[35m3\x1b[0m, in \x1b[35mupdate\x1b[0m\n"
      "\x1b[1;35mValueError\x1b[0m: \x1b[35mThe batch size is not consistent across layers: [2, 3]\x1b[0m\n";
  EXPECT_EQ(expect_answers_as_plain(coloured).find('\x1b'), std::string::npos);
}

// A structured log's line, pasted as kubectl or a log viewer shows it: the
// traceback inside its JSON string answers as the traceback itself.
TEST_F(MatchCli, JsonLogLineAnswersAsItsTraceback) {
  const std::string json =
      "{\"asctime\": \"2026-12-03 14:27:53,679\", \"levelname\": \"ERROR\", \"message\": \"update failed\", "
      "\"exc_info\": \"Traceback (most recent call last):\\n  File \\\"/srv/app/shapes/cache.py\\\", line 3, in "
      "update\\nValueError: The batch size is not consistent across layers: [2, 3]\"}\n";
  expect_answers_as_plain(json);
}

TEST_F(MatchCli, ExitCodes) {
  EXPECT_EQ(match(shell_quote("qqq zzz")).code, 1);
  EXPECT_EQ(match("", "\n  \n").code, 2);
  EXPECT_EQ(run(testing::errdex_cmd() + " match x --db sqlite:" + (m_tmp / "missing.db").string()).code, 2);
  auto help = run(testing::errdex_cmd() + " match --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--top"), std::string::npos);
}

// A message naming one value twice (`{url!r}` and `{url}`, as requests'
// MissingSchema does) shows it once, as its first capture; the JSON keeps
// both captures, in the message's order. A plural's `'s' if n > 1 else ''`
// is not shown as a value.
TEST(MatchCliValues, AValueTheMessageNamesTwiceIsShownOnce) {
  testing::TempDir tmp;
  testing::write_file(tmp / "repo/net.py",
                      "def prepare(url):\n"
                      "    if '://' not in url:\n"
                      "        raise ValueError(f\"Invalid URL {url!r}: No scheme supplied. Perhaps you meant https://{url}?\")\n"
                      "def take(n):\n"
                      "    if n > 1:\n"
                      "        raise TypeError(f\"take() got {n} argument{'s' if n > 1 else ''}\")\n");
  std::string db = "sqlite:" + (tmp / "e.db").string();
  auto r = run(testing::errdex_cmd() + " scan " + shell_quote((tmp / "repo").string()) + " --repo acme/net -q --db " +
               shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string pasted = "ValueError: Invalid URL 'nota url': No scheme supplied. Perhaps you meant https://nota url?";
  auto text = run(testing::errdex_cmd() + " match " + shell_quote(pasted) + " --db " + shell_quote(db));
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("url = 'nota url'\n"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("url = nota url"), std::string::npos) << text.out;
  auto json = run(testing::errdex_cmd() + " match --json " + shell_quote(pasted) + " --db " + shell_quote(db));
  ASSERT_EQ(json.code, 0) << json.err;
  auto caps = nlohmann::json::parse(json.out)["candidates"][0]["captures"];
  ASSERT_EQ(caps.size(), 2u) << caps;
  EXPECT_EQ(caps[0]["value"], "'nota url'");
  EXPECT_EQ(caps[1]["value"], "nota url");
  auto plural = run(testing::errdex_cmd() + " match " + shell_quote("TypeError: take() got 3 arguments") + " --db " +
                    shell_quote(db));
  ASSERT_EQ(plural.code, 0) << plural.err;
  EXPECT_NE(plural.out.find("   n = 3\n"), std::string::npos) << plural.out;
  EXPECT_EQ(plural.out.find("else '' ="), std::string::npos) << plural.out;
}

// The standard library's typing.py and mailbox.py, scanned as they are,
// and the errors python3 raises through them. typing's `Too {'many' if
// alen > elen else 'few'} arguments` keeps `Too few` as a variant of the
// record's `Too many`: the answer shows the variant that matched and names
// the record's own message. mailbox's `raise NoSuchMailboxError(self._path)`
// prints only its value: its pattern matched, so no "no pattern matched"
// note, but only the class ties such sites to the text, and it says so.
TEST(MatchCliAnswers, ShowsTheVariantThatMatchedAndWhatAPlaceholderMessageTells) {
  testing::TempDir tmp;
  const std::string stdlib = testing::python_stdlib();
  ASSERT_FALSE(stdlib.empty());
  std::filesystem::create_directories(tmp / "repo");
  for (const char* f : {"typing.py", "mailbox.py"})
    std::filesystem::copy_file(std::filesystem::path(stdlib) / f, tmp / "repo" / f);
  const std::string db = "sqlite:" + (tmp / "e.db").string();
  auto scan = run(testing::errdex_cmd() + " scan " + shell_quote((tmp / "repo").string()) +
                  " --repo python/cpython -q --db " + shell_quote(db));
  ASSERT_EQ(scan.code, 0) << scan.err;
  auto match = [&](const std::string& text, const std::string& options = "") {
    testing::write_file(tmp / "in.txt", text);
    return run(testing::errdex_cmd() + " match " + options + " --db " + shell_quote(db) + " < " +
               shell_quote((tmp / "in.txt").string()));
  };

  auto raised = run("python3 -c 'from typing import Dict; Dict[int]'");
  ASSERT_NE(raised.err.find("TypeError: Too few arguments for typing.Dict"), std::string::npos) << raised.err;
  auto text = match(raised.err);
  ASSERT_EQ(text.code, 0) << text.err;
  const auto first = text.out.find("\n1. typing.py:");
  ASSERT_NE(first, std::string::npos) << text.out;
  const std::string answer = text.out.substr(first, text.out.find("\n2. ") - first);
  EXPECT_NE(answer.find("\n   TypeError: Too few arguments for {cls}"), std::string::npos) << answer;
  EXPECT_NE(answer.find("\n   (a variant of the record's message: Too many arguments for {cls}"), std::string::npos)
      << answer;
  auto json = match(raised.err, "--json");
  ASSERT_EQ(json.code, 0) << json.err;
  const auto best = nlohmann::json::parse(json.out)["candidates"][0];
  EXPECT_EQ(best["matchedMessage"].get<std::string>().rfind("Too few arguments for {cls}", 0), 0u) << best;
  EXPECT_EQ(best["errorMessage"].get<std::string>().rfind("Too many arguments for {cls}", 0), 0u) << best;
  EXPECT_EQ(best["variant"], 0) << best;

  auto missing = run("python3 -c \"import mailbox; mailbox.Maildir('/no/such/errdex/maildir', create=False)\"");
  const std::string line = "mailbox.NoSuchMailboxError: /no/such/errdex/maildir\n";
  ASSERT_NE(missing.err.find(line), std::string::npos) << missing.err;
  auto weak = match(line);
  ASSERT_EQ(weak.code, 0) << weak.err;
  EXPECT_NE(weak.out.find("1. mailbox.py:"), std::string::npos) << weak.out;
  EXPECT_EQ(weak.out.find("no pattern matched"), std::string::npos) << weak.out;
  EXPECT_NE(weak.out.find("\nweak: only the class ties these sites to the text: their message is all placeholders"),
            std::string::npos)
      << weak.out;
  auto weak_json = nlohmann::json::parse(match(line, "--json").out);
  EXPECT_EQ(weak_json["weak"], "placeholders") << weak_json;
  EXPECT_EQ(weak_json["fulltextFallback"], false) << weak_json;
  EXPECT_TRUE(weak_json["candidates"][0]["variant"].is_null()) << weak_json;
  // With its traceback, the frame's line names the site: nothing weak.
  auto whole = nlohmann::json::parse(match(missing.err, "--json").out);
  EXPECT_TRUE(whole["weak"].is_null()) << whole;
}

// ajv's shape: `class MissingRefError extends Error {}` never sets its
// name. Node prints it thrown uncaught, and console.error prints it, as
// `MissingRefError: …`; its toString() (and `stack`) as `Error: …`. Each
// form, as node really prints it, finds the site, shown with the class a
// user sees.
TEST(MatchCliAnswers, AJavaScriptClassThatSetsNoNameIsFoundByEveryFormNodePrints) {
  testing::TempDir tmp;
  testing::write_file(tmp / "pkg/package.json", "{\"name\": \"refs\", \"version\": \"1.0.0\", \"main\": \"index.js\"}\n");
  testing::write_file(tmp / "pkg/ref_error.js",
                      "class MissingRefError extends Error {\n"
                      "  constructor(baseId, ref) {\n"
                      "    super(`can't resolve reference ${ref} from id ${baseId}`)\n"
                      "    this.missingRef = ref\n"
                      "  }\n"
                      "}\n"
                      "module.exports = MissingRefError\n");
  testing::write_file(tmp / "pkg/index.js",
                      "const MissingRefError = require('./ref_error')\n"
                      "function resolve(schemas, baseId, ref) {\n"
                      "  if (!(ref in schemas)) throw new MissingRefError(baseId, ref)\n"
                      "  return schemas[ref]\n"
                      "}\n"
                      "module.exports = { resolve }\n");
  const std::string db = "sqlite:" + (tmp / "e.db").string();
  auto scan = run(testing::errdex_cmd() + " scan " + shell_quote((tmp / "pkg").string()) + " -q --db " + shell_quote(db));
  ASSERT_EQ(scan.code, 0) << scan.err;
  const std::string call = "require(" + nlohmann::json((tmp / "pkg/index.js").string()).dump() + ").resolve({}, '#', '#/nope')";
  testing::write_file(tmp / "uncaught.js", call + "\n");
  testing::write_file(tmp / "logged.js", "try { " + call + " } catch (e) { console.error(e); console.error(e.toString()) }\n");
  const std::string uncaught = run("node " + shell_quote((tmp / "uncaught.js").string()) + " 2>&1").out;
  const std::string logged = run("node " + shell_quote((tmp / "logged.js").string()) + " 2>&1").out;
  const std::string as_string = logged.substr(logged.rfind("Error: can't"));
  ASSERT_NE(uncaught.find("\nMissingRefError: can't resolve reference #/nope from id #"), std::string::npos) << uncaught;
  ASSERT_EQ(logged.rfind("MissingRefError: can't resolve reference #/nope from id #", 0), 0u) << logged;
  ASSERT_EQ(as_string, "Error: can't resolve reference #/nope from id #\n") << logged;
  for (const std::string& text : {uncaught, logged.substr(0, logged.find("\n}\n") + 3), as_string,
                                  std::string("MissingRefError: can't resolve reference #/nope from id #\n")}) {
    testing::write_file(tmp / "in.txt", text);
    auto r = run(testing::errdex_cmd() + " match --json --db " + shell_quote(db) + " < " + shell_quote((tmp / "in.txt").string()));
    ASSERT_EQ(r.code, 0) << text << r.err;
    const auto best = nlohmann::json::parse(r.out)["candidates"][0];
    EXPECT_EQ(best["filePath"], "index.js") << text << r.out;
    EXPECT_EQ(best["lineNumber"], 3) << text << r.out;
    EXPECT_EQ(best["errorClass"], "MissingRefError") << text << r.out;
  }
}

}  // namespace
}  // namespace errdex
