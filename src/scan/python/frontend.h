#pragma once
// The Python frontend: bytes of one .py file in, throw-site facts out.
// Pure and thread-safe (each call uses its own parser).
#include <string_view>
#include <vector>

#include "model/throw_site.h"

namespace errdex::scan {

// Finds every `raise`, `warnings.warn(...)` and `assert cond, msg` in
// `source` (UTF-8 Python). Never throws on bad input: a file that does not
// parse yields the sites tree-sitter could still recognise, with
// had_syntax_errors set.
// Statements that cannot hold a site are blanked before the parse (see
// scan/python/outline.h), which gives the same sites at a fraction of the cost;
// classes defined inside functions without sites are not listed then.
// The file's docstrings (FileFacts::docstrings) come from that light pass.
model::FileFacts scan_python(std::string_view source);
// The same from a source already split into logical lines (outline.h).
class PythonLines;
model::FileFacts scan_python(const PythonLines& lines);
// The same sites, parsing the whole file: the reference the fast path is
// tested against (no docstrings).
model::FileFacts scan_python_whole(std::string_view source);

// A test file read as evidence: what its tests expect to be raised or
// warned (FileFacts::expectations); no sites, classes or call index (a
// test's helpers would only add wrong links). Only the tests that hold an
// expectation are parsed. Never throws on bad input.
model::FileFacts scan_python_tests(std::string_view source);
// The same parsing the whole file and walking every node of it: the
// reference the fast path is tested against.
model::FileFacts scan_python_tests_whole(std::string_view source);
// Cheap pre-check: false when `source` holds no expectation.
bool may_have_expectations(std::string_view source);
// Rewrites the calls of `facts.expectations` to what their receivers stand
// for in the test file split into `lines` (test_types.cc): a local or `self.x` bound
// to a constructor's result (in `setUp` too) or a helper's, a class
// attribute (a mixin's in its subclasses), a module loaded with
// `import_fresh_module` (then added to `facts.imports`). Calls it knows
// nothing of are kept as written.
void type_test_calls(const PythonLines& lines, model::FileFacts& facts);

// Across a repository's files (FileFacts of each, in any order): a raise
// of a class defined in another file shows there as it does where it is
// defined. `raise URLError('unknown url type: %s' % type)` in one file,
// where another defines URLError to show '<urlopen error %s>' %
// self.reason: the class's display (ClassDef::display), its parameters
// filled with the site's arguments as written, is what the site shows
// (offer_class_display: its message, or an alternative). A class name
// defined in several files is the raising file's own, else (with `whole`
// and `paths`) the one of the module the file imports it from, else left
// alone; so are arguments that cannot be matched to the parameters
// (`*args`).
// `python[i]`: file i is Python (empty: every file is); the others'
// classes and sites are their own language's (link_javascript).
// With `whole` (each file's facts with its imports) and `paths`, a site
// whose file imports the class's name from a module outside the
// repository (`from pydantic_core import ValidationError`, `raise
// pydantic_core.ValidationError(…)`) is not given the repository's class
// of that name.
void link_class_displays(std::vector<model::FileFacts>& files, const std::vector<bool>& python = {},
                         const std::vector<const model::FileFacts*>& whole = {},
                         const std::vector<std::string>& paths = {});

// Across a repository's Python files (`python`, `whole` and `paths` as for
// link_class_displays): a message that shows a name the file imports
// (`from .socket import SERVER_CLOSED; raise ConnectionError(SERVER_CLOSED)`,
// or `errors.SERVER_CLOSED` of `from . import errors`) as `{SERVER_CLOSED}`
// shows the literal that module binds the name to, when it binds it once,
// at its top level. Run before link_class_displays, which fills displays
// with the sites' arguments.
void link_imported_constants(std::vector<model::FileFacts>& files, const std::vector<bool>& python,
                             const std::vector<const model::FileFacts*>& whole,
                             const std::vector<std::string>& paths);

// Across a repository's files (`paths[i]` the path of `files[i]`, whose
// calls and imports `calls[i]` holds: the same facts, or the whole of
// them when `files[i]` holds only sites and classes): a
// module-level function raising its parameter as the message
// (ThrowSite::message_param) gets, as alternatives, the literals other
// files pass for that parameter (FileFacts::message_calls) through an
// import of the function or of its module. A function name defined so in
// several files is left alone. Only the files `python` marks (all when
// it is empty).
void link_caller_messages(std::vector<model::FileFacts>& files, const std::vector<bool>& python,
                          const std::vector<const model::FileFacts*>& calls, const std::vector<std::string>& paths);

// In each Python file (`python` as for link_class_displays) whose module
// is `module_names[i]` ("json.decoder"; "" when unknown: the file is left
// alone), a message that shows the module's global `__name__`
// (`f"module {__name__!r} has no attribute {name!r}"` of a module-level
// `__getattr__`) shows the module's name, as Python prints it there
// (`module 'json.decoder' has no attribute {name!r}`). What it shows with
// a format spec is left as it is.
void link_module_names(std::vector<model::FileFacts>& files, const std::vector<bool>& python,
                       const std::vector<std::string>& module_names);

// Cheap pre-check: false when `source` cannot contain a throw site (no
// `raise`, `warn` or `assert` bytes), so the caller may skip the parse.
bool may_have_sites(std::string_view source);
// The same for class definitions (no `class` bytes): a file without sites
// is still read for its classes, which other files raise.
bool may_define_classes(std::string_view source);

}  // namespace errdex::scan
