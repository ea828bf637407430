#pragma once
// The static analyst: the prose and code fields of a record, written only
// from facts of the code (guard, function, class, template, the lines of
// the file). Offline and deterministic: the same facts give the same text.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyze/class_index.h"
#include "analyze/condition.h"
#include "analyze/prose_memo.h"
#include "model/error_record.h"
#include "model/throw_site.h"

namespace errdex::analyze {

// Who calls each function of one file, by name, read off its lines (not
// its syntax tree) once, the first time a site asks. Not thread-safe; one
// per file, used while its lines live.
class FileCallers {
 public:
  // The functions of the file (named with their class: `Box.render()`)
  // whose body calls `fn`, in line order, once each: public ones, at most
  // 3; with `any_caller`, private ones too, at most 8. The innermost
  // `def` around a call is its caller; none in a class body, or when that
  // `def` is `fn` itself.
  const std::vector<std::string>& of(const std::vector<std::string_view>& lines, const std::string& fn,
                                     bool any_caller);

 private:
  struct Call {
    std::string_view function, cls;  // the innermost def and the class around it ("" if none)
    bool in_class;                   // the innermost def is a class body
  };
  void index(const std::vector<std::string_view>& lines);
  bool m_indexed = false;
  std::unordered_map<std::string_view, std::vector<Call>> m_calls;
  std::unordered_map<std::string, std::vector<std::string>> m_answers;  // "*" + fn: any_caller
};

// What the analyst may read besides the site.
struct ProseContext {
  std::string_view source;  // the whole file
  // Its lines, split once per file rather than once per site.
  const std::vector<std::string_view>& lines;
  // The raised class resolved through the repository's classes.
  ClassIndex::Resolution resolution;
  // Public callers of each private function already looked up in this
  // file (sites of one helper share them); may be null.
  FileCallers* callers = nullptr;
  // The file's docstrings (FileFacts::docstrings): the module's and those
  // of the public callers of a private function; may be null.
  const std::vector<model::Docstring>* docstrings = nullptr;
  // The prose of the file's last analysis (ProseMemo): a site whose prose
  // key is there takes that prose. May be null.
  const FileProse* earlier = nullptr;
  // Where each site's prose goes under its key, for the next analysis; may
  // be null.
  FileProse* next = nullptr;
};

// Fills documentation, triggerScenarios, commonSituations, solutions,
// exampleFix, handlingStrategy, validationCode, typeGuard, tryCatchPattern,
// preventionTips, tags and backgroundTag of `r`, whose identity fields
// (class, message, type, severity, path) and lints are already set. Every
// code field it writes parses as Python; one that would not is left null
// (or, for exampleFix, replaced by a plain call). True when the prose came
// from ctx.earlier (with ERRDEX_CHECK_MEMO=1 it is written again and
// compared, a difference reported on stderr).
bool write_static_prose(const model::ThrowSite& site, model::ErrorRecord& r, const ProseContext& ctx);

// triggerScenarios grounded in the record's first linked test
// (evidence.tests): a first sentence naming the test and the call it makes
// (`Lib/test/test_textwrap.py::WrapTestCase.test_bad_width` calls
// `wrap(text, width=0)`), before what the code alone says. Nothing changes
// for a record without tests. exampleFix then starts from the call of the
// first linked test that parses on its own (a `with` body's line, or
// `fn(*args)` of `assertRaises(Cls, fn, *args)`), named in its first
// comment; its "# after" part is kept.
void write_test_trigger(model::ErrorRecord& r);

}  // namespace errdex::analyze
