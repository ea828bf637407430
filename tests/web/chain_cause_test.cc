// A pasted chain whose last exception is the program's own (`raise
// ConfigError(…) from e`, in a file no store holds): `errdex match`, its
// --json, POST /api/match and the paste page answer the chain's cause, the
// library's raise it came from, beside the weak or empty answer for the
// last exception. A library's own error, unwrapped, has no cause.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/process.h"
#include "web/http_client.h"
#include "web/url.h"

namespace errdex::testing {
namespace {

using nlohmann::json;

TEST(ChainCause, MatchTheApiAndThePageNameTheRaiseAChainCameFrom) {
  TempDir data;
  const std::string db = "sqlite:" + (data / "std.db").string();
  ASSERT_EQ(scan_stdlib_package("json", db).code, 0);
  // A program raising its own class from json's error, a built-in one while
  // handling it, or json's error again.
  write_file(data / "app.py",
             "import json\n"
             "import sys\n"
             "class ConfigError(Exception): pass\n"
             "try:\n"
             "    json.loads('{bad' if sys.argv[1] == 'c' else '')\n"
             "except json.JSONDecodeError as e:\n"
             "    if sys.argv[1] in ('from', 'c'):\n"
             "        raise ConfigError('config is broken') from e\n"
             "    if sys.argv[1] == 'value':\n"
             "        raise ValueError(str(sys.argv))\n"
             "    raise\n");
  auto traceback = [&](const std::string& how) {
    auto r = run("python3 " + shell_quote((data / "app.py").string()) + " " + how);
    EXPECT_NE(r.code, 0);
    write_file(data / (how + ".txt"), r.err);
    return r.err;
  };
  const std::string from = traceback("from"), value = traceback("value"), bare = traceback("bare");
  // json's C scanner raised the cause, under decoder.py's `scan_once`.
  const std::string c_code = traceback("c");
  auto match = [&](const std::string& how, const std::string& flags) {
    return run(errdex_cmd() + " match --db " + shell_quote(db) + " " + flags + " < " +
               shell_quote((data / (how + ".txt")).string()));
  };

  // A class no record raises: a weak answer (words it shares with a
  // site), then its cause.
  auto text = match("from", "");
  EXPECT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("ConfigError: config is broken\n", 0), 0u) << text.out;
  EXPECT_NE(text.out.find("\nweak: "), std::string::npos) << text.out;
  EXPECT_LT(text.out.find("\nweak: "), text.out.find("\nits cause, from which it was raised")) << text.out;
  EXPECT_NE(text.out.find("JSONDecodeError: Expecting value"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("1. Lib/json/decoder.py:"), std::string::npos) << text.out;

  auto as_json = match("from", "--json");
  EXPECT_EQ(as_json.code, 0) << as_json.err;
  json j = json::parse(as_json.out);
  EXPECT_FALSE(j["weak"].is_null()) << as_json.out;
  ASSERT_TRUE(j["cause"].is_object()) << as_json.out;
  EXPECT_EQ(j["cause"]["relation"], "direct");
  EXPECT_EQ(j["cause"]["depth"], 1);
  EXPECT_EQ(j["cause"]["exception"]["errorClass"], "json.decoder.JSONDecodeError");
  ASSERT_FALSE(j["cause"]["candidates"].empty());
  EXPECT_EQ(j["cause"]["candidates"][0]["filePath"], "Lib/json/decoder.py");
  EXPECT_TRUE(j["cause"]["cause"].is_null());

  // A built-in class raised while handling it: a message no site prints.
  j = json::parse(match("value", "--json").out);
  ASSERT_TRUE(j["cause"].is_object()) << j.dump();
  EXPECT_EQ(j["cause"]["relation"], "handling");
  EXPECT_EQ(j["cause"]["candidates"][0]["filePath"], "Lib/json/decoder.py");

  // The library's own error: its answer, and no cause.
  auto own = match("bare", "--json");
  EXPECT_EQ(own.code, 0);
  j = json::parse(own.out);
  ASSERT_FALSE(j["candidates"].empty());
  EXPECT_EQ(j["candidates"][0]["filePath"], "Lib/json/decoder.py");
  EXPECT_TRUE(j["cause"].is_null()) << own.out;
  EXPECT_EQ(match("bare", "").out.find("its cause"), std::string::npos);

  ServeProcess server(db);
  ASSERT_GT(server.port(), 0) << server.output();
  auto api = post(server.port(), "/api/match", "text/plain", from);
  ASSERT_EQ(api.status, 200) << api.body;
  j = json::parse(api.body);
  ASSERT_TRUE(j["cause"].is_object()) << api.body;
  EXPECT_EQ(j["cause"]["candidates"][0]["filePath"], "Lib/json/decoder.py");
  EXPECT_NE(j["cause"]["candidates"][0]["url"].get<std::string>().find("/errors/"), std::string::npos);
  api = post(server.port(), "/api/match", "text/plain", bare);
  ASSERT_EQ(api.status, 200);
  EXPECT_TRUE(json::parse(api.body)["cause"].is_null()) << api.body;

  auto page = post(server.port(), "/match", "application/x-www-form-urlencoded",
                   "text=" + web::percent_encode(from));
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<h2>Its cause</h2>"), std::string::npos) << page.body;
  EXPECT_NE(page.body.find("Lib/json/decoder.py:"), std::string::npos);
  // A cause raised by C code: the sites printing its message, said so.
  api = post(server.port(), "/api/match", "text/plain", c_code);
  ASSERT_EQ(api.status, 200);
  j = json::parse(api.body);
  ASSERT_TRUE(j["cause"].is_object()) << api.body;
  EXPECT_TRUE(j["cause"]["raisedBelowFrame"].get<bool>()) << api.body;
  EXPECT_EQ(j["cause"]["candidates"][0]["filePath"], "Lib/json/decoder.py");
  EXPECT_EQ(j["cause"]["candidates"][0]["errorClass"], "JSONDecodeError");
  page = post(server.port(), "/match", "application/x-www-form-urlencoded", "text=" + web::percent_encode(c_code));
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("raised below its innermost frame; the sites below print its message"), std::string::npos)
      << page.body;
  page = post(server.port(), "/match", "application/x-www-form-urlencoded", "text=" + web::percent_encode(bare));
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.body.find("Its cause"), std::string::npos);
  EXPECT_NE(page.body.find("<h2>What we read</h2>"), std::string::npos);
}

}  // namespace
}  // namespace errdex::testing
