// The real `errdex serve` over a scanned repository whose sites have no
// class or no message of their own: every page names them in words.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "support/process.h"
#include "web/http_client.h"

namespace errdex::testing {
namespace {

using nlohmann::json;

// `raise error` of a parameter hands on an error of a class the scan cannot
// know (flask's handle_url_build_error): its record has neither class nor
// message. Its link on the repository page was `<a><code></code> </a>`,
// nothing to click, its page's heading empty, and `errdex list` and `diff`
// printed ": ".
TEST(ServeCommand, ASiteWithNoClassOrMessageIsNamedOnEveryPage) {
  TempDir tmp;
  write_file(tmp / "repo" / "handlers.py",
             "def handle(error, handlers):\n"
             "    \"\"\"Runs the handlers, else raises the error again.\"\"\"\n"
             "    for h in handlers:\n"
             "        if h(error):\n"
             "            return\n"
             "    raise error\n"
             "\n"
             "\n"
             "def later():\n"
             "    raise NotImplementedError\n");
  std::string db = "sqlite:" + (tmp / "x.db").string();
  auto scan = run(errdex_cmd() + " scan " + shell_quote((tmp / "repo").string()) + " --repo acme/handlers -q --db " + db);
  ASSERT_EQ(scan.code, 0) << scan.err;
  auto list = run(errdex_cmd() + " list --db " + db);
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_NE(list.out.find("handlers.py:6  (class unknown): "), std::string::npos) << list.out;

  ServeProcess server(db);
  ASSERT_GT(server.port(), 0) << server.output();
  auto errors = json::parse(get(server.port(), "/api/repos/acme/handlers/errors").body)["errors"];
  ASSERT_EQ(errors.size(), 2u);
  const std::regex empty_link("<a href=\"[^\"]*\">\\s*(<code>\\s*</code>)?\\s*</a>");
  for (const std::string page : {"/repos/acme/handlers", "/repos/acme/handlers?by=class", "/search?q=handlers"}) {
    auto r = get(server.port(), page);
    ASSERT_EQ(r.status, 200) << page;
    EXPECT_FALSE(std::regex_search(r.body, empty_link)) << page << "\n" << r.body;
  }
  auto repo_page = get(server.port(), "/repos/acme/handlers").body;
  EXPECT_NE(repo_page.find("<code>(class unknown)</code>"), std::string::npos) << repo_page;
  for (const auto& e : errors) {
    auto r = get(server.port(), e["url"].get<std::string>());
    ASSERT_EQ(r.status, 200) << e;
    EXPECT_EQ(r.body.find("<h1 class=\"title\"></h1>"), std::string::npos) << r.body;
    EXPECT_EQ(r.body.find("<title>: "), std::string::npos) << r.body;
    EXPECT_EQ(r.body.find("· <code></code></p>"), std::string::npos) << r.body;
    EXPECT_EQ(r.body.find("matches <code></code>"), std::string::npos) << r.body;
  }
}

}  // namespace
}  // namespace errdex::testing
