// The calls passing a message literal (scan/python/message_calls.cc) and
// their link to a helper of another file (scan/python/link.cc).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scan/python/frontend.h"
#include "scan/python/outline.h"
#include "scan/template.h"

namespace errdex::scan {
namespace {

std::vector<std::string> calls_of(const std::string& src) {
  model::FileFacts f;
  PythonLines lines(src);
  read_message_calls(lines, f);
  std::vector<std::string> out;
  for (const auto& c : f.message_calls)
    out.push_back(c.callee + "@" + (c.keyword.empty() ? std::to_string(c.position) : c.keyword) + "=" + c.text);
  return out;
}

TEST(MessageCalls, LiteralsThatReadAsMessagesWithTheirPlace) {
  EXPECT_EQ(calls_of("def f(std):\n"
                     "    _value_check(std > 0, \"Standard deviation must be positive\")\n"
                     "    rv.check(std, msg='std is too large (over 9)', other=f('not (this) one'))\n"),
            (std::vector<std::string>{"_value_check@1=\"Standard deviation must be positive\"",
                                      "rv.check@msg='std is too large (over 9)'", "f@0='not (this) one'"}));
  // A class's constructor (an exception: the sites' own), a def's defaults,
  // one word, no letter, a literal split over lines or joined, a string's
  // brackets and quotes: none of them.
  EXPECT_EQ(calls_of("raise ValueError('bad value given here')\n"
                     "def g(x='a default message here'):\n"
                     "    h('word')\n"
                     "    h('1 2 3')\n"
                     "    h('one' 'two words')\n"
                     "    s = 'a (fake call(\"no\")' + k(\"it's real now\")\n"
                     "    h(*args, 'after a splat it is')\n"),
            (std::vector<std::string>{"k@0=\"it's real now\""}));
  // Keyword arguments do not count as positions.
  EXPECT_EQ(calls_of("check(a=1, 'x y z zz', b=2)\n"), (std::vector<std::string>{"check@0='x y z zz'"}));
}

TEST(MessageCalls, AHelperOfAnotherFileTakesItsCallersLiterals) {
  std::vector<model::FileFacts> files;
  const std::string helper = "def _value_check(condition, message):\n    if not condition:\n        raise ValueError(message)\n";
  files.push_back(scan_python(helper));
  ASSERT_EQ(files[0].sites.size(), 1u);
  EXPECT_EQ(files[0].sites[0].message_param, "message");
  EXPECT_EQ(files[0].sites[0].message_param_position, 1);
  auto caller = [](const std::string& imports, const std::string& call) {
    model::FileFacts f;
    const std::string src = imports + "\ndef g(x):\n    " + call + "\n";
    PythonLines lines(src);
    read_calls(lines, f);
    read_message_calls(lines, f);
    return f;
  };
  files.push_back(caller("from .rv import _value_check", "_value_check(x, 'through a relative import')"));
  files.push_back(caller("import pkg.rv as rv", "rv._value_check(x, message='through the module')"));
  files.push_back(caller("from other import _value_check", "_value_check(x, 'another module of that name')"));
  files.push_back(caller("from pkg.rv import _value_check", "_value_check('the condition is not the message')"));
  files.push_back(caller("from pkg.rv import _value_check as vc", "vc(x, 'through an alias of it')"));
  std::vector<const model::FileFacts*> whole;
  for (const auto& f : files) whole.push_back(&f);
  link_caller_messages(files, {}, whole, {"pkg/rv.py", "pkg/a.py", "pkg/b.py", "pkg/c.py", "pkg/d.py", "pkg/e.py"});
  std::vector<std::string> alternatives;
  for (const auto& t : files[0].sites[0].alternatives) alternatives.push_back(template_text(t));
  // An alias is called by another name: not read (its name is the key).
  EXPECT_EQ(alternatives, (std::vector<std::string>{"through a relative import", "through the module"}));
  // A method's parameter is not filled from other files.
  auto method = scan_python("class C:\n    def check(self, message):\n        raise ValueError(message)\n");
  ASSERT_EQ(method.sites.size(), 1u);
  EXPECT_TRUE(method.sites[0].message_param.empty());
}

}  // namespace
}  // namespace errdex::scan
