// errdex run around a real Python program that wraps a library's error in
// its own (`raise ConfigError(...) from e`, or a raise while handling it):
// the last exception is the program's, raised where no record is, and the
// answer names the library's raise it came from.
#include <gtest/gtest.h>

#include <sstream>

#include "support/process.h"

namespace errdex::testing {
namespace {

// The lines errdex added to a run's stderr.
std::string said(const std::string& err) {
  std::string out;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("errdex:", 0) == 0) out += line + "\n";
  return out;
}

TEST(RunChain, AnErrorRaisedFromALibrarysErrorNamesThatErrorsRaise) {
  TempDir data;
  // The json package of this machine's Python, as the program imports it.
  const std::string db = "sqlite:" + (data / "json.db").string();
  auto scan = scan_stdlib_package("json", db);
  ASSERT_EQ(scan.code, 0) << scan.err;
  write_file(data / "app.py",
             "import json, sys\n"
             "class ConfigError(Exception):\n"
             "    pass\n"
             "def load(text):\n"
             "    try:\n"
             "        return json.loads(text)\n"
             "    except json.JSONDecodeError as e:\n"
             "        if sys.argv[1] in ('from', 'c'):\n"
             "            raise ConfigError(f'config is broken: {e}') from e\n"
             "        if sys.argv[1] == 'value':\n"
             "            raise ValueError('config is broken')\n"
             "        if sys.argv[1] == 'twice':\n"
             "            try:\n"
             "                raise KeyError('config')\n"
             "            except KeyError as k:\n"
             "                raise ConfigError('no config') from k\n"
             "        raise\n"
             "load('{bad' if sys.argv[1] == 'c' else '')\n");
  auto wrapped = [&](const std::string& how) {
    return run(errdex_cmd() + " run --db " + shell_quote(db) + " --url http://errdex.test -- python3 " +
               shell_quote((data / "app.py").string()) + " " + how);
  };

  // `raise ConfigError(…) from e`: a class no record raises, then its cause.
  auto from = wrapped("from");
  EXPECT_EQ(from.code, 1);
  std::string lines = said(from.err);
  EXPECT_NE(lines.find("errdex: ConfigError matches no raise statement errdex has indexed; it was raised at or below "
                       "app.py:9"),
            std::string::npos)
      << from.err;
  EXPECT_NE(lines.find("errdex: its cause, JSONDecodeError raised at Lib/json/decoder.py:"), std::string::npos)
      << from.err;
  EXPECT_NE(lines.find("http://errdex.test/errors/"), std::string::npos) << lines;
  // Under the whole chain, after the program's own last line.
  EXPECT_NE(from.err.find("ConfigError: config is broken: Expecting value: line 1 column 1 (char 0)"), std::string::npos);
  EXPECT_LT(from.err.find("\nConfigError: config is broken"), from.err.find("errdex: ConfigError"));

  // A built-in class raised in the program's own code while handling it.
  auto value = wrapped("value");
  EXPECT_EQ(value.code, 1);
  lines = said(value.err);
  EXPECT_NE(lines.find("errdex: ValueError matches no raise statement errdex has indexed; it was raised at or below "
                       "app.py:11"),
            std::string::npos)
      << value.err;
  EXPECT_NE(lines.find("errdex: it was raised while handling JSONDecodeError raised at Lib/json/decoder.py:"),
            std::string::npos)
      << value.err;

  // Three exceptions: the nearest one the store explains is two up.
  auto twice = wrapped("twice");
  lines = said(twice.err);
  EXPECT_NE(lines.find("JSONDecodeError raised at Lib/json/decoder.py:"), std::string::npos) << twice.err;
  EXPECT_EQ(lines.find("KeyError raised at"), std::string::npos) << twice.err;

  // Raised by json's C scanner under decoder.py's `self.scan_once(s, idx)`:
  // no raise there (the Python scanner's prints the same message), so the
  // cause is named where it was raised, and no site as its raise.
  auto c = wrapped("c");
  EXPECT_EQ(c.code, 1);
  lines = said(c.err);
  EXPECT_NE(lines.find("errdex: ConfigError matches no raise statement"), std::string::npos) << c.err;
  EXPECT_NE(lines.find("errdex: its cause, JSONDecodeError matches no raise statement errdex has indexed; it was raised "
                       "at or below json/decoder.py:"),
            std::string::npos)
      << c.err;
  EXPECT_EQ(lines.find("raised at Lib/json/decoder.py:"), std::string::npos) << c.err;

  // The library's own error, unwrapped: one answer, no cause.
  auto bare = wrapped("bare");
  lines = said(bare.err);
  EXPECT_EQ(lines.rfind("errdex: JSONDecodeError raised at Lib/json/decoder.py:", 0), 0u) << bare.err;
  EXPECT_EQ(lines.find("cause"), std::string::npos) << bare.err;
  EXPECT_EQ(lines.find("while handling"), std::string::npos) << bare.err;
}

}  // namespace
}  // namespace errdex::testing
