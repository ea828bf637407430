#pragma once
// What a language frontend finds at one raise/throw/warn/assert: plain facts
// read off the code, with no interpretation. The analyst turns them into an
// ErrorRecord.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace errdex::model {

// One piece of a message template: constant text, or an interpolated
// expression kept as its source text.
struct TemplatePart {
  bool literal = true;
  // Literal: the decoded text. Interpolation: the expression's source text,
  // e.g. "len(num_heads)".
  std::string text;
  // Interpolation only: how it is shown in the brace form of errorMessage,
  // e.g. "values", "x!r", "width:>10". Empty means `text`.
  std::string display;
  // Interpolation only: a printf conversion ('d', 'i', 'f', 'x', ...) when
  // the template was %-style; 0 otherwise. Narrows the regex group.
  char printf_conv = 0;
};

struct MessageTemplate {
  // How the message was written: "none" (no message), "string", "fstring",
  // "concat", "percent", "format", "variable" (a name assigned earlier in
  // the function), "expression" (anything else: the message is opaque).
  std::string style = "none";
  std::vector<TemplatePart> parts;
  // True when every literal part came from string literals in the source
  // (as opposed to an opaque expression that became one interpolation).
  bool from_literals = false;
};

// A condition that leads to the site, innermost first.
struct Guard {
  // "if", "elif", "else", "while", "except", "assert", "match".
  std::string kind;
  // Source text of the condition ("len(head_dim) != len(self.layers)"), or
  // of the caught exceptions for "except" ("(KeyError, IndexError)").
  // For "else", the condition of the branch that was not taken; for "elif",
  // its own condition (earlier conditions are separate "else" guards).
  std::string condition;
  // Identifiers and dotted names the condition reads, in order of first use.
  std::vector<std::string> names;
  int line = 0;
};

struct ThrowSite {
  // "raise", "warn", "assert".
  std::string kind = "raise";
  // The class as written: "ValueError", "errors.InvalidArgument". For a
  // bare `raise` (re-raise) the caught class when known, else "".
  std::string error_class;
  // True for `raise` with no expression (re-raise of the active exception).
  bool reraise = false;
  MessageTemplate message;
  // Other messages the statement can raise: assignments of the message
  // variable on other branches, other returns of a helper that builds the
  // exception, or callers' arguments when the message is a parameter.
  std::vector<MessageTemplate> alternatives;
  // Source text of the full raised expression, e.g. `ValueError(f"...")`.
  std::string raised_text;
  // Source text of the arguments of the exception call, one per argument.
  std::vector<std::string> args;
  // `raise X from cause`: the cause's source text, else "".
  std::string cause;
  // 1-based line of the statement, and its last line.
  int line = 0;
  int end_line = 0;
  std::vector<Guard> guards;
  // Enclosing function ("" at module level), its parameter list source text
  // ("self, num_heads, head_dim"), decorators, and docstring (decoded).
  std::string function;
  std::string function_params;
  // When the message is a parameter of the enclosing module-level function
  // alone (`def _value_check(condition, message): ... raise
  // ValueError(message)`; JavaScript's `function devAssert(condition,
  // message) { … throw new Error(message) }`): its name and position
  // (0-based, -1 when keyword only). Callers in other files fill it
  // (scan::link_caller_messages, scan::link_javascript_caller_messages).
  std::string message_param;
  int message_param_position = -1;
  // JavaScript: the functions of the site's file that hand a parameter of
  // their own on to it as `message_param` (terser's `croak(msg, …)` calls
  // `js_error(msg, …)`; arktype's `throwParseError = message =>
  // throwError(message, ParseError)`), each as "name:position" (0-based):
  // other files' calls of them give texts too.
  std::vector<std::string> message_forwarders;
  // Python: the messages the exception call's other arguments build
  // (`BadOptionUsage(opt, "Option {name!r} does not take a value.".format(name=opt))`),
  // one per entry of `args` (an empty template where an argument builds
  // none, or is the first); empty when no argument after the first builds
  // one. A class defined in another file whose display shows such an
  // argument fills it with this (scan::link_class_displays).
  std::vector<MessageTemplate> arg_messages;
  std::vector<std::string> decorators;
  std::string function_doc;
  int function_line = 0;
  // Enclosing class ("" if none), its bases source text, its docstring.
  std::string class_name;
  std::string class_bases;
  std::string class_doc;
};

