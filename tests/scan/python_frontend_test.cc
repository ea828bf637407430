#include "scan/python/frontend.h"
#include "scan/python/outline.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "scan/conditional_text.h"
#include "scan/template.h"

namespace errdex::scan {
namespace {

using model::FileFacts;
using model::ThrowSite;

// The only site of `src`; fails the test when there is not exactly one.
ThrowSite only_site(const std::string& src) {
  FileFacts f = scan_python(src);
  EXPECT_EQ(f.sites.size(), 1u) << src;
  return f.sites.empty() ? ThrowSite{} : f.sites.front();
}

std::string message(const ThrowSite& s) { return template_text(s.message); }

TEST(PythonFrontend, PlainStringWithContext) {
  const std::string src =
      "import torch\n"
      "class Cache(Base, metaclass=Meta):\n"
      "    \"\"\"Holds layers.\"\"\"\n"
      "    @torch.no_grad()\n"
      "    @staticmethod\n"
      "    def check(self, num_heads, head_dim: int = 3):\n"
      "        '''Checks\\tshapes.'''\n"
      "        if len(head_dim) != len(self.layers):\n"
      "            raise ValueError(\"The batch size is not consistent across layers\")\n";
  ThrowSite s = only_site(src);
  EXPECT_EQ(s.kind, "raise");
  EXPECT_EQ(s.error_class, "ValueError");
  EXPECT_EQ(s.line, 9);
  EXPECT_EQ(s.end_line, 9);
  EXPECT_EQ(s.message.style, "string");
  EXPECT_TRUE(s.message.from_literals);
  EXPECT_EQ(message(s), "The batch size is not consistent across layers");
  EXPECT_EQ(s.raised_text, "ValueError(\"The batch size is not consistent across layers\")");
  ASSERT_EQ(s.guards.size(), 1u);
  EXPECT_EQ(s.guards[0].kind, "if");
  EXPECT_EQ(s.guards[0].condition, "len(head_dim) != len(self.layers)");
  EXPECT_EQ(s.guards[0].names, (std::vector<std::string>{"len", "head_dim", "self.layers"}));
  EXPECT_EQ(s.guards[0].line, 8);
  EXPECT_EQ(s.function, "check");
  EXPECT_EQ(s.function_params, "self, num_heads, head_dim: int = 3");
  EXPECT_EQ(s.function_doc, "Checks\tshapes.");
  EXPECT_EQ(s.function_line, 6);
  EXPECT_EQ(s.decorators, (std::vector<std::string>{"torch.no_grad()", "staticmethod"}));
  EXPECT_EQ(s.class_name, "Cache");
  EXPECT_EQ(s.class_bases, "Base, metaclass=Meta");
  EXPECT_EQ(s.class_doc, "Holds layers.");
  FileFacts f = scan_python(src);
  ASSERT_EQ(f.classes.size(), 1u);
  EXPECT_EQ(f.classes[0].name, "Cache");
  EXPECT_EQ(f.classes[0].bases, (std::vector<std::string>{"Base"}));
  EXPECT_EQ(f.classes[0].line, 2);
  EXPECT_FALSE(f.had_syntax_errors);
}

TEST(PythonFrontend, StringPrefixesAndEscapes) {
  EXPECT_EQ(message(only_site(R"(raise E("a\tb\\c\'\"\x41\u00e9\N{DASH}"))")),
            "a\tb\\c'\"A\xC3\xA9{\\N{DASH}}");
  EXPECT_EQ(message(only_site(R"(raise E(r"\d+\n"))")), "\\d+\\n");
  EXPECT_EQ(message(only_site(R"(raise E(u'x\n'))")), "x\n");
  EXPECT_EQ(message(only_site(R"(raise E(R'\t'))")), "\\t");
  EXPECT_EQ(message(only_site("raise E(\"\"\"line1\nline2 \\\nsame\"\"\")")), "line1\nline2 same");
}

TEST(PythonFrontend, FStringInterpolations) {
  ThrowSite s = only_site(
      "def f(x, y, w, n):\n"
      "    raise ValueError(f\"got {x!r} and {y:>10} {{lit}} {y:{w}} {n=} {len(x)} {n:.2f}\")\n");
  EXPECT_EQ(s.message.style, "fstring");
  EXPECT_EQ(message(s), "got {x!r} and {y:>10} {lit} {y:{w}} n={n!r} {len(x)} {n:.2f}");
  ASSERT_GE(s.message.parts.size(), 2u);
  EXPECT_FALSE(s.message.parts[1].literal);
  EXPECT_EQ(s.message.parts[1].text, "x");
  EXPECT_EQ(s.message.parts[1].display, "x!r");
  EXPECT_EQ(s.message.parts.back().printf_conv, 'f');
  EXPECT_EQ(s.function_params, "x, y, w, n");
}

TEST(PythonFrontend, ImplicitConcatenationAcrossLines) {
  ThrowSite s = only_site(
      "def f(n):\n"
      "    raise ValueError(\n"
      "        \"first part, \"\n"
      "        f\"count={n}, \"\n"
      "        'end'\n"
      "    )\n");
  EXPECT_EQ(s.line, 2);
  EXPECT_EQ(s.end_line, 6);
  EXPECT_EQ(s.message.style, "fstring");
  EXPECT_EQ(message(s), "first part, count={n}, end");
}

TEST(PythonFrontend, PlusConcatenation) {
  ThrowSite s = only_site("raise TypeError(\"a\" + str(x) + 'b' + f'{y}')\n");
  EXPECT_EQ(s.message.style, "concat");
  ASSERT_EQ(s.message.parts.size(), 4u);
  EXPECT_EQ(s.message.parts[1].text, "str(x)");
  EXPECT_EQ(message(s), "a{str(x)}b{y}");
  // Numbers added together are not a message template.
  EXPECT_EQ(only_site("raise E(a + 1)\n").message.style, "expression");
}

TEST(PythonFrontend, PercentFormatting) {
  ThrowSite tuple = only_site("raise E('%s has %d items (%.1f%%), %5d, %-3s' % (name, n, r, w, q))\n");
  EXPECT_EQ(tuple.message.style, "percent");
  EXPECT_EQ(message(tuple), "{name} has {n} items ({r}%), {w}, {q}");
  ASSERT_EQ(tuple.message.parts.size(), 9u);
  EXPECT_EQ(tuple.message.parts[2].printf_conv, 'd');
  EXPECT_EQ(tuple.message.parts[4].printf_conv, 'f');
  EXPECT_EQ(tuple.message.parts[6].printf_conv, 's') << "padded %5d must not narrow";
  ThrowSite single = only_site("raise E('bad %r' % value)\n");
  EXPECT_EQ(message(single), "bad {value}");
  ThrowSite dict = only_site("raise E('%(name)s is %(age)d' % {'name': user.name, \"age\": a})\n");
  EXPECT_EQ(message(dict), "{user.name} is {a}");
  ThrowSite opaque = only_site("raise E('%(name)s' % mapping)\n");
  EXPECT_EQ(message(opaque), "{name}");
  ThrowSite many = only_site("raise E('%s and %s' % args)\n");
  EXPECT_EQ(message(many), "{args[0]} and {args[1]}");
}

TEST(PythonFrontend, StrFormat) {
  ThrowSite s = only_site("raise E('{} and {} {{x}} {key!r:>4} {0.attr}'.format(a, b, key=c))\n");
  EXPECT_EQ(s.message.style, "format");
  EXPECT_EQ(message(s), "{a} and {b} {x} {c!r:>4} {a.attr}");
  ThrowSite numbered = only_site("raise E('{1}-{0}:{v:d}'.format(x, y, v=z))\n");
  EXPECT_EQ(message(numbered), "{y}-{x}:{z:d}");
  EXPECT_EQ(numbered.message.parts.back().printf_conv, 'd');
}

TEST(PythonFrontend, MessageVariable) {
  ThrowSite s = only_site(
      "def f(x):\n"
      "    msg = 'unused'\n"
      "    msg = f'bad {x}'\n"
      "    if x:\n"
      "        msg += ' (retry)'\n"
      "    raise ValueError(msg)\n");
  EXPECT_EQ(s.message.style, "variable");
  EXPECT_TRUE(s.message.from_literals);
  EXPECT_EQ(message(s), "bad {x} (retry)");
  // An assignment after the raise or in another function does not count.
  FileFacts f = scan_python(
      "def g():\n"
      "    msg = 'other'\n"
      "def h():\n"
      "    raise ValueError(msg)\n"
      "    msg = 'late'\n");
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(f.sites[0].message.style, "expression");
  EXPECT_FALSE(f.sites[0].message.from_literals);
  EXPECT_EQ(message(f.sites[0]), "{msg}");
}

// importlib's `_ERR_MSG.format(name)`: a module constant, itself built
// from another, reads as its text in the functions of the module. Only a
// constant-style name assigned once in the module does, and the function's
// own assignment to the name wins.
TEST(PythonFrontend, ModuleConstantsInMessages) {
  FileFacts f = scan_python(
      "def load(name):\n"
      "    raise ModuleNotFoundError(_ERR_MSG.format(name), name=name)\n"
      "_ERR_MSG_PREFIX = 'No module named '\n"
      "_ERR_MSG = _ERR_MSG_PREFIX + '{!r}'\n"
      "def concat(x):\n"
      "    raise ValueError(_ERR_MSG_PREFIX + x)\n"
      "TWICE = 'a'\n"
      "TWICE = 'b'\n"
      "lower = 'not a constant'\n"
      "def others(x):\n"
      "    raise ValueError(TWICE)\n"
      "    raise ValueError(lower)\n"
      "def own(x):\n"
      "    _ERR_MSG = 'mine: {}'\n"
      "    raise ValueError(_ERR_MSG.format(x))\n"
      "def parent(name, parent):\n"
      "    msg = (_ERR_MSG + '; {!r} is not a package').format(name, parent)\n"
      "    raise ModuleNotFoundError(msg, name=name) from None\n");
  ASSERT_EQ(f.sites.size(), 6u);
  EXPECT_EQ(message(f.sites[0]), "No module named {name!r}");
  EXPECT_EQ(message(f.sites[1]), "No module named {x}");
  EXPECT_EQ(message(f.sites[2]), "{TWICE}");
  EXPECT_EQ(message(f.sites[3]), "{lower}");
  EXPECT_EQ(message(f.sites[4]), "mine: {x}");
  EXPECT_EQ(message(f.sites[5]), "No module named {name!r}; {parent!r} is not a package");
}

// `def fail(self, msg, exc=TemplateSyntaxError): raise exc(msg, ...)`
// (Jinja's parser, runpy's `error=ImportError`): the class is the
// parameter's default, and the callers' messages are its variants.
TEST(PythonFrontend, ClassFromAParameterDefault) {
  FileFacts f = scan_python(
      "class Parser:\n"
      "    def fail(self, msg, lineno=None, exc=TemplateSyntaxError):\n"
      "        raise exc(msg, lineno)\n"
      "    def parse(self, x):\n"
      "        self.fail(f'unknown tag {x!r}')\n"
      "def other(kind=None):\n"
      "    raise kind('no default class')\n"
      "def own(exc=KeyError):\n"
      "    exc = ValueError\n"
      "    raise exc('assigned')\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].error_class, "TemplateSyntaxError");
  EXPECT_EQ(f.sites[0].alternatives.size(), 1u);
  EXPECT_EQ(f.sites[1].error_class, "kind");
  EXPECT_EQ(f.sites[2].error_class, "exc");
}

std::vector<std::string> alternatives(const ThrowSite& s) {
  std::vector<std::string> out;
  for (const auto& a : s.alternatives) out.push_back(template_text(a));
  return out;
}

// Every text the site may show: its message, then its alternatives.
std::vector<std::string> shown(const ThrowSite& s) {
  std::vector<std::string> out{template_text(s.message)};
  for (const auto& a : s.alternatives) out.push_back(template_text(a));
  return out;
}

// Every assignment that can reach the raise is a message it may show: the
// latest is the record's, the others its variants. One the flow cannot
// bring to the raise (replaced in the same block, on the other branch of
// the raise's `if`, or followed by a raise) is not.
TEST(PythonFrontend, MessageVariableOnBranches) {
  ThrowSite s = only_site(
      "def find(filename, encoding):\n"
      "    msg = 'replaced'\n"
      "    if filename is None:\n"
      "        msg = 'unknown encoding: ' + encoding\n"
      "    else:\n"
      "        msg = 'unknown encoding for {!r}: {}'.format(filename, encoding)\n"
      "    raise SyntaxError(msg)\n");
  EXPECT_EQ(message(s), "unknown encoding for {filename!r}: {encoding}");
  EXPECT_EQ(alternatives(s), std::vector<std::string>{"unknown encoding: {encoding}"});

  FileFacts f = scan_python(
      "def g(x):\n"
      "    if x < 0:\n"
      "        msg = 'negative'\n"
      "        raise ValueError(msg)\n"
      "    if x > 9:\n"
      "        msg = 'too big'\n"
      "    else:\n"
      "        msg = 'just right'\n"
      "        raise ValueError(msg)\n"
      "    raise KeyError(msg)\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(message(f.sites[0]), "negative");
  EXPECT_TRUE(f.sites[0].alternatives.empty());
  EXPECT_EQ(message(f.sites[1]), "just right");  // 'too big' is on the other branch
  EXPECT_TRUE(f.sites[1].alternatives.empty());
  EXPECT_EQ(message(f.sites[2]), "too big");  // 'negative' left by its raise
  EXPECT_TRUE(f.sites[2].alternatives.empty());

  // A variable rebuilt from itself is read as it was before that line.
  ThrowSite rebuilt = only_site(
      "def bind(param):\n"
      "    msg = 'missing a required argument: {arg!r}'\n"
      "    msg = msg.format(arg=param.name)\n"
      "    raise TypeError(msg) from None\n");
  EXPECT_EQ(message(rebuilt), "missing a required argument: {param.name!r}");
}

// `raise err` where err was built earlier: the class and message are the
// built exception's.
TEST(PythonFrontend, RaisedVariableTakesTheBuiltException) {
  ThrowSite s = only_site(
      "def lookup(cls, value):\n"
      "    ve_exc = ValueError('%r is not a valid %s' % (value, cls.__qualname__))\n"
      "    raise ve_exc\n");
  EXPECT_EQ(s.error_class, "ValueError");
  EXPECT_EQ(message(s), "{value} is not a valid {cls.__qualname__}");
  // A caught exception raised by its name is raised again.
  ThrowSite caught = only_site(
      "try:\n"
      "    f()\n"
      "except OSError as exc:\n"
      "    raise exc\n");
  EXPECT_EQ(caught.error_class, "OSError");
  EXPECT_TRUE(caught.reraise);
}

// `raise helper(...)` where the helper in this file returns the exception:
// its returns are the messages, its parameters replaced by the arguments.
TEST(PythonFrontend, HelperThatBuildsTheException) {
  FileFacts f = scan_python(
      "def _error(value):\n"
      "    if value:\n"
      "        return ValueError('unexpected token in plural form: %s' % value)\n"
      "    else:\n"
      "        return ValueError('unexpected end of plural form')\n"
      "def suffixed_err(src, pos, msg):\n"
      "    return DecodeError(f'{msg} (at {pos})')\n"
      "def parse(tok, src, pos, expect):\n"
      "    if tok:\n"
      "        raise _error(tok) from None\n"
      "    raise suffixed_err(src, pos, f'Expected {expect!r}')\n"
      "def not_a_helper(x):\n"
      "    raise make(x)\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].error_class, "ValueError");
  EXPECT_EQ(message(f.sites[0]), "unexpected token in plural form: {tok}");
  EXPECT_EQ(alternatives(f.sites[0]), std::vector<std::string>{"unexpected end of plural form"});
  EXPECT_EQ(f.sites[1].error_class, "DecodeError");
  EXPECT_EQ(message(f.sites[1]), "Expected {expect!r} (at {pos})");
  EXPECT_EQ(f.sites[2].error_class, "make");  // no `def make` here: as written
  EXPECT_EQ(message(f.sites[2]), "{x}");
}

// A helper that names the exception before returning it (to set an
// attribute on it), and one whose `%s` a call fills with a string literal:
// the literal's text, as Python prints it.
TEST(PythonFrontend, HelperReturningTheExceptionItNamed) {
  FileFacts f = scan_python(
      "def _fail(what, path):\n"
      "    exc = TypeError('expected %s' % what)\n"
      "    exc.filename = path\n"
      "    return exc\n"
      "def _other(x):\n"
      "    exc = compute(x)\n"
      "    return exc\n"
      "def check(v, p):\n"
      "    if v is None:\n"
      "        raise _fail('a number', p)\n"
      "    raise _other(v)\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(f.sites[0].error_class, "TypeError");
  EXPECT_EQ(message(f.sites[0]), "expected a number");
  EXPECT_EQ(f.sites[1].error_class, "_other") << "a name bound to no class's call is no exception made";
}

// A message that is the function's parameter: what the callers in this
// file pass for it (positionally, after `self` for a method, or by name).
TEST(PythonFrontend, ParameterMessageFromCallers) {
  FileFacts f = scan_python(
      "class Context:\n"
      "    def _raise_error(self, condition, explanation=None, *args):\n"
      "        error = condition\n"
      "        raise error(explanation)\n"
      "def sqrt(context, x):\n"
      "    if x < 0:\n"
      "        return context._raise_error(InvalidOperation, 'sqrt(-x), x > 0')\n"
      "    context._raise_error(DivisionByZero, explanation='x / %s' % x)\n"
      "    context._raise_error(Overflow, *rest)\n"
      "def _fail_neg(values, errmsg='negative value'):\n"
      "    raise StatisticsError(errmsg)\n"
      "def hmean(data):\n"
      "    _fail_neg(data, 'harmonic mean does not support negative values')\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(message(f.sites[0]), "{explanation}");
  EXPECT_EQ(alternatives(f.sites[0]), (std::vector<std::string>{"sqrt(-x), x > 0", "x / {x}"}));
  // The parameter's own default first (what a call leaving it out shows).
  EXPECT_EQ(alternatives(f.sites[1]),
            (std::vector<std::string>{"negative value", "harmonic mean does not support negative values"}));
}

// A translated literal, `_("...")` or `gettext("...")`, reads as its text
// (getopt, optparse and argparse build their messages so).
TEST(PythonFrontend, GettextCallReadsAsItsLiteral) {
  FileFacts f = scan_python(
      "def f(opt, args):\n"
      "    if opt:\n"
      "        raise GetoptError(_('option --%s not recognized') % opt, opt)\n"
      "    if args:\n"
      "        raise ValueError(gettext.gettext('bad {n}').format(n=args))\n"
      "    if not args:\n"
      "        raise SphinxError(__('job number should be a positive number'))\n"
      "    raise TypeError(_(opt))\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(message(f.sites[0]), "option --{opt} not recognized");
  EXPECT_EQ(message(f.sites[1]), "bad {args}");
  EXPECT_EQ(message(f.sites[2]), "job number should be a positive number");  // sphinx's `__`
  EXPECT_EQ(message(f.sites[3]), "{_(opt)}");  // not a literal: an opaque value
}

// What Python prints for `raise Cls(args)` when Cls, defined in the same
// file, formats its own message: its `__str__` (inherited from a base
// here too, with `self.msg` kept from `__init__`), or the message its
// `__init__` gives the base. Each is an alternative of the site, with the
// class's parameters replaced by the call's arguments.
TEST(PythonFrontend, ExceptionClassThatFormatsItsMessage) {
  FileFacts f = scan_python(
      "class Error(Exception):\n"
      "    def __init__(self, msg=''):\n"
      "        self.message = msg\n"
      "        Exception.__init__(self, msg)\n"
      "class NoSectionError(Error):\n"
      "    def __init__(self, section):\n"
      "        Error.__init__(self, 'No section: %r' % (section,))\n"
      "class OptionError(Exception):\n"
      "    def __init__(self, msg, option):\n"
      "        self.msg = msg\n"
      "        self.option_id = str(option)\n"
      "    def __str__(self):\n"
      "        if self.option_id:\n"
      "            return 'option %s: %s' % (self.option_id, self.msg)\n"
      "        return self.msg\n"
      "class BadOptionError(OptionError):\n"
      "    pass\n"
      "class MonthError(ValueError):\n"
      "    def __init__(self, month):\n"
      "        super().__init__(f'bad month number {month}')\n"
      "def get(section, opt, kind, m):\n"
      "    if not section:\n"
      "        raise NoSectionError(section)\n"
      "    if not opt:\n"
      "        raise BadOptionError('invalid option type: %r' % kind, opt)\n"
      "    raise MonthError(m)\n");
  ASSERT_EQ(f.sites.size(), 3u);
  // What the class prints is the message; the argument alone tells nothing.
  EXPECT_EQ(shown(f.sites[0]), std::vector<std::string>{"No section: {section}"});
  EXPECT_EQ(message(f.sites[1]), "invalid option type: {kind}");
  EXPECT_EQ(alternatives(f.sites[1]),
            (std::vector<std::string>{"option {self.option_id}: invalid option type: {kind}"}));
  EXPECT_EQ(shown(f.sites[2]), std::vector<std::string>{"bad month number {m}"});
}

// What a class prints, read in its other common shapes: a `__str__`
// returning what `__init__` kept (`self.message`) or handed its base
// (`self.args[1]`, aiohttp's WebSocketError); a message variable with a
// hint appended under an `if` (boto3's ResourceNotExistsError), whose two
// texts are both offered; a triple-quoted constant stripped before it is
// formatted (celery's `ERR_ENVVAR_NOT_SET.strip().format(name)`).
TEST(PythonFrontend, ClassDisplaysKeptArgumentsVariablesAndStrippedConstants) {
  FileFacts f = scan_python(
      "ERR_NOT_SET = \"\"\"\nThe environment variable {0!r} is not set.\n\"\"\"\n"
      "class WebSocketError(Exception):\n"
      "    def __init__(self, code, message):\n"
      "        self.code = code\n"
      "        super().__init__(code, message)\n"
      "    def __str__(self):\n"
      "        return self.args[1]\n"
      "class Kept(Exception):\n"
      "    def __init__(self, code, message):\n"
      "        self.message = message\n"
      "    def __str__(self):\n"
      "        return self.message\n"
      "class NotExists(Exception):\n"
      "    def __init__(self, name, hint):\n"
      "        msg = 'The {!r} resource does not exist.'.format(name)\n"
      "        if hint:\n"
      "            msg = f'{msg} Consider a client for {name}'\n"
      "        Exception.__init__(self, msg)\n"
      "class Configuration(Exception):\n"
      "    pass\n"
      "def f(x, name):\n"
      "    if x == 1:\n"
      "        raise WebSocketError(1002, 'Received frame with non-zero reserved bits')\n"
      "    if x == 2:\n"
      "        raise Kept(3, f'bad code {x}')\n"
      "    if x == 3:\n"
      "        raise NotExists(name, x)\n"
      "    raise Configuration(ERR_NOT_SET.strip().format(name))\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(shown(f.sites[0]), std::vector<std::string>{"Received frame with non-zero reserved bits"});
  EXPECT_EQ(shown(f.sites[1]), std::vector<std::string>{"bad code {x}"});
  // Which of its two texts it shows is not known: the raise's argument
  // (`name`) is not one of them, so the last with text is the message, the
  // other an alternative (an f-string's `{msg}` stays a name).
  EXPECT_EQ(shown(f.sites[2]), (std::vector<std::string>{"The {name!r} resource does not exist.",
                                                        "{msg} Consider a client for {name}"}));
  EXPECT_EQ(message(f.sites[3]), "The environment variable {name!r} is not set.");
}

// A message laid out by a call reads as the text it lays out: sympy's
// `filldedent("""\n    text""")` and `textwrap.fill` as its words one
// space apart (the width decides where lines break), `textwrap.dedent` and
// `inspect.cleandoc` as its lines without the indentation they share. A
// call of the same name with a second positional argument is another
// library's.
TEST(PythonFrontend, ALaidOutMessageReadsAsItsText) {
  FileFacts f = scan_python(
      "import textwrap, inspect\n"
      "from sympy.utilities.misc import filldedent\n"
      "def f(x, rng):\n"
      "    if x == 1:\n"
      "        raise ValueError(filldedent(\"\"\"\n"
      "            Idx range tuple must have length 2,\n"
      "            but got %s\"\"\" % len(rng)))\n"
      "    if x == 2:\n"
      "        raise TypeError(textwrap.dedent(f'''\n"
      "            Bad value {x}:\n"
      "              use a number\n"
      "            '''))\n"
      "    if x == 3:\n"
      "        raise KeyError(inspect.cleandoc(\"\"\"No key\n"
      "            in the table\"\"\"))\n"
      "    if x == 4:\n"
      "        raise ValueError(textwrap.fill('A long  text', width=40))\n"
      "    raise ValueError(fill(x, rng))\n");
  ASSERT_EQ(f.sites.size(), 5u);
  EXPECT_EQ(message(f.sites[0]), "Idx range tuple must have length 2, but got {len(rng)}");
  EXPECT_EQ(template_pattern(f.sites[0].message), "Idx range tuple must have length 2, but got (.+?)");
  EXPECT_EQ(message(f.sites[1]), "Bad value {x}:\n  use a number");
  EXPECT_EQ(message(f.sites[2]), "No key\nin the table");
  EXPECT_EQ(message(f.sites[3]), "A long text");
  EXPECT_EQ(message(f.sites[4]), "{fill(x, rng)}");
}

// jinja's TemplateSyntaxError: `__str__` shows `t.cast(str, self.message)`,
// where `message` is a property of the base returning `self.args[0] if
// self.args else None` and `__init__` handed its base `message`: the raise's
// first argument, not the cast's text. packaging's `_invalid_metadata(msg)`
// helper returns `InvalidMetadata(self.raw_name, msg)`, whose `__init__(field,
// message)` hands its base the message: the helper's call's text, not the
// field.
TEST(PythonFrontend, ClassDisplaysThroughPropertiesCastsAndHelpers) {
  FileFacts f = scan_python(
      "import typing as t\n"
      "class TemplateError(Exception):\n"
      "    def __init__(self, message=None):\n"
      "        super().__init__(message)\n"
      "    @property\n"
      "    def message(self):\n"
      "        \"\"\"The message.\"\"\"\n"
      "        return self.args[0] if self.args else None\n"
      "class TemplateSyntaxError(TemplateError):\n"
      "    def __init__(self, message, lineno):\n"
      "        super().__init__(message)\n"
      "        self.lineno = lineno\n"
      "    def __str__(self):\n"
      "        lines = [t.cast(str, self.message), '  line ' + str(self.lineno)]\n"
      "        return '\\n'.join(lines)\n"
      "class InvalidMetadata(ValueError):\n"
      "    def __init__(self, field, message):\n"
      "        self.field = field\n"
      "        super().__init__(message)\n"
      "class _Validator:\n"
      "    def _invalid_metadata(self, msg, cause=None):\n"
      "        exc = InvalidMetadata(self.raw_name, msg)\n"
      "        exc.__cause__ = cause\n"
      "        return exc\n"
      "    def _process_version(self, value):\n"
      "        raise self._invalid_metadata(f'{value!r} is not a valid metadata version')\n"
      "def tokenize(stream):\n"
      "    raise TemplateSyntaxError('unclosed gettext expression', stream.lineno)\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(f.sites[0].error_class, "InvalidMetadata");
  EXPECT_EQ(message(f.sites[0]), "{value!r} is not a valid metadata version");
  EXPECT_EQ(f.sites[1].error_class, "TemplateSyntaxError");
  EXPECT_EQ(shown(f.sites[1]).front().find("unclosed gettext expression\n  line "), 0u) << shown(f.sites[1]).front();
}

// multiprocessing's RemoteError frames `str(self.args[0])` in rules of
// dashes; a display without a word does not replace the message with words
// the helper's call gives (`convert_to_error` returns `RemoteError(
// 'Unserializable message: %s\\n' % result)`).
TEST(PythonFrontend, ADisplayWithoutWordsLeavesAMessageWithWords) {
  ThrowSite s = only_site(
      "class RemoteError(Exception):\n"
      "    def __str__(self):\n"
      "        return ('\\n' + '-'*75 + '\\n' + str(self.args[0]) + '-'*75)\n"
      "def convert_to_error(kind, result):\n"
      "    return RemoteError('Unserializable message: %s\\n' % result)\n"
      "def dispatch(c):\n"
      "    kind, result = c.recv()\n"
      "    raise convert_to_error(kind, result)\n");
  EXPECT_EQ(s.error_class, "RemoteError");
  EXPECT_EQ(template_text(s.message), "Unserializable message: {result}\n");
}

// sqlalchemy's UnmappedInstanceError: `__init__` under a decorator that
// wraps it (`@util.preload_module(...)`) is still what Python runs: the
// message it hands its base. A property named `__init__`-like protocol is
// not (a `@staticmethod`'s `__str__` is no `__str__`).
TEST(PythonFrontend, ADecoratedInitIsTheClasssInit) {
  FileFacts f = scan_python(
      "class UnmappedInstanceError(Exception):\n"
      "    @util.preload_module('sqlalchemy.orm.base')\n"
      "    def __init__(self, obj, msg=None):\n"
      "        if not msg:\n"
      "            msg = f\"Class '{type(obj).__name__}' is not mapped\"\n"
      "        Exception.__init__(self, msg)\n"
      "class Odd(Exception):\n"
      "    @staticmethod\n"
      "    def __str__():\n"
      "        return 'never shown'\n"
      "def attach(instance):\n"
      "    raise UnmappedInstanceError(instance)\n"
      "def odd():\n"
      "    raise Odd('shown')\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(message(f.sites[0]), "Class '{type(obj).__name__}' is not mapped");
  EXPECT_EQ(message(f.sites[1]), "shown");
}

// tornado's HTTPError: `__str__` formats the status code `__init__` kept,
// returning a special case first and its general text last. `raise
// HTTPError(403)` prints "HTTP 403: Forbidden", never "403": the last text
// is the message, with the code's digits, and the first an alternative.
TEST(PythonFrontend, AStrWithSeveralReturnsShowsItsLastWithTheDigitsGiven) {
  FileFacts f = scan_python(
      "class HTTPError(Exception):\n"
      "    def __init__(self, status_code=500, log_message=None, *args):\n"
      "        self.status_code = status_code\n"
      "        self.log_message = log_message\n"
      "    def __str__(self):\n"
      "        if self.log_message:\n"
      "            return 'HTTP %d: %s (%s)' % (self.status_code, reason(self.status_code), self.log_message)\n"
      "        return 'HTTP %d: %s' % (self.status_code, reason(self.status_code))\n"
      "def get(x):\n"
      "    if not x:\n"
      "        raise HTTPError(403)\n"
      "    raise HTTPError('x', 'said')\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(shown(f.sites[0]), (std::vector<std::string>{"HTTP 403: {reason(self.status_code)}",
                                                        "HTTP 403: {reason(self.status_code)} ({self.log_message})"}));
  // An argument with text of its own stays the message; a string is no
  // number, so `%d` of it shows the argument as written.
  EXPECT_EQ(message(f.sites[1]), "x");
  const auto all = shown(f.sites[1]);
  EXPECT_NE(std::find(all.begin(), all.end(), "HTTP {'x'}: {reason(self.status_code)}"), all.end())
      << testing::PrintToString(all);
}

// werkzeug's HTTP errors: the base's `__str__` shows `self.description`,
// which each subclass sets in its body and `__init__` replaces only when
// given one. A raise passing nothing shows the subclass's own text, here
// and in another file; one passing a description shows that. A `self.x`
// that `__init__` sets to anything else is not the class's text.
TEST(PythonFrontend, AClassBodysTextShowsWhereTheRaisePassesNone) {
  std::vector<FileFacts> files;
  files.push_back(scan_python(
      "class HTTPException(Exception):\n"
      "    description = None\n"
      "    hint = 'base hint'\n"
      "    def __init__(self, description=None):\n"
      "        super().__init__()\n"
      "        if description is not None:\n"
      "            self.description = description\n"
      "        self.hint = compute()\n"
      "    def __str__(self):\n"
      "        return f'{self.code}: {self.description} ({self.hint})'\n"
      "class NotFound(HTTPException):\n"
      "    code = 404\n"
      "    description = (\n"
      "        'The requested URL was not found'\n"
      "        ' on the server.'\n"
      "    )\n"
      "def view(x):\n"
      "    if x:\n"
      "        raise NotFound()\n"
      "    raise NotFound('No such user')\n"));
  files.push_back(scan_python("from .exceptions import NotFound\ndef other():\n    raise NotFound()\n"));
  link_class_displays(files);
  ASSERT_EQ(files[0].sites.size(), 2u);
  EXPECT_EQ(message(files[0].sites[0]), "{self.code}: The requested URL was not found on the server. ({self.hint})");
  EXPECT_EQ(message(files[0].sites[1]), "{self.code}: No such user ({self.hint})");
  ASSERT_EQ(files[1].sites.size(), 1u);
  EXPECT_EQ(message(files[1].sites[0]), "{self.code}: The requested URL was not found on the server. ({self.hint})");
}

// click's exceptions: `UsageError.__str__` returns `self.message`, which
// its `__init__` keeps; `BadOptionUsage(option_name, message)` hands its
// second parameter to that `__init__`. The raise's second argument is
// what prints, here and where another file raises the class, a message
// built with `.format` or `%` included.
TEST(PythonFrontend, WhatABasesInitKeepsIsWhatTheSubclassHandsIt) {
  std::vector<FileFacts> files;
  files.push_back(scan_python(
      "class UsageError(Exception):\n"
      "    def __init__(self, message, ctx=None):\n"
      "        super().__init__(message)\n"
      "        self.message = message\n"
      "    def __str__(self):\n"
      "        return self.message\n"
      "class BadOptionUsage(UsageError):\n"
      "    def __init__(self, option_name, message, ctx=None):\n"
      "        super().__init__(message, ctx)\n"
      "        self.option_name = option_name\n"
      "class BadValue(BadOptionUsage):\n"
      "    def __init__(self, name, text):\n"
      "        super().__init__(name, text)\n"
      "def parse(opt):\n"
      "    raise BadOptionUsage(opt, 'Option {name!r} does not take a value.'.format(name=opt))\n"));
  files.push_back(scan_python(
      "from .exceptions import BadOptionUsage, BadValue\n"
      "def other(opt, n):\n"
      "    if n:\n"
      "        raise BadOptionUsage(opt, 'Option %r takes %d values.' % (opt, n))\n"
      "    raise BadValue(opt, 'Bad value for ' + opt)\n"));
  link_class_displays(files);
  ASSERT_EQ(files[0].sites.size(), 1u);
  EXPECT_EQ(message(files[0].sites[0]), "Option {opt!r} does not take a value.");
  ASSERT_EQ(files[1].sites.size(), 2u);
  EXPECT_EQ(message(files[1].sites[0]), "Option {opt} takes {n} values.");
  EXPECT_EQ(message(files[1].sites[1]), "Bad value for {opt}");
}

// sqlalchemy's exceptions print `"%s %s" % (message, self._code_str())`
// under `if self.code:` from a base's `__str__`: a display without a word of
// its own does not replace the message a raise in another file gives, and a
// bare `raise` in an `except` of such a class is what was caught, no
// display filled with arguments it does not pass.
TEST(PythonFrontend, AnotherFilesDisplayWithoutWordsOrAReraiseKeepsTheMessage) {
  std::vector<FileFacts> files;
  files.push_back(scan_python(
      "class SQLAlchemyError(Exception):\n"
      "    code = None\n"
      "    def __str__(self):\n"
      "        message = self._message()\n"
      "        if self.code:\n"
      "            message = '%s %s' % (message, self._code_str())\n"
      "        return message\n"
      "class ArgumentError(SQLAlchemyError):\n"
      "    pass\n"));
  files.push_back(scan_python(
      "from . import exc\n"
      "def match(columns, against, ref):\n"
      "    if not columns:\n"
      "        raise exc.ArgumentError('columns are required')\n"
      "    try:\n"
      "        ref.resolve()\n"
      "    except exc.ArgumentError:\n"
      "        raise\n"));
  link_class_displays(files);
  ASSERT_EQ(files[1].sites.size(), 2u);
  EXPECT_EQ(message(files[1].sites[0]), "columns are required");
  EXPECT_EQ(message(files[1].sites[1]), "");
  EXPECT_TRUE(files[1].sites[1].alternatives.empty());
}

// pyyaml: `class ComposerError(MarkedYAMLError): pass` in composer.py
// prints as its base in error.py does, whose `__str__` joins the lines it
// appended under `if self.x is not None`. A raise passing `None` for a line
// (or leaving out a parameter that defaults to `None`) shows no such line:
// `ComposerError(None, None, "found undefined alias %r" % anchor, mark)`
// prints the problem and its mark. A class with an `__init__` of its own
// does not take its base's display.
TEST(PythonFrontend, AClassWithoutMethodsPrintsAsItsBaseInAnotherFileWithoutItsNoneLines) {
  std::vector<FileFacts> files;
  files.push_back(scan_python(
      "class MarkedYAMLError(Exception):\n"
      "    def __init__(self, context=None, context_mark=None, problem=None, problem_mark=None, note=None):\n"
      "        self.context = context\n"
      "        self.context_mark = context_mark\n"
      "        self.problem = problem\n"
      "        self.problem_mark = problem_mark\n"
      "        self.note = note\n"
      "    def __str__(self):\n"
      "        lines = []\n"
      "        if self.context is not None:\n"
      "            lines.append(self.context)\n"
      "        if self.context_mark is not None:\n"
      "            lines.append(str(self.context_mark))\n"
      "        if self.problem is not None:\n"
      "            lines.append(self.problem)\n"
      "        if self.problem_mark is not None:\n"
      "            lines.append(str(self.problem_mark))\n"
      "        if self.note is not None:\n"
      "            lines.append(self.note)\n"
      "        return '\\n'.join(lines)\n"
      "def fail(mark):\n"
      "    raise MarkedYAMLError(None, None, 'stream ended', mark)\n"));
  files.push_back(scan_python(
      "from .error import MarkedYAMLError\n"
      "class ComposerError(MarkedYAMLError):\n"
      "    pass\n"
      "class OwnError(MarkedYAMLError):\n"
      "    def __init__(self, what):\n"
      "        self.what = compute(what)\n"
      "def compose(event, anchor, node):\n"
      "    if anchor:\n"
      "        raise ComposerError(None, None, 'found undefined alias %r' % anchor, event.start_mark)\n"
      "    if node:\n"
      "        raise ComposerError('while composing a node', node.mark, 'found duplicate anchor', event.mark)\n"
      "    raise OwnError(anchor)\n"));
  link_class_displays(files);
  ASSERT_EQ(files[0].sites.size(), 1u);
  EXPECT_EQ(message(files[0].sites[0]), "stream ended\n{mark}");
  ASSERT_EQ(files[1].sites.size(), 3u);
  EXPECT_EQ(message(files[1].sites[0]), "found undefined alias {anchor}\n{event.start_mark}");
  EXPECT_EQ(message(files[1].sites[1]), "while composing a node\n{node.mark}\nfound duplicate anchor\n{event.mark}");
  EXPECT_EQ(message(files[1].sites[2]), "{anchor}");
}

// pydantic's errors: the `__str__` and `__init__` come from a mixin that
// derives from nothing, named first among the bases; the exception class
// is the second. The file raises nothing itself (its methods are read
// again when a class like an exception needs them).
TEST(PythonFrontend, AnExceptionsMixinBaseShowsTheMessage) {
  std::vector<FileFacts> files;
  files.push_back(scan_python(
      "class ErrorMixin:\n"
      "    def __init__(self, message, *, code):\n"
      "        self.message = message\n"
      "        self.code = code\n"
      "    def __str__(self):\n"
      "        return self.message\n"
      "class UndefinedAnnotation(ErrorMixin, NameError):\n"
      "    def __init__(self, name, message):\n"
      "        self.name = name\n"
      "        super().__init__(message=message, code='undefined-annotation')\n"));
  files.push_back(scan_python(
      "from .errors import UndefinedAnnotation\n"
      "def g(obj):\n"
      "    raise UndefinedAnnotation(obj.arg, f'Unable to evaluate forward reference {obj}')\n"));
  link_class_displays(files);
  ASSERT_EQ(files[1].sites.size(), 1u);
  EXPECT_EQ(message(files[1].sites[0]), "Unable to evaluate forward reference {obj}");
}

// A file's sites and classes with its imports, as a scan gives the linker.
FileFacts with_imports(const std::string& src) {
  FileFacts f = scan_python(src);
  read_calls(src, f);
  return f;
}

// link_class_displays over `files` (with_imports' facts) at `paths`.
void link_with_imports(std::vector<FileFacts>& files, const std::vector<std::string>& paths) {
  std::vector<const FileFacts*> whole;
  for (const FileFacts& f : files) whole.push_back(&f);
  link_class_displays(files, {}, whole, paths);
}

// A class of the same name taken from a package outside the repository
// (pydantic's `from pydantic_core import ValidationError`, beside its v1
// ValidationError) is not the repository's class; one imported from the
// repository's own package, or relatively, is.
TEST(PythonFrontend, AClassImportedFromOutsideIsNotTheRepositorysNamesake) {
  std::vector<FileFacts> files;
  files.push_back(scan_python(
      "class ValidationError(ValueError):\n"
      "    def __init__(self, errors, model):\n"
      "        self.errors = errors\n"
      "    def __str__(self):\n"
      "        return f'{len(self.errors)} validation errors'\n"));
  files.push_back(with_imports("from pydantic_core import ValidationError\ndef a(e):\n    raise ValidationError(e, 'M')\n"));
  files.push_back(with_imports("import pydantic_core\ndef b(e):\n    raise pydantic_core.ValidationError(e, 'M')\n"));
  files.push_back(with_imports("from pydantic.v1.errors import ValidationError\ndef c(e):\n    raise ValidationError(e, 'M')\n"));
  files.push_back(with_imports("from .errors import ValidationError\ndef d(e):\n    raise ValidationError(e, 'M')\n"));
  link_with_imports(files,
                    {"pydantic/v1/errors.py", "pydantic/main.py", "pydantic/plugin.py", "pydantic/v1/main.py",
                     "pydantic/v1/dataclasses.py"});
  EXPECT_EQ(message(files[1].sites[0]), "{e}");
  EXPECT_EQ(message(files[2].sites[0]), "{e}");
  EXPECT_EQ(message(files[3].sites[0]), "{len(self.errors)} validation errors");
  EXPECT_EQ(message(files[4].sites[0]), "{len(self.errors)} validation errors");
}

// Two modules of one repository define a class of one name (an HTTP
// parser's `InvalidHeader` in `http/errors.py`, with a `__str__`, and a
// bare one in `asgi/parser.py`): a file raising it means the one of the
// module it imports it from, absolutely, relatively or through the
// module's name. A file importing it from neither is left alone.
TEST(PythonFrontend, AClassSeveralModulesDefineIsTheOneTheRaisingFileImports) {
  std::vector<FileFacts> files;
  files.push_back(scan_python(
      "class InvalidHeader(Exception):\n"
      "    def __init__(self, hdr):\n"
      "        self.hdr = hdr\n"
      "    def __str__(self):\n"
      "        return 'Invalid HTTP Header: %r' % self.hdr\n"));
  files.push_back(scan_python(
      "class InvalidHeader(Exception):\n"
      "    def __init__(self, name):\n"
      "        self.name = name\n"
      "    def __str__(self):\n"
      "        return 'Bad header %s' % self.name\n"));
  files.push_back(with_imports("from web.http.errors import InvalidHeader\ndef a(n):\n    raise InvalidHeader(n)\n"));
  files.push_back(with_imports("from ..asgi.parser import InvalidHeader\ndef b(n):\n    raise InvalidHeader(n)\n"));
  files.push_back(with_imports("from web.http import errors\ndef c(n):\n    raise errors.InvalidHeader(n)\n"));
  files.push_back(with_imports("from web.compat import InvalidHeader\ndef e(n):\n    raise InvalidHeader(n)\n"));
  link_with_imports(files,
                    {"src/web/http/errors.py", "src/web/asgi/parser.py", "src/web/http/message.py",
                     "src/web/http/wsgi.py", "src/web/app.py", "src/web/util.py"});
  EXPECT_EQ(message(files[2].sites[0]), "Invalid HTTP Header: {n}");
  EXPECT_EQ(message(files[3].sites[0]), "Bad header {n}");
  EXPECT_EQ(message(files[4].sites[0]), "Invalid HTTP Header: {n}");
  EXPECT_EQ(message(files[5].sites[0]), "{n}");
}

// A message kept in another module as a string constant
// (`from .socket import SERVER_CLOSED`, `raise ConnectionError(SERVER_CLOSED)`)
// shows the module's literal, also read through the module (`errors.X`); a
// name the module binds twice, or not to a string literal, stays a
// placeholder.
TEST(PythonFrontend, AStringConstantImportedFromAnotherModuleIsItsText) {
  std::vector<FileFacts> files;
  files.push_back(with_imports(
      "SERVER_CLOSED = 'Connection closed by server.'\n"
      "TIMEOUT = \"Timeout reading from socket\"\n"
      "CHANGING = 'first'\n"
      "if x:\n"
      "    CHANGING = 'second'\n"
      "BUILT = make_text()\n"
      "CODE = 3\n"));
  files.push_back(with_imports(
      "from .socket import SERVER_CLOSED, CHANGING, BUILT, CODE\n"
      "from . import socket\n"
      "def read(sock, n):\n"
      "    if not sock:\n"
      "        raise ConnectionError(SERVER_CLOSED)\n"
      "    if n:\n"
      "        raise TimeoutError('%s after %d s' % (socket.TIMEOUT, n))\n"
      "    if n is None:\n"
      "        raise ValueError(CHANGING)\n"
      "    if n > 5:\n"
      "        raise ValueError(BUILT)\n"
      "    raise ValueError(CODE)\n"));
  std::vector<const FileFacts*> whole;
  for (const FileFacts& f : files) whole.push_back(&f);
  link_imported_constants(files, {}, whole, {"src/db/socket.py", "src/db/parser.py"});
  ASSERT_EQ(files[1].sites.size(), 5u);
  EXPECT_EQ(message(files[1].sites[0]), "Connection closed by server.");
  EXPECT_EQ(message(files[1].sites[1]), "Timeout reading from socket after {n} s");
  EXPECT_EQ(message(files[1].sites[2]), "{CHANGING}");
  EXPECT_EQ(message(files[1].sites[3]), "{BUILT}");
  EXPECT_EQ(message(files[1].sites[4]), "{CODE}");
}

// A class of another file showing its argument's repr (`"Invalid HTTP
// Header: %r" % self.hdr`): a text the raise writes shows in the quotes
// Python's repr puts around it, double ones around a single quote; a name
// stays a placeholder.
TEST(PythonFrontend, AnArgumentShownByItsReprIsQuoted) {
  std::vector<FileFacts> files;
  files.push_back(scan_python(
      "class InvalidHeader(Exception):\n"
      "    def __init__(self, hdr, req=None):\n"
      "        self.hdr = hdr\n"
      "    def __str__(self):\n"
      "        return 'Invalid HTTP Header: %r' % self.hdr\n"));
  files.push_back(scan_python(
      "from .errors import InvalidHeader\n"
      "def parse(name, proto):\n"
      "    if name:\n"
      "        raise InvalidHeader('CONTENT-LENGTH', req=name)\n"
      "    if proto:\n"
      "        raise InvalidHeader(\"protocol '%s' not supported\" % proto)\n"
      "    raise InvalidHeader(name)\n"));
  link_class_displays(files);
  ASSERT_EQ(files[1].sites.size(), 3u);
  EXPECT_EQ(message(files[1].sites[0]), "Invalid HTTP Header: 'CONTENT-LENGTH'");
  EXPECT_EQ(message(files[1].sites[1]), "Invalid HTTP Header: \"protocol '{proto}' not supported\"");
  EXPECT_EQ(message(files[1].sites[2]), "Invalid HTTP Header: {name}");
}

// Django's validators: `raise ValidationError(self.message, …)` in a
// method of RegexValidator, whose body sets `message = _('Enter a valid
// value.')` and whose `__init__` replaces it only when given one. The
// class's text is the message, a subclass's here an alternative. Where
// only subclasses set it (minidom's `Childless` and each node class's
// `nodeName`), the message stays as written; where `__init__` sets it to
// something else, the class's text says nothing.
TEST(PythonFrontend, AMethodsSelfAttributeShowsWhatItsClassSets) {
  FileFacts f = scan_python(
      "class RegexValidator:\n"
      "    message = _('Enter a valid value.')\n"
      "    def __init__(self, regex=None, message=None):\n"
      "        if message is not None:\n"
      "            self.message = message\n"
      "    def __call__(self, value):\n"
      "        if not value:\n"
      "            raise ValidationError(self.message, code='invalid')\n"
      "class URLValidator(RegexValidator):\n"
      "    message = _('Enter a valid URL.')\n"
      "class Childless:\n"
      "    def appendChild(self, node):\n"
      "        raise HierarchyRequestErr(self.nodeName + ' nodes cannot have children')\n"
      "class Text(Childless):\n"
      "    nodeName = '#text'\n"
      "class Computed:\n"
      "    message = 'class text'\n"
      "    def __init__(self):\n"
      "        self.message = compute()\n"
      "    def check(self):\n"
      "        raise ValueError(self.message)\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(shown(f.sites[0]), (std::vector<std::string>{"Enter a valid value.", "Enter a valid URL."}));
  EXPECT_EQ(shown(f.sites[1]),
            (std::vector<std::string>{"{self.nodeName} nodes cannot have children", "#text nodes cannot have children"}));
  EXPECT_EQ(shown(f.sites[2]), std::vector<std::string>{"{self.message}"});
}

// A `__str__` that returns what a method of the class (or of a base here)
// returns (pyparsing 3.2+: `return self.formatted_message()`): that
// method's returns are what the instance shows, even when the outline
// first blanked the method (it raises nothing).
TEST(PythonFrontend, StrThatReturnsAMethodsMessage) {
  std::string source =
      "class ParseBaseException(Exception):\n"
      "    def __init__(self, pstr, loc=0, msg=None):\n"
      "        self.loc = loc\n"
      "        self.msg = msg\n"
      "        self.pstr = pstr\n"
      "    def formatted_message(self):\n"
      "        found = self.pstr[self.loc:self.loc + 1]\n"
      "        return f'{self.msg}, found {found!r}  (at char {self.loc})'\n"
      "    def __str__(self):\n"
      "        try:\n"
      "            return self.formatted_message()\n"
      "        except Exception as ex:\n"
      "            return f'{type(self).__name__}: {self.msg}'\n"
      "class ParseException(ParseBaseException):\n"
      "    pass\n";
  // Enough code raising nothing for the outline to blank most of the file.
  for (int i = 0; i < 60; ++i) source += "def helper" + std::to_string(i) + "(x):\n    y = x + 1\n    return y * 2\n";
  source += "def parse(text, at):\n    raise ParseException(text, at, 'Expected digit')\n";
  FileFacts f = scan_python(source);
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(message(f.sites[0]), "Expected digit, found {found!r}  (at char {at})");
  for (const std::string& s : alternatives(f.sites[0])) EXPECT_EQ(s.find("formatted_message"), std::string::npos) << s;
}

// A `__str__` whose `try` returns the message and whose `except` handler
// returns a fallback for when formatting fails (pyparsing's
// ParseBaseException): the message is what the `try` returns, the
// fallback only an alternative.
TEST(PythonFrontend, AStrsExceptHandlerReturnIsOnlyTheFallback) {
  FileFacts f = scan_python(
      "class ParseError(Exception):\n"
      "    def __init__(self, text, loc=0, msg=None):\n"
      "        self.loc = loc\n"
      "        self.msg = msg\n"
      "    def formatted(self):\n"
      "        return f'{self.msg} (at char {self.loc})'\n"
      "    def __str__(self):\n"
      "        try:\n"
      "            return self.formatted()\n"
      "        except Exception as ex:\n"
      "            return f'{type(self).__name__}: {self.msg} ({ex} while formatting)'\n"
      "class SpanError(Exception):\n"
      "    def __init__(self, start, end):\n"
      "        self.start = start\n"
      "        self.end = end\n"
      "    def __str__(self):\n"
      "        try:\n"
      "            return 'bad span %d-%d' % (self.start, self.end)\n"
      "        except TypeError:\n"
      "            return 'bad span (unprintable bounds)'\n"
      "def parse(text, at):\n"
      "    if at:\n"
      "        raise SpanError(at, len(text))\n"
      "    raise ParseError(text, at, 'Expected digit')\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(message(f.sites[0]), "bad span {at}-{len(text)}");
  EXPECT_EQ(message(f.sites[1]), "Expected digit (at char {at})");
  auto shown = alternatives(f.sites[1]);
  EXPECT_NE(std::find(shown.begin(), shown.end(), "{type(self).__name__}: Expected digit ({ex} while formatting)"),
            shown.end())
      << testing::PrintToString(shown);
}

// A `__str__` returning `str(self.detail)`, where `__init__` keeps the
// parameter or, when it is left to `None`, the class's `default_detail`
// (Django REST framework's APIException): the class's text, a subclass's
// own, or what the raise passes.
TEST(PythonFrontend, AStrOfAKeptAttributeShowsWhatItKeeps) {
  FileFacts f = scan_python(
      "class APIError(Exception):\n"
      "    default_detail = 'A server error occurred.'\n"
      "    def __init__(self, detail=None):\n"
      "        if detail is None:\n"
      "            detail = self.default_detail\n"
      "        self.detail = detail\n"
      "    def __str__(self):\n"
      "        return str(self.detail)\n"
      "class NotAuthenticated(APIError):\n"
      "    default_detail = 'Authentication credentials were not provided.'\n"
      "def view(user, ok):\n"
      "    if not user:\n"
      "        raise NotAuthenticated()\n"
      "    if not ok:\n"
      "        raise APIError()\n"
      "    raise NotAuthenticated('You shall not pass.')\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(message(f.sites[0]), "Authentication credentials were not provided.");
  EXPECT_EQ(message(f.sites[1]), "A server error occurred.");
  EXPECT_EQ(message(f.sites[2]), "You shall not pass.");
}

// `raise (too_short or ValueError('...')) from e` (more_itertools' `one`,
// as setuptools and pip vendor it): a caller may pass its own exception,
// and the call after `or` is what is raised when it does not. The site is
// that call's class and message, as for `raise ValueError('...')`.
// `exc = errors[max(errors)]; raise exc` and `def throw(self, typ): raise
// typ` raise an exception got from elsewhere, whatever its class: no class
// named after the variable; nor a local or parameter of a function around
// the raising one (starlette's `app_exc`, set through `nonlocal` by one
// nested function, raised in another). A module's own lower-case class
// (ftplib's `error_proto`) stays the class.
TEST(PythonFrontend, AnExceptionGotFromElsewhereIsRaisedAgain) {
  auto f = scan_python(
      "class error_proto(Exception): pass\n"
      "def parse(errors):\n"
      "    exc = errors[max(errors)]\n"
      "    raise exc from None\n"
      "def throw(self, typ, val=None):\n"
      "    raise typ\n"
      "def proto():\n"
      "    raise error_proto\n"
      "async def middleware(self, handler):\n"
      "    app_exc = None\n"
      "    async def call_next(request):\n"
      "        if app_exc is not None:\n"
      "            raise app_exc\n"
      "        def inner():\n"
      "            raise handler\n"
      "    return call_next\n");
  ASSERT_EQ(f.sites.size(), 5u);
  for (std::size_t i : {0u, 1u, 3u, 4u}) {
    EXPECT_EQ(f.sites[i].error_class, "") << i;
    EXPECT_TRUE(f.sites[i].reraise) << i;
  }
  EXPECT_EQ(f.sites[2].error_class, "error_proto");
  EXPECT_FALSE(f.sites[2].reraise);
}

TEST(PythonFrontend, ARaiseOfAnOrDefaultIsItsCall) {
  ThrowSite s = only_site(
      "def one(iterable, too_short=None, too_long=None):\n"
      "    it = iter(iterable)\n"
      "    try:\n"
      "        first_value = next(it)\n"
      "    except StopIteration as e:\n"
      "        raise (\n"
      "            too_short or ValueError('too few items in iterable (expected 1)')\n"
      "        ) from e\n");
  EXPECT_EQ(s.error_class, "ValueError");
  EXPECT_EQ(message(s), "too few items in iterable (expected 1)");
  EXPECT_EQ(s.line, 6);
  EXPECT_EQ(s.cause, "e");
  ThrowSite m = only_site(
      "def only(iterable, too_long=None):\n"
      "    msg = 'Expected exactly one item in iterable, but got {!r}, {!r}, and perhaps more.'.format(1, 2)\n"
      "    raise too_long or ValueError(msg)\n");
  EXPECT_EQ(m.error_class, "ValueError");
  EXPECT_NE(message(m).find("Expected exactly one item in iterable, but got"), std::string::npos) << message(m);
  // `and` raises its right side only when the left is true: not a default.
  ThrowSite a = only_site("def f(strict):\n    raise strict and ValueError('strict')\n");
  EXPECT_EQ(a.error_class, "strict and ValueError('strict')");
}

// `raise ValidationError._from_jsonschema(ex) from None` (setuptools'
// pyproject validation), `raise pydantic_core.ValidationError.from_exception_data(...)`:
// a method in lower case called on a capitalised name is a factory of that
// class, which is what Python prints; a call on a lower-case object
// (`raise exc.with_traceback(tb)`, a parameter) raises again what it holds,
// of no class known.
TEST(PythonFrontend, AClassFactoryRaisesItsClass) {
  ThrowSite s = only_site(
      "class ValidationError(Exception):\n"
      "    @classmethod\n"
      "    def _from_jsonschema(cls, ex):\n"
      "        return cls(str(ex))\n"
      "def validate(data):\n"
      "    try:\n"
      "        check(data)\n"
      "    except JsonSchemaValueException as ex:\n"
      "        raise ValidationError._from_jsonschema(ex) from None\n");
  EXPECT_EQ(s.error_class, "ValidationError");
  EXPECT_EQ(only_site("def f(e):\n    raise core.ValidationError.from_exception_data('M', [])\n").error_class,
            "core.ValidationError");
  EXPECT_EQ(only_site("def f(exc, tb):\n    raise exc.with_traceback(tb)\n").error_class, "");
  // werkzeug's `raise ImportStringError(name, e).with_traceback(tb)`: the
  // construction, raised with another traceback.
  ThrowSite traced = only_site("def f(name, e):\n    raise KeyError(f'no {name}').with_traceback(e.__traceback__) from None\n");
  EXPECT_EQ(traced.error_class, "KeyError");
  EXPECT_EQ(template_text(traced.message), "no {name}");
  // imaplib's IMAP4 defines `class error(Exception)` inside it: a class, no factory.
  FileFacts imap = scan_python(
      "class IMAP4:\n"
      "    class error(Exception): pass\n"
      "    def enable(self, c):\n"
      "        raise IMAP4.error('Server does not support ENABLE')\n");
  ASSERT_EQ(imap.sites.size(), 1u);
  EXPECT_EQ(imap.sites[0].error_class, "IMAP4.error");
}

// Given two arguments or more, Python prints the tuple of their reprs, and
// the OSError family "[Errno N] strerror: 'filename'" (the matcher reads the
// "[Errno N] " itself): what it prints is an alternative. A class of the file
// shows as the built-in it derives from unless it formats its own message;
// an argument whose repr the source cannot tell, or a count it cannot tell,
// gives none.
TEST(PythonFrontend, SeveralArgumentsShowAsPythonPrintsThem) {
  FileFacts f = scan_python(
      "import socket\n"
      "class TokenError(Exception): pass\n"
      "class Fancy(Exception):\n"
      "    def __str__(self):\n"
      "        return 'fancy'\n"
      "def f(address, domain, start, x):\n"
      "    if x == 1:\n"
      "        raise OSError(x, f'Connect call failed {address}')\n"
      "    if x == 2:\n"
      "        raise FileNotFoundError(ENOENT, 'No translation file found for domain', domain)\n"
      "    if x == 3:\n"
      "        raise TokenError('EOF in multi-line string', start)\n"
      "    if x == 4:\n"
      "        raise ValueError(\"it's bad\", x)\n"
      "    if x == 5:\n"
      "        raise ValueError('a\\\\b', x)\n"
      "    if x == 6:\n"
      "        raise Fancy('a', x)\n"
      "    if x == 7:\n"
      "        raise BlockingIOError(EAGAIN, 'write could not complete', 0)\n"
      "    if x == 8:\n"
      "        raise socket.error(x, 'bad socket')\n"
      "    raise ValueError('a', *x)\n");
  ASSERT_EQ(f.sites.size(), 9u);
  EXPECT_EQ(alternatives(f.sites[0]), std::vector<std::string>{"Connect call failed {address}"});
  EXPECT_EQ(alternatives(f.sites[1]), std::vector<std::string>{"No translation file found for domain: {domain!r}"});
  EXPECT_EQ(alternatives(f.sites[2]), std::vector<std::string>{"('EOF in multi-line string', {start!r})"});
  EXPECT_EQ(alternatives(f.sites[3]), std::vector<std::string>{"(\"it's bad\", {x!r})"});
  EXPECT_TRUE(alternatives(f.sites[4]).empty());  // repr doubles the backslash
  EXPECT_EQ(shown(f.sites[5]), (std::vector<std::string>{"fancy", "a"}));
  EXPECT_EQ(alternatives(f.sites[6]), std::vector<std::string>{"write could not complete"});
  EXPECT_EQ(alternatives(f.sites[7]), std::vector<std::string>{"bad socket"});
  EXPECT_TRUE(alternatives(f.sites[8]).empty());
}

// `raise OSError(errno.EBADF, "write() on read-only file")`: the first
// argument is an errno, no message; the record's message is what Python
// prints, "[Errno 9] write() on read-only file". OSError itself, given an
// errno constant with a subclass, is that subclass (EPIPE: BrokenPipeError);
// a subclass, or a class of the file deriving from OSError, stays as written.
TEST(PythonFrontend, AnErrnoAndItsTextPrintAsOSErrorPrintsThem) {
  FileFacts f = scan_python(
      "import errno\n"
      "class ProxyError(OSError): pass\n"
      "def f(x, path):\n"
      "    if x == 1:\n"
      "        raise OSError(errno.EBADF, 'write() on read-only file')\n"
      "    if x == 2:\n"
      "        raise OSError(errno.EPIPE, 'handle is closed')\n"
      "    if x == 3:\n"
      "        raise FileExistsError(_errno.EEXIST, 'No usable name found', path)\n"
      "    if x == 4:\n"
      "        raise ProxyError(errno.ENOENT, 'no proxy')\n"
      "    if x == 5:\n"
      "        raise OSError(0, 'Bad magic number', path)\n"
      "    raise OSError('no errno', x)\n");
  ASSERT_EQ(f.sites.size(), 6u);
  EXPECT_EQ(f.sites[0].error_class, "OSError");
  EXPECT_EQ(message(f.sites[0]), "[Errno {errno.EBADF}] write() on read-only file");
  EXPECT_EQ(f.sites[1].error_class, "BrokenPipeError");
  EXPECT_EQ(message(f.sites[1]), "[Errno {errno.EPIPE}] handle is closed");
  EXPECT_EQ(f.sites[2].error_class, "FileExistsError");
  EXPECT_EQ(message(f.sites[2]), "[Errno {_errno.EEXIST}] No usable name found: {path!r}");
  EXPECT_EQ(f.sites[3].error_class, "ProxyError");
  EXPECT_EQ(message(f.sites[3]), "[Errno {errno.ENOENT}] no proxy");
  EXPECT_EQ(message(f.sites[4]), "[Errno 0] Bad magic number: {path!r}");
  EXPECT_EQ(f.sites[5].error_class, "OSError");
  EXPECT_EQ(message(f.sites[5]), "no errno");
}

// A message cut to a length that keeps any ordinary message whole
// (`(... % ...)[:256]`, enum's) reads as the message; a shorter cut, or one
// that drops its start, leaves it opaque.
TEST(PythonFrontend, MessageCutLongAfterItsTextReadsAsTheMessage) {
  FileFacts f = scan_python(
      "def f(enum_type, cls_name, missing, msg):\n"
      "    if msg:\n"
      "        raise ValueError(('invalid %s %r: missing values %s' % (enum_type, cls_name, missing))[:256])\n"
      "    if cls_name:\n"
      "        raise ValueError(('cut %s' % msg)[:10])\n"
      "    raise ValueError(('from %s' % msg)[5:300])\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(message(f.sites[0]), "invalid {enum_type} {cls_name}: missing values {missing}");
  EXPECT_EQ(message(f.sites[1]), "{('cut %s' % msg)[:10]}");
  EXPECT_EQ(message(f.sites[2]), "{('from %s' % msg)[5:300]}");
}

// A module-level exception class that formats what it shows exports that
// display, in terms of its constructor's parameters (what `__init__` keeps
// as `self.reason` read as `reason`), for the files that raise it; a file
// without any raise is read for it too, its methods kept.
TEST(PythonFrontend, ExceptionClassExportsItsDisplayAndParameters) {
  FileFacts f = scan_python(
      "class URLError(OSError):\n"
      "    def __init__(self, reason, filename=None, *, hint='see the docs'):\n"
      "        self.reason = reason\n"
      "\n"
      "    def __str__(self):\n"
      "        return '<urlopen error %s>' % self.reason\n"
      "\n"
      "\n"
      "class Plain(ValueError):\n"
      "    pass\n"
      "\n"
      "\n"
      "class Helper:\n"
      "    def __str__(self):\n"
      "        return 'not an exception'\n");
  EXPECT_TRUE(f.sites.empty());
  ASSERT_EQ(f.classes.size(), 3u);
  const model::ClassDef& u = f.classes[0];
  ASSERT_EQ(u.display.size(), 1u);
  EXPECT_EQ(template_text(u.display[0]), "<urlopen error {reason}>");
  ASSERT_EQ(u.params.size(), 3u);
  EXPECT_EQ(u.params[0].name, "reason");
  EXPECT_FALSE(u.params[0].keyword_only);
  EXPECT_EQ(u.params[1].name, "filename");
  EXPECT_EQ(u.params[2].name, "hint");
  EXPECT_TRUE(u.params[2].keyword_only);
  EXPECT_EQ(u.params[2].default_text, "see the docs");
  EXPECT_TRUE(f.classes[1].display.empty());
}

// `raise AssertionError(*args)` in a helper taking `*args`: a caller of
// this file passing one argument in their place passes the message; one
// passing several (Python shows their tuple) or none gives nothing.
TEST(PythonFrontend, ACallerPassesTheMessageOfASplatHelper) {
  FileFacts f = scan_python(
      "def assert_(cond, *args):\n"
      "    if not cond:\n"
      "        raise AssertionError(*args)\n"
      "class V:\n"
      "    def fail(self, *parts):\n"
      "        raise ValueError(*parts)\n"
      "    def check(self, x):\n"
      "        self.fail(f'bad value {x}')\n"
      "def check(environ, key):\n"
      "    assert_(key in environ, 'Environment missing required key: %r' % (key,))\n"
      "    assert_(isinstance(key, str), 'key %s' % key, 'extra')\n"
      "    assert_(key)\n"
      "    assert_(key, *environ)\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(message(f.sites[0]), "{args}");
  EXPECT_EQ(alternatives(f.sites[0]), std::vector<std::string>{"Environment missing required key: {key}"});
  EXPECT_EQ(alternatives(f.sites[1]), std::vector<std::string>{"bad value {x}"});
}

// A class defined in another file shows a plain string literal argument
// or a decimal integer as its text, an f-string as its template; any other argument as an interpolation of its source.
TEST(PythonFrontend, AClassOfAnotherFileShowsALiteralArgumentAsItsText) {
  std::vector<FileFacts> files;
  files.push_back(scan_python(
      "class ParseError(Exception):\n"
      "    def __init__(self, pstr, loc=0, msg=None):\n"
      "        self.loc = loc\n"
      "        self.msg = msg\n"
      "    def __str__(self):\n"
      "        return f'{self.msg}  (at char {self.loc})'\n"));
  files.push_back(scan_python(
      "from .errors import ParseError\n"
      "def f(s, l, kind):\n"
      "    if kind:\n"
      "        raise ParseError(s, l, \"not a peer entry\")\n"
      "    if kind is None:\n"
      "        raise ParseError(s, 401, 'no kind')\n"
      "    if kind == 3:\n"
      "        raise ParseError(s, l, f'Expected {kind.name!r}, found {{x}} {s[1:2]}')\n"
      "    raise ParseError(s, l, kind.name)\n"));
  link_class_displays(files);
  ASSERT_EQ(files[1].sites.size(), 4u);
  EXPECT_EQ(shown(files[1].sites[0]), std::vector<std::string>{"not a peer entry  (at char {l})"});
  EXPECT_EQ(shown(files[1].sites[1]), std::vector<std::string>{"no kind  (at char 401)"});
  EXPECT_EQ(shown(files[1].sites[2]),
            std::vector<std::string>{"Expected {kind.name!r}, found {x} {s[1:2]}  (at char {l})"});
  EXPECT_EQ(shown(files[1].sites[3]), std::vector<std::string>{"{kind.name}  (at char {l})"});
}

// marshmallow's fields: `raise self.make_error("invalid")`, where the base's
// `make_error(self, key, **kwargs)` returns
// `ValidationError(self.error_messages[key])`: the key the call passes, read
// in the table of the class whose method raises, then its bases'.
TEST(PythonFrontend, AHelperReadingATableByItsParameterTakesTheCallsKey) {
  FileFacts f = scan_python(
      "class Field:\n"
      "    default_error_messages = {'required': 'Missing data for required field.'}\n"
      "    def make_error(self, key, **kwargs):\n"
      "        msg = self.error_messages[key]\n"
      "        if isinstance(msg, str):\n"
      "            msg = msg.format(**kwargs)\n"
      "        return ValidationError(msg)\n"
      "    def deserialize(self, value):\n"
      "        if value is None:\n"
      "            raise self.make_error('required')\n"
      "class String(Field):\n"
      "    default_error_messages = {'invalid': 'Not a valid string.'}\n"
      "    def _deserialize(self, value):\n"
      "        if not isinstance(value, str):\n"
      "            raise self.make_error('invalid')\n"
      "        raise self.make_error('required')\n"
      "class Integer(Field):\n"
      "    default_error_messages = {'invalid': 'Not a valid {kind}.'}\n"
      "    def _deserialize(self, value, key):\n"
      "        if value:\n"
      "            raise self.make_error('invalid', kind='integer')\n"
      "        raise self.make_error(key)\n");
  ASSERT_EQ(f.sites.size(), 5u);
  EXPECT_EQ(message(f.sites[0]), "Missing data for required field.");
  EXPECT_EQ(message(f.sites[1]), "Not a valid string.");
  EXPECT_EQ(message(f.sites[2]), "Missing data for required field.");
  EXPECT_EQ(message(f.sites[3]), "Not a valid integer.");  // the field the call names
  EXPECT_EQ(message(f.sites[4]), "{msg}");  // no literal key: nothing to look up
}

// botocore's exceptions: the base's `__init__(self, **kwargs)` formats the
// class attribute `fmt`, which each subclass sets. A raise names the fields
// (`DataNotFoundError(data_path=name)`), in this file or another; raised
// with nothing, the class's text is the message.
TEST(PythonFrontend, AClassAttributeFormattedByTheBaseIsTheMessage) {
  std::vector<FileFacts> files;
  files.push_back(scan_python(
      "class BotoCoreError(Exception):\n"
      "    fmt = 'An unspecified error occurred'\n"
      "    def __init__(self, **kwargs):\n"
      "        msg = self.fmt.format(**kwargs)\n"
      "        Exception.__init__(self, msg)\n"
      "        self.kwargs = kwargs\n"
      "class DataNotFoundError(BotoCoreError):\n"
      "    fmt = 'Unable to load data for: {data_path}'\n"
      "class NoCredentialsError(BotoCoreError):\n"
      "    fmt = 'Unable to locate credentials'\n"
      "class Fielded(BotoCoreError):\n"
      "    fmt: str = 'a field default {x}'\n"
      "class Overridden(BotoCoreError):\n"
      "    fmt = 'never shown'\n"
      "    def reset(self):\n"
      "        self.fmt = 'changed {x}'\n"
      "def local(name):\n"
      "    if not name:\n"
      "        raise NoCredentialsError()\n"
      "    raise DataNotFoundError(data_path=name)\n"));
  files.push_back(scan_python(
      "from .exceptions import DataNotFoundError, NoCredentialsError\n"
      "def load(name, creds):\n"
      "    if creds is None:\n"
      "        raise NoCredentialsError()\n"
      "    raise DataNotFoundError(data_path=name)\n"));
  link_class_displays(files);
  ASSERT_EQ(files[0].sites.size(), 2u);
  EXPECT_EQ(message(files[0].sites[0]), "Unable to locate credentials");
  EXPECT_EQ(message(files[0].sites[1]), "Unable to load data for: {name}");
  ASSERT_EQ(files[1].sites.size(), 2u);
  EXPECT_EQ(message(files[1].sites[0]), "Unable to locate credentials");
  EXPECT_EQ(message(files[1].sites[1]), "Unable to load data for: {name}");
  // A field's default (annotated, as a dataclass writes it) and an
  // attribute code sets on an instance are not the class's text.
  ASSERT_EQ(files[0].classes.size(), 5u);
  EXPECT_TRUE(files[0].classes[3].display.empty());
  EXPECT_TRUE(files[0].classes[4].display.empty());
}

// A variable joined to text (`msg + f': {node!r}'`) reads as the text it
// was given when one assignment reaches the site on every path, and as each
// of several that reach (the latest the message, the others variants, as
// for a message variable); a value replaced on some paths only stays a value.
TEST(PythonFrontend, VariableJoinedToTextReadsAsItsText) {
  FileFacts f = scan_python(
      "def malformed(node):\n"
      "    msg = 'malformed node or string'\n"
      "    if lno := getattr(node, 'lineno', None):\n"
      "        msg += f' on line {lno}'\n"
      "    raise ValueError(msg + f': {node!r}')\n"
      "def bad_path(p):\n"
      "    if p[:4] == '////':\n"
      "        p = p[4:]\n"
      "    raise OSError('Bad path: ' + p)\n"
      "def large(n):\n"
      "    what = None\n"
      "    if n > 1:\n"
      "        what = 'Files count'\n"
      "    elif n > 2:\n"
      "        what = 'Filesize'\n"
      "    raise OSError(what + ' would require ZIP64 extensions')\n"
      "def lookup(name, sub):\n"
      "    full = '%s.%s' % (name, sub)\n"
      "    raise ImportError('No module named ' + full)\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(message(f.sites[0]), "malformed node or string on line {lno}: {node!r}");
  // The `+=` in a branch may not run: the text without it is a variant.
  EXPECT_EQ(alternatives(f.sites[0]), std::vector<std::string>{"malformed node or string: {node!r}"});
  EXPECT_EQ(message(f.sites[1]), "Bad path: {p}");
  // Several values reach: the latest is the message, the others variants
  // (None is no text: the variable stays a value there).
  EXPECT_EQ(message(f.sites[2]), "Filesize would require ZIP64 extensions");
  EXPECT_EQ(alternatives(f.sites[2]), (std::vector<std::string>{"Files count would require ZIP64 extensions",
                                                                "{what} would require ZIP64 extensions"}));
  EXPECT_EQ(message(f.sites[3]), "No module named {name}.{sub}");
}

// A message joined from a list (`"".join(parts)`): a list literal's items,
// or a list variable's as its assignment and the `append`, `extend` and
// `insert(0, ...)` calls on the way to the join leave it. A call on the
// other branch of the assignment's `if` does not follow it (configparser's
// DuplicateOptionError builds its message so).
TEST(PythonFrontend, MessageJoinedFromAList) {
  FileFacts f = scan_python(
      "def bad(x, y, z):\n"
      "    raise ValueError(', '.join(['bad', repr(x), str(y), 'value %d' % z]))\n"
      "class Error(Exception):\n"
      "    def __init__(self, msg=''):\n"
      "        Exception.__init__(self, msg)\n"
      "class DuplicateOptionError(Error):\n"
      "    def __init__(self, section, option, source=None, lineno=None):\n"
      "        msg = [repr(option), ' in section ', repr(section),\n"
      "               ' already exists']\n"
      "        if source is not None:\n"
      "            message = ['While reading from ', repr(source)]\n"
      "            if lineno is not None:\n"
      "                message.append(' [line {0:2d}]'.format(lineno))\n"
      "            message.append(': option ')\n"
      "            message.extend(msg)\n"
      "            msg = message\n"
      "        else:\n"
      "            msg.insert(0, 'Option ')\n"
      "        Error.__init__(self, ''.join(msg))\n"
      "def read(sect, opt, name, n):\n"
      "    raise DuplicateOptionError(sect, opt, name, n)\n"
      "def other(x):\n"
      "    msg = 'base'\n"
      "    if x:\n"
      "        msg = 'other'\n"
      "    else:\n"
      "        msg += ' more'\n"
      "    raise KeyError(msg)\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(message(f.sites[0]), "bad, {x!r}, {y}, value {z}");
  EXPECT_EQ(f.sites[0].message.style, "join");
  EXPECT_EQ(shown(f.sites[1]),
            std::vector<std::string>{
                "While reading from {name!r} [line {n:2d}]: option {opt!r} in section {sect!r} already exists"});
  // `+=` on the `else` of the `if` that assigned 'other' never follows it.
  EXPECT_EQ(message(f.sites[2]), "other");
  for (const std::string& a : alternatives(f.sites[2])) EXPECT_NE(a, "other more");
}

// A base whose `__init__` takes the message after other arguments
// (configparser's InterpolationError(option, section, msg)): the argument a
// subclass gives in that place is the message, built in its `__init__`,
// not the first one it passes.
TEST(PythonFrontend, BaseTakingTheMessageAfterOtherArguments) {
  FileFacts f = scan_python(
      "class Error(Exception):\n"
      "    def __init__(self, msg=''):\n"
      "        self.message = msg\n"
      "        Exception.__init__(self, msg)\n"
      "class InterpolationError(Error):\n"
      "    def __init__(self, option, section, msg):\n"
      "        Error.__init__(self, msg)\n"
      "        self.option = option\n"
      "class MissingOptionError(InterpolationError):\n"
      "    def __init__(self, option, section, rawval, reference):\n"
      "        msg = ('Bad value substitution: option {!r} in section {!r} contains '\n"
      "               'a key {!r}. Raw value: {!r}'.format(option, section, reference, rawval))\n"
      "        InterpolationError.__init__(self, option, section, msg)\n"
      "class DepthError(InterpolationError):\n"
      "    def __init__(self, option, section, rawval):\n"
      "        super().__init__(option, section, 'Recursion limit exceeded in value substitution: option {!r}'.format(option))\n"
      "class Opaque(Error):\n"
      "    def __init__(self, a, b):\n"
      "        Error.__init__(self, a + b)\n"
      "class Below(Opaque):\n"
      "    def __init__(self, x):\n"
      "        Opaque.__init__(self, 'first {}'.format(x), 'second')\n"
      "def get(opt, sect, raw, var):\n"
      "    if var:\n"
      "        raise MissingOptionError(opt, sect, raw, var)\n"
      "    if raw:\n"
      "        raise DepthError(opt, sect, raw)\n"
      "    raise Below(opt)\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(shown(f.sites[0]),
            std::vector<std::string>{"Bad value substitution: option {opt!r} in section {sect!r} contains a key {var!r}. "
                                     "Raw value: {raw!r}"});
  EXPECT_EQ(shown(f.sites[1]),
            std::vector<std::string>{"Recursion limit exceeded in value substitution: option {opt!r}"});
  // A base that builds its message of several arguments: its first stands
  // for it, as before.
  EXPECT_EQ(shown(f.sites[2]), std::vector<std::string>{"first {opt}"});
  // A parameter handed on as it is shows the call's argument, or its
  // default when the call leaves it out; a class without `__init__` takes
  // its base's.
  FileFacts handed = scan_python(
      "class InvalidFileException(ValueError):\n"
      "    def __init__(self, message='Invalid file'):\n"
      "        ValueError.__init__(self, message)\n"
      "class Error(Exception):\n"
      "    def __init__(self, msg=''):\n"
      "        Exception.__init__(self, msg)\n"
      "class InterpolationError(Error):\n"
      "    def __init__(self, option, section, msg):\n"
      "        Error.__init__(self, msg)\n"
      "class InterpolationSyntaxError(InterpolationError):\n"
      "    pass\n"
      "def f(x, option, section, rest):\n"
      "    if x:\n"
      "        raise InvalidFileException()\n"
      "    if rest:\n"
      "        raise InterpolationSyntaxError(option, section, 'bad reference %r' % (rest,))\n"
      "    if section:\n"
      "        raise InvalidFileException(*x)\n"
      "    raise InvalidFileException('given ' + x)\n");
  ASSERT_EQ(handed.sites.size(), 4u);
  // Raised with nothing: the default the class shows is the message.
  EXPECT_EQ(message(handed.sites[0]), "Invalid file");
  EXPECT_TRUE(alternatives(handed.sites[0]).empty());
  EXPECT_EQ(shown(handed.sites[1]), std::vector<std::string>{"bad reference {rest}"});
  EXPECT_TRUE(alternatives(handed.sites[2]).empty());  // what *x fills is not known
  EXPECT_TRUE(alternatives(handed.sites[3]).empty());  // the message itself
  // Bases that name each other are followed only so far: here to where
  // the first argument stands for the message, which is the call's own.
  FileFacts cyclic = scan_python(
      "class A(B):\n"
      "    def __init__(self, x, msg):\n"
      "        B.__init__(self, x, msg)\n"
      "class B(A):\n"
      "    def __init__(self, x, msg):\n"
      "        A.__init__(self, x, msg)\n"
      "class C(A):\n"
      "    def __init__(self, v):\n"
      "        A.__init__(self, v, 'bad {}'.format(v))\n"
      "def f(v):\n"
      "    raise C(v)\n");
  ASSERT_EQ(cyclic.sites.size(), 1u);
  EXPECT_EQ(message(cyclic.sites[0]), "{v}");
  EXPECT_TRUE(alternatives(cyclic.sites[0]).empty());
}

// Input decides how long a chain of message variables is and how many
// callers and returns there are: each is read only so far, so a scan stays
// linear in the file.
TEST(PythonFrontend, HostileChainsCallersAndReturnsAreBounded) {
  std::string src = "def f(x):\n    m0 = 'start {}'\n";
  for (int i = 1; i < 3000; ++i) src += "    m" + std::to_string(i) + " = m" + std::to_string(i - 1) + ".format(x)\n";
  src += "    raise ValueError(m2999)\n";
  src += "def g(msg):\n    raise KeyError(msg)\n";
  src += "def h():\n";
  for (int i = 0; i < 20000; ++i) src += "    g('caller " + std::to_string(i) + "')\n";
  src += "def _error(v):\n";
  for (int i = 0; i < 2000; ++i)
    src += "    if v == " + std::to_string(i) + ":\n        return ValueError('bad token " + std::to_string(i) + "')\n";
  src += "def p(x):\n    raise _error(x)\n";
  FileFacts f = scan_python(src);
  ASSERT_EQ(f.sites.size(), 3u);
  // Past four names the chain is not followed: the message is opaque.
  EXPECT_EQ(message(f.sites[0]), "{m2999}");
  EXPECT_EQ(f.sites[0].message.style, "expression");
  EXPECT_EQ(f.sites[1].alternatives.size(), 256u);
  EXPECT_EQ(template_text(f.sites[1].alternatives.back()), "caller 255");
  EXPECT_EQ(message(f.sites[2]), "bad token 0");
  EXPECT_EQ(f.sites[2].alternatives.size(), 255u);
}

TEST(PythonFrontend, ExpressionAndNone) {
  ThrowSite call = only_site("raise ValueError(make_message(x))\n");
  EXPECT_EQ(call.message.style, "expression");
  EXPECT_EQ(message(call), "{make_message(x)}");
  ThrowSite bare = only_site("raise ValueError\n");
  EXPECT_EQ(bare.message.style, "none");
  EXPECT_TRUE(bare.message.parts.empty());
  EXPECT_EQ(bare.error_class, "ValueError");
  ThrowSite attr = only_site("raise self.error\n");
  EXPECT_EQ(attr.error_class, "self.error");
  ThrowSite mod = only_site("raise errors . InvalidArgument(\n  'x', code=3)\n");
  EXPECT_EQ(mod.error_class, "errors . InvalidArgument");
  EXPECT_EQ(mod.args, (std::vector<std::string>{"'x'", "code=3"}));
  ThrowSite empty = only_site("raise KeyError()\n");
  EXPECT_EQ(empty.message.style, "none");
}

// The message given by keyword: `message=`, `msg=`, and `detail=`, the text
// of FastAPI's and Starlette's HTTPException and DRF's APIException.
TEST(PythonFrontend, AMessageGivenByKeyword) {
  FileFacts f = scan_python(
      "def read_item(item_id):\n"
      "    if item_id not in items:\n"
      "        raise HTTPException(status_code=404, detail='Item not found')\n"
      "    if item_id < 0:\n"
      "        raise ConfigError(code=3, msg=f'negative id {item_id}')\n"
      "    raise HTTPException(status_code=500)\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(message(f.sites[0]), "Item not found");
  EXPECT_EQ(message(f.sites[1]), "negative id {item_id}");
  EXPECT_EQ(message(f.sites[2]), "");
}

TEST(PythonFrontend, RaiseFromAndBareReraise) {
  FileFacts f = scan_python(
      "def load(path):\n"
      "    try:\n"
      "        return open(path)\n"
      "    except FileNotFoundError as e:\n"
      "        raise ConfigError(f'missing {path}') from e\n"
      "    except (KeyError, IndexError):\n"
      "        raise\n"
      "    except os.error:\n"
      "        raise\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].cause, "e");
  EXPECT_EQ(f.sites[0].error_class, "ConfigError");
  ASSERT_EQ(f.sites[0].guards.size(), 1u);
  EXPECT_EQ(f.sites[0].guards[0].kind, "except");
  EXPECT_EQ(f.sites[0].guards[0].condition, "FileNotFoundError");
  EXPECT_TRUE(f.sites[1].reraise);
  EXPECT_EQ(f.sites[1].error_class, "");
  EXPECT_EQ(f.sites[1].guards[0].condition, "(KeyError, IndexError)");
  EXPECT_EQ(f.sites[1].guards[0].names, (std::vector<std::string>{"KeyError", "IndexError"}));
  EXPECT_TRUE(f.sites[2].reraise);
  EXPECT_EQ(f.sites[2].error_class, "os.error");
  EXPECT_EQ(f.sites[2].line, 9);
}

// httpx's `except BaseException as exc: response.close(); raise exc`,
// shutil's `raise err from None`: the caught exception raised again by
// its name is a re-raise, not a class named `exc`.
TEST(PythonFrontend, RaisingTheCaughtNameRaisesAgain) {
  FileFacts f = scan_python(
      "def send(self, request):\n"
      "    try:\n"
      "        return self._send(request)\n"
      "    except OSError as err:\n"
      "        self.close()\n"
      "        raise err from None\n"
      "    except (KeyError, IndexError) as exc:\n"
      "        raise exc.with_traceback(None)\n"
      "    except ValueError as exc:\n"
      "        exc = TypeError('wrapped')\n"
      "        raise exc\n"
      "    except LookupError:\n"
      "        raise saved\n"
      "    except RuntimeError as e:\n"
      "        raise other.with_traceback(tb)\n");
  ASSERT_EQ(f.sites.size(), 5u);
  EXPECT_TRUE(f.sites[0].reraise);
  EXPECT_EQ(f.sites[0].error_class, "OSError");
  EXPECT_TRUE(f.sites[1].reraise);
  EXPECT_EQ(f.sites[1].error_class, "");
  // A construction reaching the raise is what it raises.
  EXPECT_FALSE(f.sites[2].reraise);
  EXPECT_EQ(f.sites[2].error_class, "TypeError");
  EXPECT_EQ(message(f.sites[2]), "wrapped");
  // A name no clause binds stays what it is.
  EXPECT_FALSE(f.sites[3].reraise);
  EXPECT_EQ(f.sites[3].error_class, "saved");
  EXPECT_FALSE(f.sites[4].reraise);
}

// Methods raising nothing, enough for the outline to blank the class
// bodies around them on the first read.
std::string sixty_methods() {
  std::string padding;
  for (int i = 0; i < 60; ++i) padding += "    def helper" + std::to_string(i) + "(self, value):\n        return value + " + std::to_string(i) + "\n";
  return padding;
}

// Messages kept in a table by key: a module's dict, and the class tables
// Django's and marshmallow's fields merge into `self.error_messages`,
// looked up from the method's class through its bases in the file. Long
// enough that the outline blanks the tables on the first read.
TEST(PythonFrontend, MessagesLookedUpInATableByKey) {
  const std::string padding = sixty_methods();
  FileFacts f = scan_python(
      "MESSAGES = {\n    'bad': 'Bad thing happened',\n    'worse': 'Worse thing: %s',\n}\n"
      "class Field:\n"
      "    default_error_messages = {\n        'required': _('This field is required.'),\n    }\n" +
      padding +
      "    def validate(self, value):\n"
      "        if value is None:\n"
      "            raise ValidationError(self.error_messages['required'], code='required')\n"
      "class IntegerField(Field):\n"
      "    default_error_messages = {'invalid': 'Enter a whole number.'}\n" +
      padding +
      "    def to_python(self, value):\n"
      "        if not value.isdigit():\n"
      "            raise ValidationError(self.error_messages['invalid'], code='invalid')\n"
      "        if value == '0':\n"
      "            raise ValidationError(self.error_messages['required'])\n"
      "        if value == '1':\n"
      "            raise ValidationError(self.error_messages['missing'])\n"
      "def check(x):\n"
      "    if x:\n"
      "        raise ValueError(MESSAGES['bad'])\n"
      "    raise ValueError(MESSAGES['worse'] % x)\n");
  ASSERT_EQ(f.sites.size(), 6u);
  EXPECT_EQ(message(f.sites[0]), "This field is required.");
  EXPECT_EQ(message(f.sites[1]), "Enter a whole number.");
  // Not in the subclass's table: its base's.
  EXPECT_EQ(message(f.sites[2]), "This field is required.");
  // No table holds the key: the expression, as before.
  EXPECT_EQ(message(f.sites[3]), "{self.error_messages['missing']}");
  EXPECT_EQ(message(f.sites[4]), "Bad thing happened");
  EXPECT_EQ(message(f.sites[5]), "Worse thing: {x}");
}

// peewee's `cls._error_messages['pk']`: a class's table under any name (not
// only `default_…`), found again when the outline blanked the class body;
// and redis's `MultiDBClient._UNSUPPORTED`, a class attribute read through
// its class's name from another class of the file.
TEST(PythonFrontend, AClassTableOrAttributeReadThroughTheClassOrItsName) {
  const std::string padding = sixty_methods();
  FileFacts f = scan_python(
      "class FTSModel(Model):\n"
      "    _error_messages = {\n        'pk': 'FTS models must use the rowid key',\n    }\n" +
      padding +
      "    @classmethod\n"
      "    def validate_model(cls):\n"
      "        raise ImproperlyConfigured(cls._error_messages['pk'])\n"
      "class Client:\n"
      "    _UNSUPPORTED = (\n        'HIMPORT is not supported here'\n    )\n" +
      padding +
      "class Pipeline:\n"
      "    def himport(self):\n"
      "        raise DataError(Client._UNSUPPORTED)\n"
      "    def other(self):\n"
      "        raise DataError(Client._MISSING)\n"
      "    def lower(self):\n"
      "        raise DataError(client._UNSUPPORTED)\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(message(f.sites[0]), "FTS models must use the rowid key");
  EXPECT_EQ(message(f.sites[1]), "HIMPORT is not supported here");
  EXPECT_EQ(message(f.sites[2]), "{Client._MISSING}");
  EXPECT_EQ(message(f.sites[3]), "{client._UNSUPPORTED}");
}

TEST(PythonFrontend, Guards) {
  FileFacts f = scan_python(
      "def f(a, b, items):\n"
      "    while a.busy:\n"
      "        if a > 1:\n"
      "            pass\n"
      "        elif b(a) and not a.x.y:\n"
      "            raise E('elif')\n"
      "        elif a == 3:\n"
      "            pass\n"
      "        else:\n"
      "            raise E('else')\n"
      "    match a:\n"
      "        case {'k': v} if v > b:\n"
      "            raise E('case')\n");
  ASSERT_EQ(f.sites.size(), 3u);
  const auto& g1 = f.sites[0].guards;
  ASSERT_EQ(g1.size(), 3u);
  EXPECT_EQ(g1[0].kind, "elif");
  EXPECT_EQ(g1[0].condition, "b(a) and not a.x.y");
  EXPECT_EQ(g1[0].names, (std::vector<std::string>{"b", "a", "a.x.y"}));
  EXPECT_EQ(g1[1].kind, "else");
  EXPECT_EQ(g1[1].condition, "a > 1");
  EXPECT_EQ(g1[2].kind, "while");
  EXPECT_EQ(g1[2].names, (std::vector<std::string>{"a.busy"}));
  const auto& g2 = f.sites[1].guards;
  ASSERT_EQ(g2.size(), 4u);
  EXPECT_EQ(g2[0].kind, "else");
  EXPECT_EQ(g2[0].condition, "a == 3");
  EXPECT_EQ(g2[1].condition, "b(a) and not a.x.y");
  EXPECT_EQ(g2[2].condition, "a > 1");
  EXPECT_EQ(g2[3].kind, "while");
  const auto& g3 = f.sites[2].guards;
  ASSERT_EQ(g3.size(), 1u);
  EXPECT_EQ(g3[0].kind, "match");
  EXPECT_EQ(g3[0].condition, "{'k': v} if v > b");
  EXPECT_EQ(g3[0].names, (std::vector<std::string>{"a", "v", "b"}));
}

// A site deep in a chain of elifs holds the nearest 16 branches not taken,
// nearest first, not every one above it (generated dispatch code chains
// thousands); the chain's first sites still reach the `if`'s condition.
TEST(PythonFrontend, ElseGuardsOfALongElifChainAreTheNearest) {
  std::string src = "def f(x):\n    if x == 0:\n        raise E('0')\n";
  for (int i = 1; i < 40; ++i)
    src += "    elif x == " + std::to_string(i) + ":\n        raise E('" + std::to_string(i) + "')\n";
  FileFacts f = scan_python(src);
  ASSERT_EQ(f.sites.size(), 40u);
  const auto& second = f.sites[1].guards;
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[1].condition, "x == 0");
  const auto& last = f.sites[39].guards;
  ASSERT_EQ(last.size(), 17u);
  EXPECT_EQ(last[0].kind, "elif");
  EXPECT_EQ(last[0].condition, "x == 39");
  EXPECT_EQ(last[1].kind, "else");
  EXPECT_EQ(last[1].condition, "x == 38");
  EXPECT_EQ(last[16].condition, "x == 23");
  EXPECT_EQ(f.sites[16].guards.back().condition, "x == 0");  // 16 branches above it, the if's the farthest
}

// click's Parameter checks nargs under `if __debug__:`, which every run but
// `python -O`'s takes: no guard a caller meets, while the inner `if` is one.
TEST(PythonFrontend, AnIfDebugBlockIsNoGuard) {
  ThrowSite s = only_site(
      "def f(nargs, arity):\n"
      "    if __debug__:\n"
      "        if nargs != arity:\n"
      "            raise ValueError(f'nargs must be {arity}')\n");
  ASSERT_EQ(s.guards.size(), 1u);
  EXPECT_EQ(s.guards[0].condition, "nargs != arity");
}

TEST(PythonFrontend, GuardsStopAtFunctionBoundary) {
  ThrowSite s = only_site(
      "if TYPE_CHECKING:\n"
      "    def f(x):\n"
      "        raise E(x)\n");
  EXPECT_TRUE(s.guards.empty());
  EXPECT_EQ(s.message.style, "expression");
}

TEST(PythonFrontend, Warnings) {
  FileFacts f = scan_python(
      "import warnings\n"
      "from warnings import warn\n"
      "def old(x):\n"
      "    warnings.warn(\n"
      "        f'old is deprecated: {x}',\n"
      "        DeprecationWarning, stacklevel=2)\n"
      "    warn(message='plain', category=FutureWarning)\n"
      "    warn('no category')\n"
      "    logger.warn('not a warning')\n"
      "    warnings.warn(PytestCacheWarning(f'could not create cache path {x}'), self._config.hook)\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(f.sites[0].kind, "warn");
  EXPECT_EQ(f.sites[0].error_class, "DeprecationWarning");
  EXPECT_EQ(f.sites[0].line, 4);
  EXPECT_EQ(f.sites[0].end_line, 6);
  EXPECT_EQ(message(f.sites[0]), "old is deprecated: {x}");
  EXPECT_EQ(f.sites[0].function, "old");
  EXPECT_EQ(f.sites[1].error_class, "FutureWarning");
  EXPECT_EQ(message(f.sites[1]), "plain");
  EXPECT_EQ(f.sites[2].error_class, "UserWarning");
  // A warning made in the call is issued as it is: the category is ignored.
  EXPECT_EQ(f.sites[3].error_class, "PytestCacheWarning");
  EXPECT_EQ(message(f.sites[3]), "could not create cache path {x}");
}

TEST(PythonFrontend, Asserts) {
  FileFacts f = scan_python(
      "def f(x):\n"
      "    assert x > 0, f'x must be positive, got {x}'\n"
      "    assert isinstance(x, int)\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(f.sites[0].kind, "assert");
  EXPECT_EQ(f.sites[0].error_class, "AssertionError");
  EXPECT_EQ(message(f.sites[0]), "x must be positive, got {x}");
  ASSERT_EQ(f.sites[0].guards.size(), 1u);
  EXPECT_EQ(f.sites[0].guards[0].kind, "assert");
  EXPECT_EQ(f.sites[0].guards[0].condition, "x > 0");
  EXPECT_EQ(f.sites[1].message.style, "none");
  EXPECT_EQ(f.sites[1].guards[0].names, (std::vector<std::string>{"isinstance", "x", "int"}));
}

TEST(PythonFrontend, NestedDefinitions) {
  FileFacts f = scan_python(
      "class Outer:\n"
      "    class Inner(Exception):\n"
      "        def method(self):\n"
      "            def helper(y):\n"
      "                \"\"\"Helps.\"\"\"\n"
      "                raise self.Inner(y)\n"
      "            raise RuntimeError('method')\n"
      "    def after(self):\n"
      "        raise RuntimeError('after')\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].function, "helper");
  EXPECT_EQ(f.sites[0].function_doc, "Helps.");
  EXPECT_EQ(f.sites[0].class_name, "Inner");
  EXPECT_EQ(f.sites[0].class_bases, "Exception");
  EXPECT_EQ(f.sites[1].function, "method");
  EXPECT_EQ(f.sites[2].function, "after");
  EXPECT_EQ(f.sites[2].class_name, "Outer");
  ASSERT_EQ(f.classes.size(), 2u);
  EXPECT_EQ(f.classes[1].name, "Inner");
  EXPECT_EQ(f.classes[1].bases, (std::vector<std::string>{"Exception"}));
}

TEST(PythonFrontend, ClassesWithoutSitesAreListed) {
  FileFacts f = scan_python("class A(B, C):\n    pass\nclass D:\n    x = 1\n");
  EXPECT_TRUE(f.sites.empty());
  ASSERT_EQ(f.classes.size(), 2u);
  EXPECT_EQ(f.classes[0].bases, (std::vector<std::string>{"B", "C"}));
  EXPECT_TRUE(f.classes[1].bases.empty());
}

TEST(PythonFrontend, SyntaxErrorStillFindsSites) {
  FileFacts f = scan_python(
      "def ok():\n"
      "    raise ValueError('fine')\n"
      "def broken(:\n"
      "    x = = 2\n"
      "def later():\n"
      "    raise KeyError('later')\n");
  EXPECT_TRUE(f.had_syntax_errors);
  bool found = false;
  for (const auto& s : f.sites) found |= s.error_class == "ValueError" && message(s) == "fine";
  EXPECT_TRUE(found);
}

TEST(PythonFrontend, MayHaveSites) {
  EXPECT_TRUE(may_have_sites("x = 1\nraise E"));
  EXPECT_TRUE(may_have_sites("warnings.warn('x')"));
  EXPECT_TRUE(may_have_sites("assert x"));
  EXPECT_FALSE(may_have_sites("x = 1\nprint(x)\n"));
}

TEST(PythonFrontend, HostileDeepParentheses) {
  std::string src = "raise ValueError(" + std::string(5000, '(') + "'x'" + std::string(5000, ')') + ")\n";
  FileFacts f = scan_python(src);
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(f.sites[0].error_class, "ValueError");
  std::string plus = "raise E('a'";
  for (int i = 0; i < 3000; ++i) plus += " + ('b'";
  plus += std::string(3000, ')') + ")\n";
  FileFacts g = scan_python(plus);
  ASSERT_EQ(g.sites.size(), 1u);
  EXPECT_FALSE(template_pattern(g.sites[0].message).empty());
}

TEST(PythonFrontend, DeepBlocks) {
  std::string src;
  for (int i = 0; i < 200; ++i) src += std::string(static_cast<std::size_t>(i), ' ') + "if x:\n";
  src += std::string(200, ' ') + "raise E('deep')\n";
  FileFacts f = scan_python(src);
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(f.sites[0].guards.size(), 200u);
}

// Regression: tree-sitter-python's scanner overran its state buffer with
// an odd number of open delimiters under ~400 indentation levels.
TEST(PythonFrontend, HostileIndentationIsRefused) {
  std::string src = "x = (\n";
  for (int i = 0; i < 2000; ++i) src += std::string(static_cast<std::size_t>(i), ' ') + "if x:\n";
  src += std::string(2000, ' ') + "raise E('deep')\n";
  FileFacts f = scan_python(src);
  EXPECT_TRUE(f.had_syntax_errors);
  EXPECT_TRUE(f.sites.empty());
}

TEST(PythonFrontend, HostileBytes) {
  std::string nul = std::string("raise E('a\0b')\n\0\0raise", 22);
  FileFacts f = scan_python(nul);
  EXPECT_GE(f.sites.size(), 1u);
  std::mt19937 rng(1234);
  for (int round = 0; round < 50; ++round) {
    std::string junk(4096, '\0');
    for (auto& c : junk) c = static_cast<char>(rng());
    junk += "\nraise E(f'{x!r:{'\xff'}}' % y)\n";
    FileFacts g = scan_python(junk);
    for (const auto& s : g.sites) {
      (void)template_text(s.message);
      (void)template_pattern(s.message);
    }
  }
}

TEST(PythonFrontend, LargeFile) {
  std::string src;
  const std::string chunk = "def f(x):\n    if x:\n        raise ValueError(f'bad {x}')\n    return x\n";
  while (src.size() < 20u * 1024 * 1024) src += chunk;
  FileFacts f = scan_python(src);
  EXPECT_EQ(f.sites.size(), src.size() / chunk.size());
}

// `raise ValueError(*args)` prints what args hold: its message is that
// value, not nothing.
TEST(PythonFrontend, StarredArgumentsAreTheMessage) {
  EXPECT_EQ(message(only_site("def f(*args):\n    raise ValueError(*args)\n")), "{args}");
  EXPECT_EQ(message(only_site("def f(a):\n    raise ValueError(*a.args)\n")), "{a.args}");
  // A positional argument before the star is the message, as before.
  EXPECT_NE(message(only_site("def f(*rest):\n    raise ValueError('bad %s', *rest)\n")).find("bad"), std::string::npos);
  // No arguments at all: no message.
  EXPECT_EQ(message(only_site("def f():\n    raise ValueError()\n")), "");
}

// Each text the site's message shows, as the analyst reads its conditionals.
std::vector<std::string> texts_shown(const ThrowSite& s) {
  std::vector<std::string> out;
  for (const model::MessageTemplate& t : conditional_texts(s.message)) out.push_back(template_text(t));
  return out;
}

TEST(PythonFrontend, ALocalHoldingAConditionalBetweenTextsIsEachText) {
  // jinja's FileSystemLoader.get_source: `plural` holds one of two texts,
  // interpolated by an f-string; so by `%` and `+`.
  ThrowSite f = only_site(
      "def get_source(self, template):\n"
      "    for searchpath in self.searchpath:\n"
      "        pass\n"
      "    else:\n"
      "        plural = \"path\" if len(self.searchpath) == 1 else \"paths\"\n"
      "        raise TemplateNotFound(f\"{template!r} not found in search {plural}: {self.searchpath}\")\n");
  EXPECT_EQ(texts_shown(f), (std::vector<std::string>{"{template!r} not found in search path: {self.searchpath}",
                                                      "{template!r} not found in search paths: {self.searchpath}"}));
  // Its real form passes the text second, to a class another file defines
  // (which shows it): that file reads it from the site's arg_messages.
  ThrowSite second = only_site(
      "def get_source(self, template):\n"
      "    plural = \"path\" if len(self.searchpath) == 1 else \"paths\"\n"
      "    raise TemplateNotFound(template, f\"{template!r} not found in search {plural}\")\n");
  ASSERT_EQ(second.arg_messages.size(), 2u);
  ThrowSite shown_second;
  shown_second.message = second.arg_messages[1];
  EXPECT_EQ(texts_shown(shown_second),
            (std::vector<std::string>{"{template!r} not found in search path", "{template!r} not found in search paths"}));
  ThrowSite percent = only_site(
      "def check(items, n):\n"
      "    s = '' if n == 1 else 's'\n"
      "    if len(items) != n:\n"
      "        raise ValueError('expected %d item%s' % (n, s))\n");
  EXPECT_EQ(texts_shown(percent), (std::vector<std::string>{"expected {n} item", "expected {n} items"}));
  ThrowSite plus = only_site(
      "def check(items, n):\n"
      "    s = '' if n == 1 else 's'\n"
      "    raise ValueError('expected one item' + s)\n");
  EXPECT_EQ(texts_shown(plus), (std::vector<std::string>{"expected one item", "expected one items"}));
  // Assigned on one branch only, the name may hold the parameter: a value.
  ThrowSite branch = only_site(
      "def check(n, unit):\n"
      "    if n > 1:\n"
      "        unit = 'items' if n > 9 else 'pairs'\n"
      "    raise ValueError(f'bad {unit}')\n");
  EXPECT_EQ(texts_shown(branch), (std::vector<std::string>{"bad {unit}"}));
  // Shown with `!r`, the value is not the text.
  ThrowSite quoted = only_site(
      "def check(n):\n"
      "    unit = 'item' if n == 1 else 'items'\n"
      "    raise ValueError(f'bad {unit!r}')\n");
  EXPECT_EQ(texts_shown(quoted), (std::vector<std::string>{"bad {unit!r}"}));
}

TEST(PythonFrontend, AClosuresFreeVariableIsWhatTheEnclosingFunctionBindsIt) {
  // werkzeug's LocalProxy.__init__: the closure raises the message the
  // constructor was given, or its default.
  FileFacts f = scan_python(
      "class LocalProxy:\n"
      "    def __init__(self, local, name=None, *, unbound_message=None):\n"
      "        if unbound_message is None:\n"
      "            unbound_message = \"object is not bound\"\n"
      "        if isinstance(local, LocalStack):\n"
      "            def _get_current_object():\n"
      "                obj = local.top\n"
      "                if obj is None:\n"
      "                    raise RuntimeError(unbound_message)\n"
      "                return obj\n"
      "        else:\n"
      "            def _get_current_object(unbound_message=unbound_message):\n"
      "                raise LookupError(unbound_message)\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(message(f.sites[0]), "object is not bound");
  // A parameter of the closure's own is the closure's.
  EXPECT_EQ(message(f.sites[1]), "{unbound_message}");
}

TEST(PythonFrontend, AParenthesizedMessageWithACommentIsStillItsText) {
  // sanic's `message = (f"Duplicate route names detected: {names}. …" "…"  # noqa\n)`
  // and tornado's `TypeError(message + (". Lists not accepted…" "http://…"  # noqa: E501\n))`:
  // a comment beside the text is no second expression in the parentheses.
  ThrowSite variable = only_site(
      "def check(names):\n"
      "    message = (\n"
      "        f\"Duplicate route names detected: {names}. You should rename \"\n"
      "        \"one or more of them\"  # noqa\n"
      "    )\n"
      "    raise ServerError(message)\n");
  EXPECT_EQ(message(variable), "Duplicate route names detected: {names}. You should rename one or more of them");
  ThrowSite added = only_site(
      "def write(chunk):\n"
      "    message = \"write() only accepts bytes\"\n"
      "    raise TypeError(message + (\". Lists not accepted; see \" \"http://example.org/write\"  # noqa: E501\n"
      "    ))\n");
  EXPECT_EQ(message(added), "write() only accepts bytes. Lists not accepted; see http://example.org/write");
}

}  // namespace
}  // namespace errdex::scan
