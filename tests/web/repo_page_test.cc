// The repository page of the real `errdex serve`: its stored revisions,
// linking the diff page between each two (no page linked it before: only
// a typed address reached it), and every site page by page (it showed the
// first 1,500 and no way to the rest).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <utility>
#include <vector>

#include "support/process.h"
#include "web/http_client.h"

namespace errdex::testing {
namespace {

TEST(ServeCommand, TheRepositoryPageLinksTheDiffsBetweenItsRevisions) {
  TempDir tmp;
  const auto repo = tmp / "repo";
  auto git = [&](const std::string& args) {
    auto r = run("git -C " + shell_quote(repo.string()) + " -c user.name=t -c user.email=t@t " + args);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
  };
  auto commit = [&](const std::string& source, const std::string& tag) {
    write_file(repo / "units.py", source);
    git("add -A");
    git("commit -q -m " + tag);
    git("tag " + tag);
  };
  ASSERT_EQ(run("git init -q " + shell_quote(repo.string())).code, 0);
  commit("def parse(s):\n"
         "    if not s:\n"
         "        raise ValueError('empty unit')\n"
         "    return s\n",
         "v1.0");
  commit("def parse(s):\n"
         "    if not s:\n"
         "        raise ValueError('a unit cannot be empty')\n"
         "    return s\n",
         "v1.1");
  commit("def parse(s):\n"
         "    if not s:\n"
         "        raise ValueError('a unit cannot be empty')\n"
         "    if s.isdigit():\n"
         "        raise TypeError(f'a unit needs a name, got {s!r}')\n"
         "    return s\n",
         "v2.0");
  const std::string db = "sqlite:" + (tmp / "x.db").string();
  auto scan = run(errdex_cmd() + " scan " + shell_quote(repo.string()) + " --revs 'v*' --repo acme/units -q --db " + db);
  ASSERT_EQ(scan.code, 0) << scan.err;
  // And a repository of one revision.
  auto one = run(errdex_cmd() + " scan " + shell_quote(repo.string()) + " --rev v1.0 --repo acme/one -q --db " + db);
  ASSERT_EQ(one.code, 0) << one.err;

  ServeProcess server(db);
  ASSERT_GT(server.port(), 0) << server.output();
  auto page = get(server.port(), "/repos/acme/units");
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<h2>Revisions</h2>"), std::string::npos) << page.body;
  EXPECT_NE(page.body.find("<a href=\"/repos/acme/units?ref=v2.0\"><code>v2.0</code></a> (current)"), std::string::npos)
      << page.body;
  // Every link of the section answers, and each diff page names its pair.
  const std::regex link("href=\"(/repos/acme/units/diff\\?from=([^&\"]+)&amp;to=([^\"]+))\"");
  std::set<std::string> pairs;
  for (std::sregex_iterator m(page.body.begin(), page.body.end(), link), end; m != end; ++m) {
    std::string url = std::regex_replace((*m)[1].str(), std::regex("&amp;"), "&");
    auto diff = get(server.port(), url);
    EXPECT_EQ(diff.status, 200) << url;
    EXPECT_NE(diff.body.find((*m)[2].str() + " → " + (*m)[3].str()), std::string::npos) << url << "\n" << diff.body;
    pairs.insert((*m)[2].str() + ">" + (*m)[3].str());
  }
  EXPECT_EQ(pairs, (std::set<std::string>{"v1.0>v1.1", "v1.1>v2.0", "v1.0>v2.0"}));
  // What the diffs say: the rewording, then the added TypeError.
  auto reworded = get(server.port(), "/repos/acme/units/diff?from=v1.0&to=v1.1").body;
  EXPECT_NE(reworded.find("<del>empty unit</del> → <ins>a unit cannot be empty</ins>"), std::string::npos) << reworded;
  auto added = get(server.port(), "/repos/acme/units/diff?from=v1.1&to=v2.0").body;
  EXPECT_NE(added.find("<code>TypeError</code> a unit needs a name, got {s!r}"), std::string::npos) << added;

  // A `repo` parameter that is no owner/name is a 400 on every address
  // that reads one (it searched, listed and exported nothing, with 200).
  const std::string id =
      nlohmann::json::parse(get(server.port(), "/api/repos/acme/units/errors").body)["errors"][0]["id"].get<std::string>();
  ASSERT_EQ(id.size(), 16u);
  for (const std::string& url : std::vector<std::string>{"/api/search?q=unit&repo=units", "/search?q=unit&repo=..%2Funits", "/api/dataset.jsonl?repo=acme/units/x",
        "/api/errors/" + id + "?ref=v1.0&repo=units", "/errors/" + id + "/x?ref=v1.0&repo=acme%2F"}) {
    auto r = get(server.port(), url);
    EXPECT_EQ(r.status, 400) << url << "\n" << r.body;
    EXPECT_NE(r.body.find("repo must be owner/name"), std::string::npos) << url << "\n" << r.body;
  }
  EXPECT_EQ(get(server.port(), "/api/search?q=unit&repo=acme/none").status, 200);
  // The site v2.0 holds unchanged from v1.1, reworded from v1.0: one id in all three.
  for (const char* ref : {"v1.0", "v1.1", "v2.0"})
    EXPECT_EQ(get(server.port(), "/api/errors/" + id + "?ref=" + ref + "&repo=acme/units").status, 200) << ref;

  // A revision's own sites (`?ref=`, linked from the list): v1.0 holds one,
  // in its first wording, each linking its page in that revision; the
  // filter form keeps the revision. One not stored is a 404.
  auto v1 = get(server.port(), "/repos/acme/units?ref=v1.0");
  ASSERT_EQ(v1.status, 200);
  EXPECT_NE(v1.body.find("revision <code>v1.0</code> · 1 throw sites"), std::string::npos) << v1.body;
  EXPECT_NE(v1.body.find("empty unit"), std::string::npos) << v1.body;
  EXPECT_EQ(v1.body.find("a unit cannot be empty"), std::string::npos) << v1.body;
  EXPECT_NE(v1.body.find("/errors/" + id + "?repo=acme%2Funits&amp;ref=v1.0"), std::string::npos) << v1.body;
  EXPECT_NE(v1.body.find("<input type=\"hidden\" name=\"ref\" value=\"v1.0\">"), std::string::npos) << v1.body;
  auto v2 = get(server.port(), "/repos/acme/units?ref=v2.0&filter=TypeError");
  ASSERT_EQ(v2.status, 200);
  EXPECT_NE(v2.body.find("a unit needs a name"), std::string::npos) << v2.body;
  EXPECT_EQ(v2.body.find("a unit cannot be empty"), std::string::npos) << v2.body;
  EXPECT_EQ(get(server.port(), "/repos/acme/units?ref=v9.9").status, 404);

  // One revision: no section.
  auto single = get(server.port(), "/repos/acme/one");
  ASSERT_EQ(single.status, 200);
  EXPECT_EQ(single.body.find("Revisions"), std::string::npos) << single.body;
}

// The site links of a page, and its "Next page" link ("" when none).
std::pair<std::set<std::string>, std::string> sites_and_next(const std::string& body) {
  std::set<std::string> sites;
  const std::regex site("href=\"(/errors/[0-9a-f]{16}/[^\"]+)\"");
  for (std::sregex_iterator m(body.begin(), body.end(), site), end; m != end; ++m) sites.insert((*m)[1].str());
  std::smatch next;
  if (!std::regex_search(body, next, std::regex("<a rel=\"next\" href=\"([^\"]+)\""))) return {sites, ""};
  return {sites, std::regex_replace(next[1].str(), std::regex("&amp;"), "&")};
}

TEST(ServeCommand, TheRepositoryPageShowsEverySitePageByPage) {
  TempDir tmp;
  std::string source;
  for (int i = 0; i < 1700; ++i)
    source += "def check_" + std::to_string(i) + "(x):\n    if x is None:\n        raise " +
              (i % 2 ? "ValueError" : "TypeError") + "(f'setting " + std::to_string(i) + " is missing')\n";
  write_file(tmp / "repo" / "settings.py", source);
  const std::string db = "sqlite:" + (tmp / "x.db").string();
  auto scan = run(errdex_cmd() + " scan " + shell_quote((tmp / "repo").string()) +
                  " --repo acme/settings --no-evidence -q --db " + db);
  ASSERT_EQ(scan.code, 0) << scan.err;
  ServeProcess server(db);
  ASSERT_GT(server.port(), 0) << server.output();
  // Every page, by file and by class, filtered or not, until no next link.
  for (const auto& [first, want] : std::vector<std::pair<std::string, std::size_t>>{
           {"/repos/acme/settings", 1700}, {"/repos/acme/settings?by=class", 1700},
           {"/repos/acme/settings?filter=ValueError&by=class", 850}, {"/repos/acme/settings?filter=setting+1", 811}}) {
    std::set<std::string> all;
    std::string url = first;
    int pages = 0;
    while (!url.empty() && pages < 10) {
      auto r = get(server.port(), url);
      ASSERT_EQ(r.status, 200) << url;
      auto [sites, next] = sites_and_next(r.body);
      EXPECT_FALSE(sites.empty()) << url;
      all.insert(sites.begin(), sites.end());
      url = next;
      ++pages;
    }
    EXPECT_EQ(all.size(), want) << first;
    EXPECT_EQ(pages, want > 1500 ? 2 : 1) << first;
  }
  auto first = get(server.port(), "/repos/acme/settings").body;
  EXPECT_NE(first.find("1–1500 of 1700."), std::string::npos) << first.substr(0, 2000);
  EXPECT_EQ(get(server.port(), "/repos/acme/settings?cursor=nope").status, 400);
}

}  // namespace
}  // namespace errdex::testing
