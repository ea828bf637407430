#include "source/source_tree.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <set>

#include "support/process.h"

namespace errdex::source {
namespace {

using testing::run;
using testing::shell_quote;
using testing::TempDir;
using testing::write_file;

std::vector<std::string> paths(const std::vector<Entry>& es) {
  std::vector<std::string> out;
  for (const auto& e : es) out.push_back(e.path);
  return out;
}

TEST(SourceTree, DirectoryListsPythonFilesSortedAndSkipsDependencyDirs) {
  TempDir d;
  write_file(d / "b.py", "x = 1\n");
  write_file(d / "a/c.py", "y = 2\n");
  write_file(d / "a/notes.txt", "not python\n");
  write_file(d / "node_modules/m/x.py", "");
  write_file(d / "env/pyvenv.cfg", "home = /usr\n");
  write_file(d / "env/lib/z.py", "");
  write_file(d / ".yarn/releases/yarn-4.1.0.cjs", "");
  auto t = open_tree(d.str(), std::nullopt, {});
  ASSERT_TRUE(t) << t.error();
  std::vector<Skip> skipped;
  auto es = (*t)->list(skipped);
  EXPECT_EQ(paths(es), (std::vector<std::string>{"a/c.py", "b.py"}));
  EXPECT_EQ((*t)->sha(), "");
  std::set<std::string> reasons;
  for (const auto& s : skipped) reasons.insert(s.path + "=" + s.reason);
  EXPECT_TRUE(reasons.count("node_modules=dependency-dir"));
  EXPECT_TRUE(reasons.count("env=dependency-dir"));
  EXPECT_TRUE(reasons.count(".yarn=dependency-dir"));
  auto content = (*t)->read(es[1]);
  ASSERT_TRUE(content);
  EXPECT_EQ(*content, "x = 1\n");
}

// `pip install .` from a project's folder leaves setuptools' copy of the
// package in `build/lib/`: a second copy of every site, which a traceback
// from the installed package answered in place of `src/`. Skipped beside a
// setup.py or pyproject.toml only; any other `build/lib/` is scanned.
TEST(SourceTree, SetuptoolsBuildOutputBesideTheProjectIsSkipped) {
  TempDir d;
  write_file(d / "proj/pyproject.toml", "[project]\nname = 'p'\n");
  write_file(d / "proj/src/p/a.py", "");
  write_file(d / "proj/build/lib/p/a.py", "");
  write_file(d / "proj/build/lib.linux-x86_64-cpython-311/p/a.py", "");
  write_file(d / "proj/build/bdist.linux-x86_64/p/a.py", "");
  write_file(d / "proj/build/scripts/make.py", "");
  write_file(d / "other/build/lib/x.py", "");
  auto t = open_tree(d.str(), std::nullopt, {});
  ASSERT_TRUE(t) << t.error();
  std::vector<Skip> skipped;
  EXPECT_EQ(paths((*t)->list(skipped)),
            (std::vector<std::string>{"other/build/lib/x.py", "proj/build/scripts/make.py", "proj/src/p/a.py"}));
  std::set<std::string> reasons;
  for (const auto& s : skipped) reasons.insert(s.path + "=" + s.reason);
  EXPECT_TRUE(reasons.count("proj/build/lib=build-output"));
  EXPECT_TRUE(reasons.count("proj/build/bdist.linux-x86_64=build-output"));
}

TEST(SourceTree, SymlinkLoopEndsAndFifoIsNeverOpened) {
  TempDir d;
  write_file(d / "a/x.py", "");
  std::filesystem::create_directory_symlink("../a", d / "a/self");
  std::filesystem::create_directory_symlink("a", d / "alias");  // same dir twice: listed once
  ASSERT_EQ(::mkfifo((d / "f.py").c_str(), 0644), 0);
  auto t = open_tree(d.str(), std::nullopt, {});
  ASSERT_TRUE(t);
  std::vector<Skip> skipped;
  auto es = (*t)->list(skipped);
  EXPECT_EQ(es.size(), 1u);
  bool fifo_skipped = false;
  for (const auto& s : skipped) fifo_skipped |= s.path == "f.py" && s.reason == "not-regular";
  EXPECT_TRUE(fifo_skipped);
}

TEST(SourceTree, ContentProblems) {
  Options o;
  o.max_file_size = 100;
  EXPECT_EQ(content_problem("x = 1\n", o), std::nullopt);
  EXPECT_EQ(content_problem(std::string("a\0b", 3), o), "binary");
  EXPECT_EQ(content_problem("caf\xe9\n", o), "invalid-utf8");
  EXPECT_EQ(content_problem("\xed\xa0\x80", o), "invalid-utf8");  // a UTF-16 surrogate
  EXPECT_EQ(content_problem(std::string(101, 'a'), o), "too-large");
  EXPECT_EQ(content_problem("caf\xc3\xa9 \xe2\x80\x94\n", o), std::nullopt);
}

// PEP 263: a declared encoding is converted to UTF-8, lines unchanged;
// without a (known, matching) declaration the bytes are left as they are.
TEST(SourceTree, DeclaredEncodingIsDecoded) {
  std::string latin = "# -*- coding: latin-1 -*-\nraise ValueError('caf\xe9')\n";
  ASSERT_TRUE(decode_declared_encoding(latin));
  EXPECT_EQ(latin, "# -*- coding: latin-1 -*-\nraise ValueError('caf\xc3\xa9')\n");
  std::string koi = "#!/usr/bin/env python\n# vim: set fileencoding=koi8-r :\nraise KeyError('\xf0\xd2')\n";
  ASSERT_TRUE(decode_declared_encoding(koi));
  EXPECT_NE(koi.find("'\xd0\x9f\xd1\x80'"), std::string::npos);  // "Пр"
  std::string undeclared = "raise ValueError('caf\xe9')\n";
  EXPECT_FALSE(decode_declared_encoding(undeclared));
  EXPECT_EQ(undeclared, "raise ValueError('caf\xe9')\n");
  std::string third_line = "\n\n# coding: latin-1\n'\xe9'\n";
  EXPECT_FALSE(decode_declared_encoding(third_line));
  std::string unknown = "# coding: no-such-codec\n'\xe9'\n";
  EXPECT_FALSE(decode_declared_encoding(unknown));
  std::string wrong = "# coding: ascii\n'\xe9'\n";  // byte not valid in it
  EXPECT_FALSE(decode_declared_encoding(wrong));
  std::string already = "# coding: latin-1\n'caf\xc3\xa9'\n";  // valid UTF-8: left alone
  EXPECT_FALSE(decode_declared_encoding(already));
}

TEST(SourceTree, GitRevisionIsReadWithoutCheckout) {
  TempDir d;
  auto git = [&](const std::string& args) {
    auto r = run("cd " + shell_quote(d.str()) + " && git -c user.name=t -c user.email=t@t -c init.defaultBranch=main " + args);
    EXPECT_EQ(r.code, 0) << r.err;
    return r.out;
  };
  write_file(d / "lib/m.py", "raise ValueError('v1')\n");
  write_file(d / "top.py", "");
  git("init -q");
  git("add -A");
  git("commit -qm one");
  std::string sha1 = git("rev-parse HEAD");
  sha1.pop_back();
  write_file(d / "lib/m.py", "raise ValueError('v2')\n");
  git("commit -qam two");

  auto t = open_tree(d.str(), std::string(sha1.substr(0, 8)), {});
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ((*t)->sha(), sha1);
  std::vector<Skip> skipped;
  auto es = (*t)->list(skipped);
  ASSERT_EQ(paths(es), (std::vector<std::string>{"lib/m.py", "top.py"}));
  EXPECT_EQ(*(*t)->read(es[0]), "raise ValueError('v1')\n");

  // A subfolder at a revision: paths relative to it, repo_path says where.
  auto sub = open_tree((d / "lib").string(), std::string("HEAD"), {});
  ASSERT_TRUE(sub) << sub.error();
  EXPECT_EQ((*sub)->repo_path(), "lib");
  es = (*sub)->list(skipped);
  ASSERT_EQ(paths(es), (std::vector<std::string>{"m.py"}));
  EXPECT_EQ(*(*sub)->read(es[0]), "raise ValueError('v2')\n");

  // The work tree: HEAD's sha; dirty once a tracked file changes.
  auto wt = open_tree(d.str(), std::nullopt, {});
  ASSERT_TRUE(wt);
  EXPECT_FALSE((*wt)->dirty());
  write_file(d / "top.py", "x = 1\n");
  wt = open_tree(d.str(), std::nullopt, {});
  EXPECT_TRUE((*wt)->dirty());

  // A bare clone, opened at its git directory.
  TempDir bare_parent;
  auto cloned = run("git clone -q --bare " + shell_quote(d.str()) + " " + shell_quote((bare_parent / "b.git").string()));
  ASSERT_EQ(cloned.code, 0) << cloned.err;
  auto bare = open_tree((bare_parent / "b.git").string(), std::string("HEAD"), {});
  ASSERT_TRUE(bare) << bare.error();
  EXPECT_EQ((*bare)->repo_path(), "");
  EXPECT_EQ(paths((*bare)->list(skipped)), (std::vector<std::string>{"lib/m.py", "top.py"}));

  // A folder that the repository ignores is not its code: no sha.
  write_file(d / ".gitignore", "versions/\n");
  write_file(d / "versions/lib/os.py", "raise OSError('x')\n");
  git("add .gitignore");
  git("commit -qm ignore");
  auto ignored = open_tree((d / "versions/lib").string(), std::nullopt, {});
  ASSERT_TRUE(ignored);
  EXPECT_EQ((*ignored)->sha(), "");
  EXPECT_EQ((*ignored)->repo_path(), "");

  EXPECT_FALSE(open_tree(d.str(), std::string("nope"), {}));
  EXPECT_FALSE(open_tree((d / "missing").string(), std::nullopt, {}));
  TempDir plain;
  auto not_git = open_tree(plain.str(), std::string("HEAD"), {});
  ASSERT_FALSE(not_git);
  EXPECT_NE(not_git.error().find("not in one"), std::string::npos);
}

// The scan's prefix (--prefix, or the folder's place in its repository)
// before a file's path in the scanned folder, with or without slashes.
TEST(SourceTree, PathInRepoPutsThePrefixBeforeThePath) {
  EXPECT_EQ(path_in_repo("", "json/decoder.py"), "json/decoder.py");
  EXPECT_EQ(path_in_repo("Lib", "json/decoder.py"), "Lib/json/decoder.py");
  EXPECT_EQ(path_in_repo("/Lib/", "os.py"), "Lib/os.py");
  EXPECT_EQ(path_in_repo("src/pkg//", "x.py"), "src/pkg/x.py");
  EXPECT_EQ(path_in_repo("/", "x.py"), "x.py");
}

}  // namespace
}  // namespace errdex::source
