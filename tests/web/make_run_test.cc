// `make run` as a user runs it (scripts/run.sh, which the Makefile calls
// after building): it indexes the environment of the python3 on PATH (its
// standard library and installed distributions, each at its version, issue
// 32 item 3), says what it indexed, and serves; a traceback python3 prints
// then finds its site, in the standard library and in a distribution.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "support/process.h"
#include "web/http_client.h"

namespace errdex {
namespace {

using nlohmann::json;
using testing::run;
using testing::shell_quote;

TEST(MakeRun, IndexesThePythonEnvironmentAndServesIt) {
  testing::TempDir tmp;
  const std::string script = std::string(ERRDEX_SOURCE_DIR) + "/scripts/run.sh";
  testing::ServeProcess server(testing::ServeProcess::Command{
      {"/usr/bin/env", "LISTEN=127.0.0.1:0", script, ERRDEX_BINARY, (tmp / "run.db").string()}, 600});
  ASSERT_GT(server.port(), 0) << server.output();
  const std::string out = server.output();
  EXPECT_NE(out.find("errdex: indexing the environment of "), std::string::npos) << out;
  EXPECT_NE(out.find("the standard library and "), std::string::npos) << out;
  EXPECT_NE(out.find("python/cpython"), std::string::npos) << "stats lists what was indexed: " << out;

  // A standard library error, printed by that python3.
  auto raised = run("python3 -c \"import ipaddress; ipaddress.IPv6Address('12345::')\"");
  ASSERT_NE(raised.code, 0);
  auto m = testing::post(server.port(), "/api/match", "text/plain", raised.err);
  ASSERT_EQ(m.status, 200) << m.body;
  auto j = json::parse(m.body);
  ASSERT_FALSE(j["candidates"].empty()) << m.body;
  EXPECT_EQ(j["candidates"][0]["repo"], "python/cpython");
  EXPECT_EQ(j["candidates"][0]["filePath"], "Lib/ipaddress.py");
  EXPECT_FALSE(j["ambiguous"].get<bool>()) << m.body;

  // An installed distribution's error (tests/match/dist_cases.py raises
  // them with bad inputs), at the installed version.
  auto cases = run("python3 " + shell_quote(std::string(ERRDEX_SOURCE_DIR) + "/tests/match/dist_cases.py") + " </dev/null");
  ASSERT_EQ(cases.code, 0) << cases.err;
  std::istringstream in(cases.out);
  std::string line;
  if (!std::getline(in, line)) GTEST_SKIP() << "no installed distribution raises here";
  auto c = json::parse(line);
  auto dm = testing::post(server.port(), "/api/match", "text/plain", c["traceback"].get<std::string>());
  ASSERT_EQ(dm.status, 200);
  auto dj = json::parse(dm.body);
  ASSERT_FALSE(dj["candidates"].empty()) << dm.body;
  EXPECT_EQ(dj["candidates"][0]["repo"].get<std::string>().rfind("pypi/", 0), 0u) << dm.body;
  EXPECT_EQ(dj["candidates"][0]["filePath"], c["file"]) << dm.body;
  EXPECT_EQ(dj["candidates"][0]["lineNumber"], c["line"]) << dm.body;
  EXPECT_EQ(dj["candidates"][0]["ref"], c["version"]) << dm.body;
}

}  // namespace
}  // namespace errdex
