#pragma once
// Sentences taken from a repository's own docstrings, for the prose: what
// the function a user calls is for (its summary), and what its docstring
// says about the inputs a check tests or the error it raises. Pure text
// functions; the analyst decides where each sentence goes.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/error_record.h"

#include "model/throw_site.h"

namespace errdex::analyze {

// The summary of a docstring: its first sentence, with a leading signature
// line (`loads(s, *, cls=None) -> object`, as C modules write) skipped,
// reST markup read as code spans (``s`` and :class:`~a.B` become `s` and
// `a.B`), whitespace collapsed, ending in a full stop; at most ~240 bytes
// (cut at a word, "..."). "" when the docstring holds no sentence.
std::string doc_summary(std::string_view doc);

// The sentences of `doc` after its summary that name one of `words` as a
// whole word (a parameter the check tests, the class raised), markup read
// as in doc_summary; at most `max`, in order, each at most ~300 bytes.
// Doctest lines (`>>>`) and reST field lists of other names are no sentences.
std::vector<std::string> doc_sentences_naming(std::string_view doc, const std::vector<std::string>& words,
                                              std::size_t max);

// The docstring of `kind` named `name` in `docs` (a file's): the exact
// dotted name, else the one whose name ends with "." + `name` when only one
// does (a method named without its class, a closure). Null when none.
const model::Docstring* find_docstring(const std::vector<model::Docstring>& docs, std::string_view kind,
                                       std::string_view name);

// The docstrings of a repository's files by the dotted name a user writes:
// the module path ("Lib/json/__init__.py" is "Lib.json", and so "json")
// joined to the name in the file ("json.loads", "json.decoder.JSONDecoder"),
// under every suffix of the module path, since where the import roots lie
// is not known here. A name two docstrings give is nobody's.
// A scan asks for a few thousand names out of hundreds of thousands it could
// form, so the names are not formed: a file is found by the module part of
// the name asked, and its docstrings are sorted by name the first time one
// is asked of it. `find` is therefore not safe to call from two threads.
// The docstrings added must outlive the index.
class DocstringIndex {
 public:
  void add(std::string_view path, const std::vector<model::Docstring>& docs);
  // The docstring of a function or class so named, or of a class's
  // `__init__` when the class has none; null when none or ambiguous.
  const model::Docstring* find(std::string_view dotted) const;

 private:
  struct File {
    const std::vector<model::Docstring>* docs;
    // Its docstrings but the module's, by name; filled when first asked.
    mutable std::vector<std::pair<std::string_view, const model::Docstring*>> by_name;
    mutable bool sorted = false;
  };
  // The docstrings so named, as `seen` distinct ones (0, 1 or 2 for "more").
  const model::Docstring* named(std::string_view dotted, int& seen) const;

  std::vector<File> m_files;
  // Each suffix of a file's dotted module path → the files it names.
  std::unordered_map<std::string, std::vector<std::size_t>> m_files_by_module;
};

// The record's first entry point other than the raising function
// (evidence.entryPoints), with the call chain and its docstring's summary
// when `docs` knows it: it leads triggerScenarios as the public call when
// no docstring leads it yet, else it says in commonSituations where
// callers come from. Nothing changes for a record without one.
void write_entry_point_prose(model::ErrorRecord& r, const DocstringIndex& docs);

}  // namespace errdex::analyze