// A parameter of a class's constructor (after `self`).
struct ClassParam {
  std::string name;
  bool keyword_only = false;
  // The default when it is plain text (`message="Invalid file"`), else "".
  std::string default_text;
  // The default is `None` (`note=None`).
  bool defaults_to_none = false;
  // JavaScript: the text the message is for each key the call may pass
  // here, from a table of the file (`this.message = ERROR_CODES[code] ||
  // code`): (key, text) pairs; the display is then this parameter alone.
  std::vector<std::pair<std::string, std::string>> texts;
};

// JavaScript's own error classes: what the `stack` and toString() of a
// class that never sets its `name` print, at the end of its bases
// (`TypeError: …` for `class PathError extends TypeError`; Node prints the
// error itself as `PathError [TypeError]: …`).
inline bool javascript_builtin_error(std::string_view name) {
  for (std::string_view b : {"Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError",
                             "AggregateError"})
    if (name == b) return true;
  return false;
}

// A class defined in the file, for resolving custom exceptions to bases.
struct ClassDef {
  std::string name;
  std::vector<std::string> bases;
  int line = 0;
  // Module-level classes that format what an instance shows (`__str__`,
  // or the message `__init__` gives its base, here or in a base defined in
  // the same file): that message, whose interpolations may name `params`,
  // which the raising call fills. Empty when the class formats nothing.
  std::vector<MessageTemplate> display;
  std::vector<ClassParam> params;
  // A code-keyed table's entry (JavaScript: Node's `E('ERR_X', msg, Base)`
  // makes class ERR_X): its code; `bases` holds Base. A display of one
  // literal part in style "percent" is util.format's template, which the
  // raising call's arguments fill.
  std::string code;
  // JavaScript: the class gives its instances a `name` of their own (`this.name
  // = …`, a `name` field or getter). One that does not has its base's name:
  // its `stack` and toString() print its base (`Error: …`), while Node's
  // console.error and uncaught error print its class (`MissingRefError: …`).
  bool names_itself = false;
  // Python: the class body defines `__init__` or `__str__` itself. One that
  // does not, and has no display from a base in its file, prints as its
  // first base does, wherever that is defined (pyyaml's `class
  // ComposerError(MarkedYAMLError): pass`).
  bool own_methods = false;
  // JavaScript: not a class but a function of the module returning an error
  // it makes (`function createUnsupportedError(message) { var err = new
  // Error(message); …; return err }`): `bases` holds that error's class,
  // `display` its messages, `params` the function's.
  bool factory = false;
};

// A docstring of the file (Python): the module's, a class's or a
// function's, as `inspect.cleandoc` shows it (first line and common
// indentation stripped), cut at a line end after at most
// k_max_docstring bytes: its summary and the paragraphs after it, where a
// "Raises:" section or the message it documents usually sits.
struct Docstring {
  std::string kind;  // "module", "class" or "function"
  // Dotted within the file: "JSONDecoder.decode", "loads", "Outer.inner";
  // "" for the module.
  std::string name;
  int line = 0;  // where the string starts
  std::string text;

  static constexpr std::size_t k_max_docstring = 1200;
};

