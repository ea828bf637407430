// What an exception class prints when a raise leaves its message out and
// the class supplies one from its body (`message = "…"`), and texts of
// another module written over several lines: the record carries the text
// Python prints.
#include "scan/python/frontend.h"
#include "scan/python/outline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scan/template.h"

namespace errdex::scan {
namespace {

using model::FileFacts;
using model::ThrowSite;

// The messages of the sites of `src`, in order.
std::vector<std::string> messages(const FileFacts& f) {
  std::vector<std::string> out;
  for (const ThrowSite& s : f.sites) out.push_back(template_text(s.message));
  return out;
}

using Texts = std::vector<std::string>;

// The alternatives of site `s`, the texts it may show besides its message.
Texts variants(const ThrowSite& s) {
  Texts out;
  for (const auto& a : s.alternatives) out.push_back(template_text(a));
  return out;
}

// `super().__init__(message or self.message)` (and `message if message is
// not None else "…"`): the class's text when the raise passes nothing, a
// subclass's own text for the subclass, what the raise passes otherwise.
TEST(PythonClassDefaults, AParameterOrTheClassTextHandedToTheBase) {
  FileFacts f = scan_python(
      "class NotFound(Exception):\n"
      "    message = 'The resource was not found.'\n"
      "    def __init__(self, message=None):\n"
      "        super().__init__(message or self.message)\n"
      "class GoneToo(NotFound):\n"
      "    message = 'The resource is gone.'\n"
      "class Literal(Exception):\n"
      "    def __init__(self, message=None):\n"
      "        super().__init__(message if message is not None else 'Literal default.')\n"
      "def f(x):\n"
      "    if x == 1:\n"
      "        raise NotFound()\n"
      "    if x == 2:\n"
      "        raise GoneToo()\n"
      "    if x == 3:\n"
      "        raise NotFound('no such key')\n"
      "    raise Literal()\n");
  EXPECT_EQ(messages(f),
            (Texts{"The resource was not found.", "The resource is gone.", "no such key", "Literal default."}));
}

// `self.message = message or self.message` (or `self.detail = detail if
// detail is not None else self.description`) and then `super().__init__(
// self.message)`: the instance holds the class's text unless given one.
TEST(PythonClassDefaults, AnAttributeSetFromTheParameterOrTheClassText) {
  FileFacts f = scan_python(
      "class ApiError(Exception):\n"
      "    message = 'Something went wrong.'\n"
      "    def __init__(self, message=None):\n"
      "        self.message = message or self.message\n"
      "        super().__init__(self.message)\n"
      "class Typed(Exception):\n"
      "    def __init__(self, message=None):\n"
      "        self.code: int\n"
      "        super().__init__(message)\n"
      "class Described(Exception):\n"
      "    description = 'A described failure.'\n"
      "    def __init__(self, detail=None):\n"
      "        self.detail = detail if detail is not None else self.description\n"
      "        super().__init__(self.detail)\n"
      "def f(x):\n"
      "    if x == 1:\n"
      "        raise ApiError()\n"
      "    if x == 2:\n"
      "        raise ApiError('quota exceeded')\n"
      "    raise Described()\n");
  EXPECT_EQ(messages(f), (Texts{"Something went wrong.", "quota exceeded", "A described failure."}));
}

// A method raising what its instance holds (`raise ValueError(
// self.invalid_value_message)`), which `__init__` sets to the parameter or
// else a text: that text is a variant, the attribute stays the message
// (logging's `self._fmt = fmt or self.default_format` is raised by
// `validate()` when the format given is bad, never with the default).
TEST(PythonClassDefaults, AnInstanceAttributeSetToTheParameterOrATextOffersThatText) {
  FileFacts f = scan_python(
      "class IntegerField(Field):\n"
      "    def __init__(self, label=None, invalid_value_message=None):\n"
      "        self.invalid_value_message = invalid_value_message or self.gettext(\n"
      "            'Not a valid integer value.'\n"
      "        )\n"
      "    def process(self, value):\n"
      "        if not value.isdigit():\n"
      "            raise ValueError(self.invalid_value_message)\n");
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(template_text(f.sites[0].message), "{self.invalid_value_message}");
  EXPECT_EQ(variants(f.sites[0]), (Texts{"Not a valid integer value."}));
  // A guard testing the attribute tells the bad value given from the text.
  FileFacts logging = scan_python(
      "class PercentStyle(object):\n"
      "    default_format = '%(message)s'\n"
      "    def __init__(self, fmt=None):\n"
      "        self._fmt = fmt or self.default_format\n"
      "    def validate(self):\n"
      "        if not self.validation_pattern.search(self._fmt):\n"
      "            raise ValueError(\"Invalid format '%s'\" % self._fmt)\n");
  ASSERT_EQ(logging.sites.size(), 1u);
  EXPECT_EQ(template_text(logging.sites[0].message), "Invalid format '{self._fmt}'");
  EXPECT_EQ(variants(logging.sites[0]), Texts{});
}

// mako's `CompileException.__init__` hands its base `message +
// _format_filepos(lineno, pos, filename)`, a helper of the module with one
// text without a file name and one with: each is a text the raise shows.
TEST(PythonClassDefaults, AHelperTheInitCallsForTheMessageGivesEachOfItsTexts) {
  FileFacts f = scan_python(
      "def _format_filepos(lineno, pos, filename):\n"
      "    if filename is None:\n"
      "        return ' at line: %d char: %d' % (lineno, pos)\n"
      "    else:\n"
      "        return \" in file '%s' at line: %d char: %d\" % (filename, lineno, pos)\n"
      "class CompileException(Exception):\n"
      "    def __init__(self, message, source, lineno, pos, filename):\n"
      "        Exception.__init__(self, message + _format_filepos(lineno, pos, filename))\n"
      "def parse(tag, name):\n"
      "    raise CompileException(\"No such tag: '%s'\" % tag, None, 3, 7, name)\n");
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(variants(f.sites[0]), (Texts{"No such tag: '{tag}' at line: 3 char: 7", "No such tag: '{tag}' in file '{name}' at line: 3 char: 7"}));
}

// A class of another module raised without arguments shows its own text there too.
TEST(PythonClassDefaults, TheClassTextShowsWhereAnotherFileRaisesIt) {
  std::vector<FileFacts> files;
  files.push_back(scan_python(
      "class NotFound(Exception):\n"
      "    message = 'The resource was not found.'\n"
      "    def __init__(self, message=None):\n"
      "        super().__init__(message or self.message)\n"));
  files.push_back(scan_python(
      "from .errors import NotFound\n"
      "def get(key):\n"
      "    raise NotFound()\n"));
  read_calls("from .errors import NotFound\n", files[1]);
  std::vector<const FileFacts*> whole;
  for (const FileFacts& f : files) whole.push_back(&f);
  link_class_displays(files, {}, whole, {"pkg/errors.py", "pkg/api.py"});
  EXPECT_EQ(messages(files[1]), (Texts{"The resource was not found."}));
}

// A module's text written in parentheses over several lines (black's
// layout for a long string) or as literals side by side is its text where
// another module raises it, and so is the last of several plain bindings
// (cerberus' MISSING bound to a definition, then to its text); a tuple is
// not a text.
TEST(PythonClassDefaults, AnImportedTextInParenthesesOrPiecesIsItsText) {
  const std::string errors =
      "MSG_NAME = (\n"
      "    'is not a valid unit name (must follow Python identifier rules)'\n"
      ")\n"
      "MSG_JOINED = ('first part, '\n"
      "              \"second part\")\n"
      "PAIR = ('a', 'b')\n"
      "MISSING = ErrorDefinition(0x01, None)\n"
      "MISSING = 'document is missing'\n";
  const std::string use =
      "from . import errors\n"
      "from .errors import MSG_JOINED, PAIR\n"
      "def check(name):\n"
      "    if not name:\n"
      "        raise ValueError(errors.MSG_NAME)\n"
      "    if name == 'x':\n"
      "        raise ValueError(MSG_JOINED)\n"
      "    if name == 'y':\n"
      "        raise ValueError(errors.MISSING)\n"
      "    raise ValueError(PAIR)\n";
  std::vector<FileFacts> files;
  files.push_back(scan_python(errors));
  read_calls(errors, files[0]);
  files.push_back(scan_python(use));
  read_calls(use, files[1]);
  std::vector<const FileFacts*> whole;
  for (const FileFacts& f : files) whole.push_back(&f);
  link_imported_constants(files, {}, whole, {"pint/errors.py", "pint/definitions.py"});
  EXPECT_EQ(messages(files[1]),
            (Texts{"is not a valid unit name (must follow Python identifier rules)", "first part, second part",
                   "document is missing", "{PAIR}"}));
}

}  // namespace
}  // namespace errdex::scan
