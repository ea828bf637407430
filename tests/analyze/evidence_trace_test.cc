// Issue 29's check of the links themselves: the standard library (its
// Lib/test read as evidence) is scanned, and the tests linked to
// records are run under a tracer (tests/analyze/trace_linked.py) to see the
// record's raise line execute. Every linked test is run (about 900).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/process.h"

namespace errdex {
namespace {

using testing::errdex_cmd;
using testing::run;
using testing::shell_quote;
using testing::TempDir;

TEST(EvidenceTrace, LinkedStandardLibraryTestsExecuteTheRaiseLine) {
  const std::string stdlib = testing::python_stdlib();
  ASSERT_FALSE(stdlib.empty());
  TempDir data;
  const std::string db = "sqlite:" + (data / "s.db").string();
  auto r = run(errdex_cmd() + " scan " + shell_quote(stdlib) + " --repo python/cpython --prefix Lib -q --json --db " +
               shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto exported = (data / "s.jsonl").string();
  r = run(errdex_cmd() + " export --db " + shell_quote(db) + " > " + shell_quote(exported));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto report = (data / "trace.json").string();
  r = run("cd " + shell_quote(data.str()) + " && timeout 900 python3 " +
          shell_quote(std::string(ERRDEX_SOURCE_DIR) + "/tests/analyze/trace_linked.py") + " " + shell_quote(exported) +
          " " + shell_quote(stdlib) + " Lib 100000 " + shell_quote(report));
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(testing::read_file(report));
  const int ran = j["ran"].get<int>(), executed = j["executed"].get<int>();
  ASSERT_GE(ran, 800) << j.dump(1);
  // Every linked test, not a sample: a sample of 150 spreads by ±4 points
  // between two builds whose links agree as often (bench/RESULTS.md). The
  // issue asks for 95 %; the links reached 88.4 % here (772 of 873, since a
  // test links one site or none, a regex-less guess needs a witness, and
  // the links a function's returned instance, a `property(...)` or a test
  // call's literal arguments add run), 89.6 % (773 of 863) once a test's own
  // call that cannot reach the raise links nothing, 90.0 % (785 of 872)
  // once a method's guards read what `__init__` set the instance's
  // attributes to, 90.4 % (806 of 892) once a test's literals are followed
  // into the helpers its call hands them to, 92.4 % (799 of 865) once a
  // receiver's name witnesses no site and a helper called above a site
  // that raises the class too makes it a guess, 92.9 % (798 of 859) once a
  // function defined twice (a platform's branches) links nothing, 93.1 %
  // (798 of 857) once literals are followed into a constructor; 94.1 %
  // (840 of 893) once a bare re-raise in a callee links nothing, a
  // coroutine made before the expectation and a `with` statement's name
  // are followed, and the tracer tries a mixin's Python subclasses too
  // (93.7 % with that tracer before them); 95.1 % (818 of 860) once a
  // witness word the deeper sites hold too says nothing and a raise of
  // unknown class in the site's function makes a regex-less link a guess,
  // 95.2 % (817 of 858) once a helper a base class in another file defines
  // may raise first; 95.4 % (848 of 889) once a test's locals are read as
  // their values, sites in `__new__` are called by the class's name,
  // `callable()` of a literal is decided, and the one site a call's
  // literals do not rule out is left: this floor keeps them from getting
  // worse.
  EXPECT_GE(executed * 1000, ran * 950) << executed << " of " << ran << "\n" << j["missed"].dump(1);
}

}  // namespace
}  // namespace errdex