// A test's expectation that the code it runs raises or warns (read from
// test files only): `with pytest.raises(ValueError, match="width")`,
// `self.assertRaises(KeyError, d.pop, "x")`, `assertWarnsRegex(...)`.
struct TestExpectation {
  std::string kind = "raises";  // "raises" or "warns"
  // The classes expected, as written; a tuple gives several.
  std::vector<std::string> classes;
  // The regex the message must hold (`match=`, assertRaisesRegex's second
  // argument), decoded; "" when the test gives none or it is not a literal.
  std::string match;
  // The test: "WrapTestCase.test_bad_width", or "test_bad_width" at module
  // level (its outermost function, as a test runner names it).
  std::string test;
  int line = 0;      // the `with` statement or the call
  std::string code;  // its text, at most a few lines
  // What it runs, as written without `self.` (`textwrap.wrap`,
  // `TextWrapper`): calls in the `with` body, or the callable argument (and
  // the calls in a lambda given as one). Bounded.
  std::vector<std::string> calls;
  // The calls, as written with their arguments, that made the instances
  // its calls are made on, where the test binds a local of its own to one
  // and sets none of its attributes (`w = Wrapper('x', width=3)`, then
  // `w.wrap(...)`: "Wrapper('x', width=3)"), for what a constructor set the
  // instance's attributes to. Bounded.
  std::vector<std::string> constructions;
  // What the test did to each of those instances (same index) between
  // making it and the expectation, in order: a method call as written
  // after the receiver (`close()`, `open('w')`), or an attribute set
  // (`mode = 'r'`); a last "?" when it used it any other way (passed it
  // to a call, in a nested block), after which its state is unknown.
  std::vector<std::vector<std::string>> instance_steps;
  // The test's own locals its code names that hold one value there, as
  // written (`exts = 'foo'`, then `assertRaises(E, f, exts)`: {"exts",
  // "'foo'"}): every binding of the name in the test is a plain assignment
  // at the top of its body, the last one before the expectation gives it.
  // Whether the text is a literal is the reader's to decide. Bounded.
  std::vector<std::pair<std::string, std::string>> locals;
};

// A statement of a function's body (or of the module) that binds a name
// (Python), for deciding a test's literal arguments against guards below
// it: `n = len(s)`, `x += 1`, a `for`, `with ... as`, `except ... as` or
// tuple target, `del x`, `x := ...`, an in-place method call on it
// (`x.append(...)`, `x[i] = ...`), `global x`/`nonlocal x`; and
// `self.x = ...` (its name "self.x"), what a method sets on its instance,
// and any other change of it (`self.x += 1`, `self.x[k] = v`,
// `self.x.append(...)`, `del self.x`) named so too.
struct Binding {
  std::string name;
  int line = 0;  // 1-based, the statement's first line
  // "assign": `name = value` or `name: T = value` (one target, `value` its
  // source text, without a trailing comment); "other": any other rebind,
  // whose value is not read; "global": a `global` or `nonlocal`.
  std::string kind = "assign";
  std::string value;
  // A statement of the body itself (or of the module), not inside a block
  // (`if`, `for`, `try`, `with`...): it runs whenever the lines below it do.
  bool top = true;
  // Inside a `for` or `while` of the function (of the module): the first
  // line of the outermost one, which may run it again after the lines
  // below it; 0 when in none.
  int loop = 0;
  // A statement of the body of an `if` of the function's body itself
  // (not of its `elif` or `else`, nor in a block inside it): that `if`'s
  // condition, as written, and its line; it runs when the condition holds
  // there (`if mode is None:` then `mode = 'r'`). Empty and 0 otherwise.
  std::string when;
  int when_line = 0;
};

// A statement of a function's body that is one call (Python): `check(x,
// 0)`, `return self._check(x)`, `y = _check(x)`; for following a test's
// literal arguments down a chain of calls (evidence.cc).
struct StatementCall {
  std::string callee;  // as written: "_check", "self._check"
  std::string args;    // its argument text, whitespace collapsed
  int line = 0;        // 1-based
  // A statement of the body itself, not inside a block: it runs whenever
  // the lines below it do.
  bool top = true;
};

