// A message that is one of several texts: a conditional expression or a
// literal table indexed by a value, written in the raise or in the variable
// raised. Each text is one the site may show: the first is the record's
// message, the others its variants.
#include "scan/python/frontend.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scan/template.h"

namespace errdex::scan {
namespace {

using model::FileFacts;
using model::ThrowSite;

// The message, then the alternatives, of the only site of `src`.
std::vector<std::string> shown(const std::string& src) {
  FileFacts f = scan_python(src);
  EXPECT_EQ(f.sites.size(), 1u) << src;
  if (f.sites.empty()) return {};
  const ThrowSite& s = f.sites.front();
  std::vector<std::string> out{template_text(s.message)};
  for (const auto& a : s.alternatives) out.push_back(template_text(a));
  return out;
}

using Texts = std::vector<std::string>;

TEST(PythonMessageChoices, AConditionalInTheRaise) {
  EXPECT_EQ(shown("def f(char):\n"
                  "    raise KeyError('unknown flag' if char.isalpha() else 'missing flag')\n"),
            (Texts{"unknown flag", "missing flag"}));
  // An option that reads a parameter builds nothing: the other is the message.
  EXPECT_EQ(shown("def f(msg=None):\n"
                  "    raise ValueError('I/O operation on closed file.' if msg is None else msg)\n"),
            (Texts{"I/O operation on closed file."}));
}

TEST(PythonMessageChoices, AConditionalInTheVariableRaised) {
  // re's parser: `msg = "unknown flag" if char.isalpha() else "missing flag"`.
  EXPECT_EQ(shown("def f(char, source):\n"
                  "    msg = 'unknown flag' if char.isalpha() else 'missing -, : or )'\n"
                  "    raise source.error(msg, len(char) + 1)\n"),
            (Texts{"unknown flag", "missing -, : or )"}));
  // pytest: a parenthesised choice of templates, formatted at the raise.
  EXPECT_EQ(shown("def f(as_pypath, arg):\n"
                  "    msg = (\n"
                  "        'module or package not found: {arg} (missing __init__.py?)'\n"
                  "        if as_pypath\n"
                  "        else 'file or directory not found: {arg}'\n"
                  "    )\n"
                  "    raise UsageError(msg.format(arg=arg))\n"),
            (Texts{"module or package not found: {arg} (missing __init__.py?)", "file or directory not found: {arg}"}));
}

TEST(PythonMessageChoices, ALiteralTableIndexed) {
  // httpx's client: one text per state.
  EXPECT_EQ(shown("def f(self):\n"
                  "    msg = {\n"
                  "        ClientState.OPENED: 'Cannot open a client instance more than once.',\n"
                  "        ClientState.CLOSED: (\n"
                  "            'Cannot reopen a client instance, once it has been closed.'\n"
                  "        ),\n"
                  "    }[self._state]\n"
                  "    raise RuntimeError(msg)\n"),
            (Texts{"Cannot open a client instance more than once.",
                   "Cannot reopen a client instance, once it has been closed."}));
  // A table with `**more` holds texts not written here: read as before.
  EXPECT_EQ(shown("def f(k, more):\n"
                  "    raise KeyError({1: 'one thing', **more}[k])\n"),
            (Texts{"{{1: 'one thing', **more}[k]}"}));
}

TEST(PythonMessageChoices, ChoicesCombineAndAreBounded) {
  // Two choices give every combination.
  EXPECT_EQ(shown("def f(a, b):\n"
                  "    raise ValueError(('left' if a else 'right') + (' up' if b else ' down'))\n"),
            (Texts{"left up", "left down", "right up", "right down"}));
  // Many choices: a few builds at most, the first of them the message.
  std::string many = "def f(a):\n    raise ValueError(";
  for (int i = 0; i < 8; ++i) many += std::string(i ? " + " : "") + "('x" + std::to_string(i) + " ' if a else 'y ')";
  many += ")\n";
  Texts got = shown(many);
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(got.front(), "x0 x1 x2 x3 x4 x5 x6 x7 ");
  EXPECT_LE(got.size(), 16u);
}

// click's `NoSuchOption(option_name, message=None)`: `if message is None:
// message = f"No such option: {option_name}"`, then the base is given
// `message`. A call leaving it out shows the default; one passing it shows
// what it passes (sqlalchemy's `UnmappedInstanceError(inst, "Cannot
// deserialize …")`), in this file and in another.
TEST(PythonMessageChoices, AParameterGivenADefaultTextUnderAnIf) {
  const std::string classes =
      "class UsageError(Exception):\n"
      "    def __init__(self, message, ctx=None):\n"
      "        super().__init__(message)\n"
      "class NoSuchOption(UsageError):\n"
      "    def __init__(self, option_name, message=None, ctx=None):\n"
      "        if message is None:\n"
      "            message = f'No such option: {option_name}'\n"
      "        super().__init__(message, ctx)\n";
  std::vector<model::FileFacts> files;
  files.push_back(scan_python(classes +
                              "def parse(opt, ctx):\n"
                              "    if opt:\n"
                              "        raise NoSuchOption(opt, ctx=ctx)\n"
                              "    raise NoSuchOption(opt, 'Option is gone', ctx)\n"));
  files.push_back(scan_python("from .exceptions import NoSuchOption\n"
                              "def other(opt):\n"
                              "    if opt:\n"
                              "        raise NoSuchOption(opt)\n"
                              "    raise NoSuchOption(opt, message=f'Option {opt} is gone')\n"));
  link_class_displays(files);
  auto first = [](const model::ThrowSite& s) { return template_text(s.message); };
  ASSERT_EQ(files[0].sites.size(), 2u);
  EXPECT_EQ(first(files[0].sites[0]), "No such option: {opt}");
  EXPECT_EQ(first(files[0].sites[1]), "Option is gone");
  ASSERT_EQ(files[1].sites.size(), 2u);
  EXPECT_EQ(first(files[1].sites[0]), "No such option: {opt}");
  EXPECT_EQ(first(files[1].sites[1]), "Option {opt} is gone");
  // click's FileError keeps the hint as `self.message`, which `__str__`
  // returns: a call passing an expression shows it, not the default.
  std::vector<model::FileFacts> kept;
  kept.push_back(scan_python("class ClickException(Exception):\n"
                             "    def __init__(self, message):\n"
                             "        super().__init__(message)\n"
                             "        self.message = message\n"
                             "    def __str__(self):\n"
                             "        return self.message\n"
                             "class FileError(ClickException):\n"
                             "    def __init__(self, filename, hint=None):\n"
                             "        if hint is None:\n"
                             "            hint = 'unknown error'\n"
                             "        super().__init__(hint)\n"
                             "        self.filename = filename\n"));
  kept.push_back(scan_python("from .exceptions import FileError\n"
                             "def open_it(name, e):\n"
                             "    if e:\n"
                             "        raise FileError(name, hint=e.strerror)\n"
                             "    raise FileError(name)\n"));
  link_class_displays(kept);
  ASSERT_EQ(kept[1].sites.size(), 2u);
  EXPECT_EQ(first(kept[1].sites[0]), "{e.strerror}");
  EXPECT_EQ(first(kept[1].sites[1]), "unknown error");
  // Assigned on every path, the parameter never shows as given.
  EXPECT_EQ(shown("class E(Exception):\n"
                  "    def __init__(self, name, message=None):\n"
                  "        message = f'bad {name}'\n"
                  "        super().__init__(message)\n"
                  "def f(n):\n"
                  "    raise E(n, 'passed text')\n"),
            (Texts{"bad {n}"}));
}

// voluptuous's validators: `self.msg or 'value must be at least %s' %
// self.min`. The text is what the site says unless the caller gave one,
// whose text is not known here (as a conditional's parameter).
TEST(PythonMessageChoices, AValueGivenOrElseAText) {
  EXPECT_EQ(shown("class Range:\n"
                  "    def __call__(self, v):\n"
                  "        if v < self.min:\n"
                  "            raise RangeInvalid(self.msg or 'value must be at least %s' % self.min)\n"),
            (Texts{"value must be at least {self.min}"}));
  // Several values in turn, then the text (schema_builder's `message`).
  EXPECT_EQ(shown("def check(msg, default):\n"
                  "    raise ValueInvalid(msg or default or 'invalid value')\n"),
            (Texts{"invalid value"}));
  // A value that is a text itself is an option like the last.
  EXPECT_EQ(shown("def check(v):\n"
                  "    raise ContainsInvalid(('not allowed: %s' % v) or 'value is not allowed')\n"),
            (Texts{"not allowed: {v}", "value is not allowed"}));
  // A local holding the choice.
  EXPECT_EQ(shown("def check(self, v):\n"
                  "    msg = self.msg or f'value must be one of {sorted(self.container)}'\n"
                  "    raise InInvalid(msg)\n"),
            (Texts{"value must be one of {sorted(self.container)}"}));
  // With no text anywhere, the expression as before.
  EXPECT_EQ(shown("def check(a, b):\n"
                  "    raise ValueError(a or b)\n"),
            (Texts{"{a or b}"}));
}

// dynaconf's Validator: `default_messages = MappingProxyType({...})`, read
// as `self.messages["must_exist_true"].format(name=name, env=env)`.
TEST(PythonMessageChoices, ATableWrappedReadOnlyIsStillItsTable) {
  EXPECT_EQ(shown("from types import MappingProxyType\n"
                  "class Validator:\n"
                  "    default_messages = MappingProxyType(\n"
                  "        {\n"
                  "            'must_exist_true': '{name} is required in env {env}',\n"
                  "            'condition': '{name} invalid for {function}({value}) in env {env}',\n"
                  "        }\n"
                  "    )\n"
                  "    def validate(self, name, env):\n"
                  "        _message = self.messages['must_exist_true'].format(name=name, env=env)\n"
                  "        raise ValidationError(_message, details=[(self, _message)])\n"),
            (Texts{"{name} is required in env {env}"}));
  // Not a table: a call of something else.
  EXPECT_EQ(shown("class V:\n"
                  "    default_messages = load({'a': 'text'})\n"
                  "    def f(self):\n"
                  "        raise ValueError(self.messages['a'])\n"),
            (Texts{"{self.messages['a']}"}));
}

// pluggy's `_raise_wrapfail(gen, "did not yield")`: a parameter shown among
// other text takes each text callers in the file write for it.
TEST(PythonMessageChoices, AParameterInsideATextTakesTheCallersTexts) {
  EXPECT_EQ(shown("def _raise_wrapfail(wrap_controller, msg):\n"
                  "    co = wrap_controller.gi_code\n"
                  "    raise RuntimeError(f'wrap_controller at {co.co_name!r} {msg}')\n"
                  "def run(teardown):\n"
                  "    _raise_wrapfail(teardown, 'did not yield')\n"
                  "    _raise_wrapfail(teardown, 'has second yield')\n"
                  "    _raise_wrapfail(teardown, reason)\n"),
            (Texts{"wrap_controller at {co.co_name!r} {msg}", "wrap_controller at {co.co_name!r} did not yield",
                   "wrap_controller at {co.co_name!r} has second yield"}));
  // A value the guards test: the callers' texts are those that pass.
  EXPECT_EQ(shown("def filter_whitespace(mode, text):\n"
                  "    if mode == 'all':\n"
                  "        return text\n"
                  "    else:\n"
                  "        raise Exception('invalid whitespace mode %s' % mode)\n"
                  "def load(text):\n"
                  "    return filter_whitespace('all', text)\n"),
            (Texts{"invalid whitespace mode {mode}"}));
  // Raised on a failure while the value was used: the same.
  EXPECT_EQ(shown("class Field:\n"
                  "    def make_error(self, key):\n"
                  "        try:\n"
                  "            msg = self.error_messages[key]\n"
                  "        except KeyError as error:\n"
                  "            raise AssertionError(f'error key `{key}` does not exist') from error\n"
                  "    def check(self):\n"
                  "        self.make_error('required')\n"),
            (Texts{"error key `{key}` does not exist"}));
  // A name passed, not a text: an Enum member prints otherwise.
  EXPECT_EQ(shown("class SSLProtocol:\n"
                  "    def _set_state(self, new_state):\n"
                  "        raise RuntimeError('cannot switch state from {} to {}'.format(self._state, new_state))\n"
                  "    def close(self):\n"
                  "        self._set_state(SSLProtocolState.FLUSHING)\n"),
            (Texts{"cannot switch state from {self._state} to {new_state}"}));
}

// lark's `def assert_config(value, options, msg='Got %r, expected one of
// %s')`, which raises `ConfigurationError(msg % (value, options))`: the
// default formatted is the message, each text a caller passes formatted
// so a variant; `_grammar_error(self, is_term, msg, *names)` raising
// `msg.format(**args)` likewise. A plain `raise ValueError(msg)` keeps the
// parameter as its message and offers the default text as a variant.
TEST(PythonMessageChoices, AParameterDefaultingToATextShowsIt) {
  EXPECT_EQ(shown("def assert_config(value, options, msg='Got %r, expected one of %s'):\n"
                  "    if value not in options:\n"
                  "        raise ValueError(msg % (value, options))\n"
                  "def g(p):\n"
                  "    assert_config(p, ('a', 'b'), \"%r isn't valid. Expected one of: %s\")\n"
                  "    assert_config(p, ('a', 'b'), other)\n"),
            (Texts{"Got {value}, expected one of {options}", "{value} isn't valid. Expected one of: {options}"}));
  EXPECT_EQ(shown("class Loader:\n"
                  "    def _grammar_error(self, is_term, msg, *names):\n"
                  "        args = {'name': names[0]}\n"
                  "        raise KeyError(msg.format(**args))\n"
                  "    def define(self, name):\n"
                  "        self._grammar_error(True, \"{Type} '{name}' defined more than once\", name)\n"),
            (Texts{"{msg.format(**args)}", "{Type} '{name}' defined more than once"}));
  EXPECT_EQ(shown("def check(value, msg='bad value'):\n"
                  "    if not value:\n"
                  "        raise ValueError(msg)\n"),
            (Texts{"{msg}", "bad value"}));
  // Bound again in the function: the text it is bound to, not the default.
  EXPECT_EQ(shown("def check(value, msg='bad value'):\n"
                  "    msg = 'no value'\n"
                  "    raise ValueError(msg)\n"),
            (Texts{"no value"}));
}

// A module-level name bound to the raising function (`error = _fail`):
// its calls pass their texts as the function's own calls do.
TEST(PythonMessageChoices, CallsOfAnAliasGiveTheirTexts) {
  EXPECT_EQ(shown("def _fail(msg):\n"
                  "    raise RuntimeError('failed: ' + msg)\n"
                  "error = _fail\n"
                  "def use(x):\n"
                  "    if x:\n"
                  "        error('x was set')\n"
                  "    obj.error('not this one')\n"),
            (Texts{"failed: {msg}", "failed: x was set"}));
}

}  // namespace
}  // namespace errdex::scan
