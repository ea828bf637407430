#pragma once
// One frontend per language behind one interface: the scan pipeline asks
// the frontend a file's name selects whether the file is worth parsing and
// for its facts. Python is the one there is (scan/python/); a language is a
// folder of its own and one entry in frontend.cc.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "model/throw_site.h"

namespace errdex::scan {

class Frontend {
 public:
  virtual ~Frontend() = default;
  // Its name, part of the facts cache's key: "python".
  virtual std::string_view language() const = 0;
  // A cheap look at the bytes: false when the file can hold no throw site
  // and defines nothing another file's sites need (it is then not parsed).
  virtual bool worth_parsing(std::string_view source) const = 0;
  // The file's facts. Pure: bytes in, facts out; thread-safe.
  virtual model::FileFacts scan(std::string_view source) const = 0;
  // A test file read as evidence (FileFacts::expectations, no sites):
  // empty for a language whose tests are not read.
  virtual model::FileFacts scan_tests(std::string_view) const { return {}; }
  // The call graph's facts alone (FileFacts::functions, imports, classes'
  // bases, `__all__`) and docstrings of a file not worth parsing: empty for a language
  // whose calls are not read.
  virtual model::FileFacts scan_calls(std::string_view) const { return {}; }
  // Why a file of this language is not read at all, listed with the scan's
  // skipped files ("minified"); empty when it is read. Checked before
  // worth_parsing.
  virtual std::string_view unread_reason(std::string_view) const { return {}; }
  // Whether scan_tests reads anything (else a test file is not even read).
  virtual bool reads_tests() const { return false; }
  // A test file that gives records too (`--include-tests`): its facts as
  // scan gives them, with what scan_tests reads (the expectations, and the
  // modules the tests load that the file's imports do not name).
  virtual model::FileFacts scan_with_tests(std::string_view source) const {
    model::FileFacts facts = scan(source);
    model::FileFacts tests = scan_tests(source);
    facts.expectations = std::move(tests.expectations);
    for (auto& imported : tests.imports) {
      auto same = [&](const model::ImportFact& i) {
        return i.module == imported.module && i.name == imported.name && i.alias == imported.alias &&
               i.level == imported.level;
      };
      if (std::none_of(facts.imports.begin(), facts.imports.end(), same)) facts.imports.push_back(std::move(imported));
    }
    return facts;
  }
};

// The frontend for a file, by the end of its name ("x.py": Python);
// nullptr for a file no frontend reads.
const Frontend* frontend_for(std::string_view path);

// Why a file whose name is listed is read by no frontend, when the scan
// should say so among its skipped files: "minified" for a `.min.js`
// bundle; empty otherwise (a `.d.ts` declares and is no loss).
std::string_view unread_by_name(std::string_view path);

// Every file-name ending some frontend reads (for source::Options).
std::vector<std::string> frontend_extensions();

}  // namespace errdex::scan
