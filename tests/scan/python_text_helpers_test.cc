// A message written by a function or method of the same file: the raise
// shows what the helper returns, its parameters replaced by the call's
// arguments; several returns are each a text the site may show.
#include "scan/python/frontend.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scan/template.h"

namespace errdex::scan {
namespace {

using model::FileFacts;
using model::ThrowSite;
using Texts = std::vector<std::string>;

// The message, then the alternatives, of each site of `src`.
std::vector<Texts> shown(const std::string& src) {
  FileFacts f = scan_python(src);
  std::vector<Texts> out;
  for (const ThrowSite& s : f.sites) {
    Texts t{template_text(s.message)};
    for (const auto& a : s.alternatives) t.push_back(template_text(a));
    out.push_back(std::move(t));
  }
  return out;
}

TEST(PythonTextHelpers, AFunctionReturningAFormattedText) {
  // zoneinfo's `_get_invalid_paths_message(tzpaths)`.
  auto got = shown(
      "def _bad_name(name):\n"
      "    return f'bad name {name!r} given'\n"
      "def check(a):\n"
      "    raise ValueError(_bad_name(a))\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], (Texts{"bad name {a!r} given"}));
}

TEST(PythonTextHelpers, AMethodReturningOneOfItsParameters) {
  // unittest's `msg = self._formatMessage(msg, standardMsg)`: the
  // caller's standard text is what the helper returns first.
  auto got = shown(
      "class Case:\n"
      "    def _formatMessage(self, msg, standardMsg):\n"
      "        if not self.longMessage:\n"
      "            return msg or standardMsg\n"
      "        if msg is None:\n"
      "            return standardMsg\n"
      "        return '%s : %s' % (standardMsg, msg)\n"
      "    def assertTrue(self, expr, msg=None):\n"
      "        if not expr:\n"
      "            msg = self._formatMessage(msg, '%s is not true' % safe_repr(expr))\n"
      "            raise self.failureException(msg)\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], (Texts{"{safe_repr(expr)} is not true", "{safe_repr(expr)} is not true : {msg}"}));
}

TEST(PythonTextHelpers, WhatIsNotAMessageHelper) {
  auto got = shown(
      // Returns a bare word: a normaliser, not a message.
      "def _normal(orig):\n"
      "    if orig == 'utf8':\n"
      "        return 'utf-8'\n"
      "    return orig\n"
      "def find(m):\n"
      "    encoding = _normal(m.group(1))\n"
      "    raise SyntaxError('unknown encoding: ' + encoding)\n"
      // Returns only what it read: no text to match.
      "class FTP:\n"
      "    def getline(self):\n"
      "        line = self.file.readline()\n"
      "        return line\n"
      "    def getresp(self):\n"
      "        resp = self.getline()\n"
      "        raise error_perm(resp)\n"
      // Returns an error: resolve_helper's, not a message.
      "def _err(x):\n"
      "    return ValueError(f'bad {x}')\n"
      "def use(x):\n"
      "    raise TypeError(_err(x))\n"
      // Calls itself: read a bounded depth, then left as written.
      "def again(n):\n"
      "    return again(n - 1)\n"
      "def loop(n):\n"
      "    raise ValueError(again(n))\n");
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].front(), "unknown encoding: {encoding}");
  EXPECT_EQ(got[1].front(), "{resp}");
  EXPECT_EQ(got[2].front(), "{_err(x)}");
  EXPECT_EQ(got[3].front(), "{again(n)}");
}

}  // namespace
}  // namespace errdex::scan