// The names a function calls (bare: `self.parse(x)` and `parse(x)` are
// both "parse"), for a repository's name-based call index, and what the
// call graph (analyze/call_graph.h) needs to resolve them.
struct FunctionCalls {
  std::string name;
  std::vector<std::string> calls;
  // The classes and functions around it and its name, dotted
  // ("JSONDecoder.decode", "outer.inner"), and its `def` line (1-based).
  std::string qualname;
  int line = 0;
  // Defined inside another function: a closure, whose calls are counted
  // as the enclosing function's too.
  bool nested = false;
  // Calls as written with their receiver, in order, once each, bounded:
  // "parse", "self.parse", "json.loads", "super.__init__", "?.read" (the
  // receiver is an expression: `f().read()`).
  std::vector<std::string> targets;
  // Names bound to a call's result in the body: {"dec", "JSONDecoder"}
  // for `dec = JSONDecoder(...)`, {"self.dec", ...} likewise.
  std::vector<std::pair<std::string, std::string>> assigned;
  // What reading, assigning or deleting the attribute of its name runs
  // (a decorator says so): "getter" (`@property`, `@x.getter`,
  // `@cached_property`), "setter" (`@x.setter`), "deleter" (`@x.deleter`);
  // "" for a function that is no property's. Also set by a class body's
  // `x = property(getx, setx, delx)` (or `fget=`...), with `attribute`
  // the attribute's name ("x").
  std::string property;
  std::string attribute;
  // What every `return` of its body gives, when all agree: the callee as
  // written of a call (`return Thing(...)`, or a local bound to one), ""
  // when unknown or different.
  std::string returns;
  // What its body binds, in line order (a nested function's own bindings
  // not included; its `nonlocal`/`global` are). A last entry named "*"
  // says more were left out (k_max_bindings).
  std::vector<Binding> bindings;
  static constexpr std::size_t k_max_bindings = 256;
  // Its parameter list as written, whitespace collapsed (`self, a, b=1`).
  std::string params;
  // Its statements that are one call, in line order (a nested function's
  // not included), at most k_max_statement_calls.
  std::vector<StatementCall> statement_calls;
  static constexpr std::size_t k_max_statement_calls = 48;
  // An `async def`: a call runs none of its body, which runs when the
  // coroutine it returns is awaited.
  bool is_async = false;
};

// One name an import binds (Python): `import a.b` {"a.b", "", ""};
// `import a.b as z` {"a.b", "", "z"}; `from ..m import n as z`
// {"m", "n", "z", 2}; `from m import *` {"m", "*"}.
struct ImportFact {
  std::string module;
  std::string name;
  std::string alias;
  int level = 0;
};

// A call passing a string literal that reads as a message
// (`_value_check(std > 0, "Standard deviation must be positive")`): the
// callee as written, the argument's position (-1 for a keyword argument)
// or keyword, and the literal as written (Python) or its value
// (JavaScript, whose literals the scanner decodes as it reads them).
struct MessageCall {
  std::string callee;
  int position = -1;
  std::string keyword;
  std::string text;
  // JavaScript: the argument as a message, its `${…}` and the operands of
  // `+` that are no text as interpolations (`Expected ${inspect(t)} to be a
  // type.`); `text` is then its brace form. Empty for Python.
  MessageTemplate message;
};

// Every class of the file (nested ones dotted: "Outer.Inner") and its
// bases as written, for the call graph's method lookup.
struct ClassBases {
  std::string qualname;
  std::vector<std::string> bases;
};

// Everything a frontend learns from one file.
struct FileFacts {
  std::vector<ThrowSite> sites;
  std::vector<ClassDef> classes;
  // Every docstring of the file (Python), in source order.
  std::vector<Docstring> docstrings;
  // True when the parser met syntax errors; sites outside them still count.
  bool had_syntax_errors = false;
  // On a scan of an outline (scan/python/outline.h): names of helpers and
  // functions whose code (definition, callers) a site's message is read
  // from but the outline blanked. The file is scanned again keeping them.
  std::vector<std::string> blanked;
  // Test files only: what their tests expect to be raised or warned.
  std::vector<TestExpectation> expectations;
  // Each function's calls by name (Python), for evidence linking and the
  // call graph.
  std::vector<FunctionCalls> functions;
  // The call graph's facts of the module (Python): its imports (those in
  // functions too), classes, names bound at module level to a call's
  // result ({"_default_decoder", "JSONDecoder"}), and `__all__` when it is
  // a literal list (`has_exports`).
  std::vector<ImportFact> imports;
  // Calls passing a message as a literal (MessageCall), at most a few
  // hundred per file.
  std::vector<MessageCall> message_calls;
  std::vector<ClassBases> class_bases;
  std::vector<std::pair<std::string, std::string>> assigned;
  bool has_exports = false;
  std::vector<std::string> exports;
  // What the module's top level binds (Binding; `top` false inside an
  // `if`, `try`, loop...), bounded like a function's.
  std::vector<Binding> module_bindings;
};

}  // namespace errdex::model
