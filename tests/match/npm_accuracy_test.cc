// Match accuracy on real JavaScript errors: unmodified npm packages
// (pinned as devDependencies, installed by `npm ci`) are scanned by the
// real binary as `npm/<name>`, then made to throw in node with bad inputs
// (tests/match/npm_cases.js); node's own stderr is pasted to `errdex
// match`, whose first answer must be the throw's true file and line.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "support/process.h"

namespace errdex {
namespace {

using testing::errdex_cmd;
using testing::run;
using testing::shell_quote;
using testing::TempDir;
using testing::write_file;

struct Case {
  std::string pkg, file, stack, message;
  int line = 0;
};

class NpmAccuracy : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_dir = new TempDir();
    const std::string modules = std::string(ERRDEX_SOURCE_DIR) + "/node_modules";
    auto r = run("node " + shell_quote(std::string(ERRDEX_SOURCE_DIR) + "/tests/match/npm_cases.js") + " " + shell_quote(modules));
    ASSERT_EQ(r.code, 0) << r.err;
    s_cases = new std::vector<Case>();
    std::set<std::string> pkgs;
    std::istringstream in(r.out);
    for (std::string l; std::getline(in, l);) {
      auto j = nlohmann::json::parse(l);
      s_cases->push_back({j["pkg"], j["file"], j["stack"], j["message"], j["line"]});
      pkgs.insert(j["pkg"]);
    }
    s_db = "sqlite:" + (s_dir->path() / "npm.db").string();
    for (const auto& p : pkgs) {
      auto scan = run(errdex_cmd() + " scan " + shell_quote(modules + "/" + p) + " --repo npm/" + p + " -q --db " + shell_quote(s_db));
      ASSERT_EQ(scan.code, 0) << p << ": " << scan.out << scan.err;
    }
  }
  static void TearDownTestSuite() {
    delete s_cases;
    delete s_dir;
  }

  // Share of cases whose first answer is the true site, pasting `text(c)`.
  template <class Text>
  double top1(const char* what, Text text) {
    int right = 0, n = 0;
    for (const Case& c : *s_cases) {
      ++n;
      auto input = s_dir->path() / "paste.txt";
      write_file(input, text(c));
      auto r = run(errdex_cmd() + " match --json --db " + shell_quote(s_db) + " < " + shell_quote(input.string()));
      std::string got = "nothing";
      if (r.code == 0) {
        auto j = nlohmann::json::parse(r.out);
        if (!j["candidates"].empty()) {
          auto& top = j["candidates"][0];
          got = top["repo"].get<std::string>() + ":" + top["filePath"].get<std::string>() + ":" +
                std::to_string(top["lineNumber"].get<int>());
        }
      }
      std::string want = "npm/" + c.pkg + ":" + c.file + ":" + std::to_string(c.line);
      if (got == want) ++right;
      else std::printf("  %s miss: want %s got %s for %s\n", what, want.c_str(), got.c_str(), c.message.substr(0, 100).c_str());
    }
    double share = n ? 100.0 * right / n : 0;
    std::printf("%s: top-1 %.2f%% (%d of %d)\n", what, share, right, n);
    return share;
  }

  static TempDir* s_dir;
  static std::vector<Case>* s_cases;
  static std::string s_db;
};
TempDir* NpmAccuracy::s_dir = nullptr;
std::vector<Case>* NpmAccuracy::s_cases = nullptr;
std::string NpmAccuracy::s_db;

TEST_F(NpmAccuracy, NodeStderrFindsTheThrow) {
  ASSERT_GE(s_cases->size(), 60u);  // the packages threw what the cases expect
  EXPECT_GE(top1("node stderr", [](const Case& c) { return c.stack; }), 95.0);
}

TEST_F(NpmAccuracy, StackWithoutNodesHeaderFindsTheThrow) {
  // What error.stack holds (a logger prints it): the message and frames,
  // without the `file:line`, source and caret above.
  EXPECT_GE(top1("error.stack", [](const Case& c) { return c.stack.substr(c.stack.find(c.message)); }), 95.0);
}

TEST_F(NpmAccuracy, StackFromAnotherMachineFindsTheThrow) {
  // The same frames under another project's node_modules, pnpm's layout.
  EXPECT_GE(top1("pnpm paths", [](const Case& c) {
              std::string s = c.stack.substr(c.stack.find(c.message));
              const std::string from = std::string(ERRDEX_SOURCE_DIR) + "/node_modules/";
              for (std::size_t at; (at = s.find(from)) != std::string::npos;)
                s.replace(at, from.size(), "/home/u/app/node_modules/.pnpm/" + c.pkg + "@1.0.0/node_modules/");
              return s;
            }),
            95.0);
}

TEST_F(NpmAccuracy, MessageAlone) {
  // One line, no frames: many packages throw one message from several
  // places (validator's assertString), so only a floor is held here.
  EXPECT_GE(top1("message only", [](const Case& c) { return c.message.substr(0, c.message.find('\n')) + "\n"; }), 50.0);
}

}  // namespace
}  // namespace errdex
