#pragma once
// Evidence from the repository's own tests: the tests that expect an error
// (FileFacts::expectations, read from test files) linked to the records
// whose site they reach (record.evidence.tests).
#include <string>
#include <vector>

#include "analyze/class_index.h"
#include "analyze/observed.h"
#include "model/error_record.h"
#include "model/throw_site.h"

namespace errdex::analyze {

// A file's facts with its path from the repository's top.
struct FileFactsAt {
  const std::string* path = nullptr;
  const model::FileFacts* facts = nullptr;
};

class CallGraph;
class JsCallGraph;

// Links each test expectation of `files` to the records it agrees with:
// the class expected is the record's class or one of its bases (through
// `classes` and the built-in hierarchy), the test's regex (when it gives
// one) is found in the record's message template or one of its variants,
// and the test reaches the record's function through `graph`: what its
// calls name through its file's imports calls it, directly or down a
// chain (CallGraph::reach, bounded). The closest links win, and an
// expectation links one record or none: several that agree in the end are
// guesses. Without a regex, so is a site that is not all the test reaches
// of its class (it is in a callee, or more are below it), unless the test
// names the site's own class (not only a base) and a word of its code or
// name is in the site's message or guards, or the test call's literal
// arguments are decided to reach it. Of several sites of one function,
// the one the test call's literal arguments lead to is linked
// (guard_eval.h: its guards hold, those above it fail), read through a
// function the test calls that passes them on to the site's, and for a
// method through what the test's constructor call and its later calls on
// the instance set. Each record keeps at most `max_tests`, closest first,
// after the tests seen raising it (`observed`: analyze/observed.h), which
// need no reading; an expectation seen getting its error elsewhere links
// nothing here. `sites[i]` gave `records[i]`.
void link_tests(const std::vector<FileFactsAt>& files, const std::vector<model::ThrowSite>& sites,
                std::vector<model::ErrorRecord>& records, const ClassIndex& classes, const CallGraph& graph,
                std::size_t max_tests = 3,
                const ObservedLinks* observed = nullptr);

// The same for JavaScript and TypeScript (files not `.py`): an
// expectation links the records of the functions its calls name (by their
// last name: `parser.parse` → `parse`; `new Lexer` → the class's
// constructor) whose class (any, for `Error`) and message agree with it;
// else, when it gives a message specific enough (a regex RE2 takes with a
// literal run of 8 or more characters), the records of the whole
// repository that agree. Either way the records linked are one statement
// or its copies in the package's builds (the same function and message,
// each in another file); more are guesses and link none. Without a
// message, those named link only when each of its calls is a function
// called by its plain name. When that links none, the records `graph`
// (when given) leads the test's calls to (JsCallGraph::resolve_calls with
// its typed locals, then reach) that agree, on the same terms and more:
// a message must fit closely (the words a template spells out match more
// of the test's text than its interpolations take) and fit no other
// statement of the repository; without a message, the walk must have
// stayed within its bounds and met no throw of unknown class.
void link_javascript_tests(const std::vector<FileFactsAt>& files, const std::vector<model::ThrowSite>& sites,
                           std::vector<model::ErrorRecord>& records, const ClassIndex& classes,
                           const JsCallGraph* graph, std::size_t max_tests = 3);

// Whether a test expecting `expected` (as written: `ValueError`,
// `json.JSONDecodeError`) is satisfied by a raise of `error_class` in
// `file_path`: the same class or a subclass.
bool class_agrees(std::string_view expected, std::string_view error_class, std::string_view file_path,
                  const ClassIndex& classes);

}  // namespace errdex::analyze
