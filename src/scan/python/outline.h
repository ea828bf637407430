#pragma once
// A light pass over Python source, much cheaper than a parse, that blanks
// out the statements which cannot hold a throw site, so the parser only
// reads what matters. Internal to the scan stage.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/throw_site.h"

namespace errdex::scan {

// A source split into logical lines (statements, possibly over several
// physical lines) once, for the passes below that take it: each would
// split the source again from its text. Refers to `source`, which must
// outlive it.
class PythonLines {
 public:
  explicit PythonLines(std::string_view source);
  ~PythonLines();
  PythonLines(const PythonLines&) = delete;
  PythonLines& operator=(const PythonLines&) = delete;
  std::string_view source() const;

  struct Impl;
  std::unique_ptr<Impl> m;
};

// Returns `source` with every line of a module- or class-level statement
// that contains none of the bytes `raise`, `warn`, `assert` replaced by an
// empty line. Kept: such statements whole, every class header with its
// docstring (classes are facts too), and a `pass` where a class body would
// otherwise be empty. Line numbers are unchanged, and every kept line is
// byte-identical, so a parse of the result yields the same sites with the
// same lines, texts, guards and enclosing scopes as a parse of `source`.
//
// An empty optional when blanking would not pay (most of the file is kept)
// or the source confuses the light pass (unterminated string or bracket):
// the caller parses the whole file then.
//
// Statements holding one of `also_keep` as a whole word are kept too: the
// helpers and callers a site's message is read from (FileFacts::blanked).
std::optional<std::string> blank_unreachable(std::string_view source, const std::vector<std::string>& also_keep = {});
std::optional<std::string> blank_unreachable(const PythonLines& lines, const std::vector<std::string>& also_keep = {});

// The same pass keeping only what holds one of `words` as a whole word
// (and every class header): a test file's tests that expect an error. No
// threshold: nullopt only when the light pass is confused.
std::optional<std::string> keep_only_words(std::string_view source, const std::vector<std::string>& words);
std::optional<std::string> keep_only_words(const PythonLines& lines, const std::vector<std::string>& words);

// Each logical line of `lines` (blank and comment-only ones skipped), in
// order: its indent in columns and its text, from its first non-blank byte
// to its end (continuations, strings and a trailing comment included).
// None when the split was refused (an unterminated string or bracket).
void for_each_logical_line(const PythonLines& lines, const std::function<void(std::uint32_t, std::string_view)>& f);

// Each function's calls (FileFacts::functions: by name, and as written for
// the call graph) and the module's imports, classes' bases, names bound to
// a call's result and `__all__`, from the same light pass (strings and
// comments skipped; decorators and default values not counted). Nothing
// when the pass is confused.
void read_calls(std::string_view source, model::FileFacts& facts);
void read_calls(const PythonLines& lines, model::FileFacts& facts);

// The calls passing a string literal that reads as a message
// (FileFacts::message_calls: two words or more; a class's constructor, a
// `def` or `class` line left out), at most a few hundred.
void read_message_calls(const PythonLines& lines, model::FileFacts& facts);

// The imports alone (FileFacts::imports), for a test file.
void read_imports(std::string_view source, std::vector<model::ImportFact>& out);

// The docstrings of the module, its classes and functions (nested ones
// named with their enclosing ones: "A.f.g"), from the same light pass, in
// source order, bounded as model::Docstring says. Empty when the pass is
// confused.
std::vector<model::Docstring> read_docstrings(std::string_view source);
std::vector<model::Docstring> read_docstrings(const PythonLines& lines);

}  // namespace errdex::scan
