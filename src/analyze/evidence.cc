#include "analyze/evidence.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "analyze/call_graph.h"
#include "analyze/call_text.h"
#include "analyze/guard_eval.h"
#include "analyze/helper_first.h"
#include "analyze/js_call_graph.h"
#include "analyze/static_prose.h"
#include "analyze/test_bindings.h"
#include "analyze/test_values.h"
#include "analyze/witness.h"
#include "util/text.h"


namespace errdex::analyze {
namespace {

// The shortest literal run of a test's regex that may stand for it when the
// regex itself does not match the template (interpolations in the way).
constexpr std::size_t k_min_fragment = 8;
// Sites of an expectation's class below its nearest one (itself in a
// callee) that make a regex-less expectation a guess.
constexpr std::size_t k_max_deeper = 3;

using detail::BindingFacts;
using detail::last_component;

// The built-in classes above a built-in, nearest first.
std::string_view builtin_parent(std::string_view c) {
  static const std::unordered_map<std::string_view, std::string_view> k = {
      {"UnicodeError", "ValueError"}, {"UnicodeDecodeError", "UnicodeError"},
      {"UnicodeEncodeError", "UnicodeError"}, {"UnicodeTranslateError", "UnicodeError"},
      {"KeyError", "LookupError"}, {"IndexError", "LookupError"},
      {"ZeroDivisionError", "ArithmeticError"}, {"OverflowError", "ArithmeticError"},
      {"FloatingPointError", "ArithmeticError"}, {"FileNotFoundError", "OSError"},
      {"FileExistsError", "OSError"}, {"PermissionError", "OSError"}, {"IsADirectoryError", "OSError"},
      {"NotADirectoryError", "OSError"}, {"TimeoutError", "OSError"}, {"ConnectionError", "OSError"},
      {"BlockingIOError", "OSError"}, {"ChildProcessError", "OSError"}, {"InterruptedError", "OSError"},
      {"ProcessLookupError", "OSError"}, {"BrokenPipeError", "ConnectionError"},
      {"ConnectionAbortedError", "ConnectionError"}, {"ConnectionRefusedError", "ConnectionError"},
      {"ConnectionResetError", "ConnectionError"}, {"NotImplementedError", "RuntimeError"},
      {"RecursionError", "RuntimeError"}, {"ModuleNotFoundError", "ImportError"},
      {"IndentationError", "SyntaxError"}, {"TabError", "IndentationError"}, {"UnboundLocalError", "NameError"},
      {"DeprecationWarning", "Warning"}, {"PendingDeprecationWarning", "Warning"}, {"RuntimeWarning", "Warning"},
      {"SyntaxWarning", "Warning"}, {"UserWarning", "Warning"}, {"FutureWarning", "Warning"},
      {"ImportWarning", "Warning"}, {"UnicodeWarning", "Warning"}, {"BytesWarning", "Warning"},
      {"ResourceWarning", "Warning"}, {"EncodingWarning", "Warning"},
  };
  auto it = k.find(c);
  return it == k.end() ? std::string_view() : it->second;
}

// Old names of OSError.
std::string_view canonical(std::string_view c) {
  if (c == "IOError" || c == "EnvironmentError" || c == "error" || c == "WindowsError") return "OSError";
  return c;
}

// Fixed text of a regex: its longest run of characters that match only
// themselves (escapes of punctuation undone).
std::string longest_literal(std::string_view re) {
  std::string best, cur;
  auto flush = [&] {
    if (cur.size() > best.size()) best = cur;
    cur.clear();
  };
  for (std::size_t i = 0; i < re.size(); ++i) {
    char c = re[i];
    if (c == '\\' && i + 1 < re.size()) {
      char n = re[++i];
      if (std::isalnum(static_cast<unsigned char>(n))) flush();
      else cur += n;
      continue;
    }
    // A class of one character (`[.]`, `[(]`) is that character.
    if (c == '[' && i + 2 < re.size() && re[i + 2] == ']' && re[i + 1] != '^' && re[i + 1] != '\\' &&
        !(i + 3 < re.size() && std::string_view("?*{").find(re[i + 3]) != std::string_view::npos)) {
      cur += re[i + 1];
      i += 2;
      continue;
    }
    if (std::string_view("^$.|?*+()[]{}").find(c) != std::string_view::npos) {
      // A quantifier makes the character before it optional.
      if ((c == '?' || c == '*' || c == '{') && !cur.empty()) cur.pop_back();
      flush();
      if (c == '[')
        while (i < re.size() && re[i] != ']') ++i;
      continue;
    }
    cur += c;
  }
  flush();
  return best;
}

struct Pattern {
  std::unique_ptr<RE2> re;  // null when RE2 does not take the regex
  std::string fragment;     // longest_literal, when long enough
  // The longest literal's words, for a message whose interpolations the
  // test wrote as values (`"node 2 was not passed out"`).
  std::vector<std::string> words;
};

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < s.size();) {
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// How many characters of the test's words the words `template_text`
// spells out match, at best, where the test's words are a run of some
// message it gives, each interpolation (`{node!r}`, and the word around
// it) standing for one or more of the test's words and at least one
// doing so; 0 when they are none. The first and last words may be cut
// (the regex is searched in the message).
std::size_t words_fit_chars(const std::vector<std::string>& test, std::string_view template_text) {
  const std::size_t n = test.size();
  if (n < 2 || template_text.find('{') == std::string_view::npos) return 0;
  auto t = split_words(template_text);
  const std::size_t m = t.size();
  auto hole = [&](std::size_t j) { return t[j].find('{') != std::string_view::npos; };
  // fit(i, j): test[i..] from template word j; 0 no, else 1 + literal
  // characters matched, with at least one hole used when `used`.
  std::vector<int> memo((n + 1) * (m + 1) * 2, -1);
  std::function<int(std::size_t, std::size_t, bool)> fit = [&](std::size_t i, std::size_t j, bool used) -> int {
    if (i == n) return used ? 1 : 0;
    if (j == m) return 0;
    int& at = memo[(i * (m + 1) + j) * 2 + used];
    if (at >= 0) return at;
    at = 0;
    if (hole(j)) {
      for (std::size_t k = i + 1; k <= n; ++k) at = std::max(at, fit(k, j + 1, true));
      return at;
    }
    const bool same = test[i] == t[j] || (i == 0 && t[j].ends_with(test[i])) || (i + 1 == n && t[j].starts_with(test[i]));
    if (same)
      if (int rest = fit(i + 1, j + 1, used); rest > 0) at = rest + static_cast<int>(test[i].size());
    return at;
  };
  int best = 0;
  for (std::size_t j = 0; j < m; ++j) best = std::max(best, fit(0, j, false));
  return best > 0 ? static_cast<std::size_t>(best - 1) : 0;
}

// Whether the test's words fit a message `template_text` gives
// (words_fit_chars), the words it spells out holding k_min_fragment
// characters.
bool words_fit(const std::vector<std::string>& test, std::string_view template_text) {
  return words_fit_chars(test, template_text) >= k_min_fragment;
}

Pattern compile(const std::string& match) {
  Pattern p;
  RE2::Options o;
  o.set_log_errors(false);
  o.set_max_mem(1 << 20);
  auto re = std::make_unique<RE2>(match, o);
  if (re->ok()) p.re = std::move(re);
  p.fragment = longest_literal(match);
  if (p.fragment.size() < k_min_fragment) p.fragment.clear();
  for (std::string_view w : split_words(p.fragment)) p.words.emplace_back(w);
  return p;
}

// Whether the test's message agrees with record r's template or one of
// its variants. `closely`: not where an interpolation stands for most of
// the test's words; the words the template spells out must match more of
// the test's characters than its interpolations take (`Names must only
// contain … but "x" does not.` does not fit `Names must start with … but
// "{name}" does not.`, whose name would be most of it).
bool pattern_agrees(const Pattern& p, const model::ErrorRecord& r, bool closely = false) {
  std::size_t total = 0;
  if (closely)
    for (const auto& w : p.words) total += w.size();
  auto one = [&](const std::string& text) {
    if (p.re && RE2::PartialMatch(text, *p.re)) return true;
    if (p.fragment.empty()) return false;
    if (text.find(p.fragment) != std::string::npos) return true;
    if (!closely) return words_fit(p.words, text);
    const std::size_t chars = words_fit_chars(p.words, text);
    return chars >= k_min_fragment && 2 * chars > total;
  };
  if (one(r.error_message)) return true;
  return std::any_of(r.message_variants.begin(), r.message_variants.end(),
                     [&](const model::MessageVariant& v) { return one(v.error_message); });
}

// The words a test file's path and calls name its subject by: `test_json/
// test_decode.py` → json, decode; `_test_multiprocessing.py`,
// `string_tests.py` → multiprocessing, string; `json.loads(...)` → json.
std::unordered_set<std::string> subject_words(std::string_view test_path, const model::TestExpectation& e) {
  std::unordered_set<std::string> out;
  std::size_t start = 0;
  while (start < test_path.size()) {
    std::size_t end = test_path.find('/', start);
    if (end == std::string_view::npos) end = test_path.size();
    std::string_view part = test_path.substr(start, end - start);
    if (part.ends_with(".py")) part.remove_suffix(3);
    // `_test_multiprocessing.py` (a module the test files run), the
    // shared `string_tests.py`: their subject too. (Not `datetimetester`:
    // its tests run the C accelerator's classes as often as the Python
    // ones, and only the latter raise the module's sites.)
    while (part.starts_with('_')) part.remove_prefix(1);
    if (part.starts_with("test_")) part.remove_prefix(5);
    for (std::string_view suffix : {"_test", "_tests"})
      if (part.ends_with(suffix) && part.size() > suffix.size()) part.remove_suffix(suffix.size());
    while (part.starts_with('_')) part.remove_prefix(1);
    if (!part.empty() && part != "test" && part != "tests" && part != "Lib" && part != "lib") out.emplace(part);
    start = end + 1;
  }
  for (const auto& c : e.calls) {
    std::string_view q = c;
    // An attribute access (`obj.size.__get__`): its receiver's words.
    if (q.ends_with(".__get__") || q.ends_with(".__set__") || q.ends_with(".__delete__")) q = q.substr(0, q.rfind('.'));
    // A coroutine the test made before its expectation names what it runs
    // only when it is one (call_graph.h): not its subject.
    if (q.ends_with(".__await__")) continue;
    auto dot = q.rfind('.');
    if (dot == std::string_view::npos) continue;
    q = q.substr(0, dot);
    if (q.ends_with("()")) q.remove_suffix(2);  // a call's result (`make().m`)
    q = last_component(q);
    while (q.starts_with('_')) q.remove_prefix(1);
    if (!q.empty()) out.emplace(q);
  }
  return out;
}

bool has_affinity(std::string_view record_path, const std::unordered_set<std::string>& words) {
  std::string_view stem = util::python_module_stem(record_path);
  while (stem.starts_with('_')) stem.remove_prefix(1);
  if (words.contains(std::string(stem))) return true;
  std::size_t start = 0;
  while (start < record_path.size()) {
    std::size_t end = record_path.find('/', start);
    if (end == std::string_view::npos) break;  // the file itself: python_module_stem's
    if (words.contains(std::string(record_path.substr(start, end - start)))) return true;
    start = end + 1;
  }
  return false;
}

// A function decorated by a class (`@_SpecialForm`): calling its name
// calls that object, which need not run the body at all.
bool decorated_by_class(const model::ThrowSite& s) {
  return std::any_of(s.decorators.begin(), s.decorators.end(), [](const std::string& d) {
    std::string_view n = d;
    n = n.substr(0, n.find('('));
    n = last_component(n);
    while (n.starts_with('_')) n.remove_prefix(1);
    return !n.empty() && std::isupper(static_cast<unsigned char>(n.front()));
  });
}


// How many of the records raised in the functions of `reached` deeper than
// `level` agree (counting stops at k_max_deeper), each counted one
// appended to `others`.
template <class Agrees>
std::size_t deeper_sites(const std::vector<std::pair<int, int>>& reached, int level,
                         const std::unordered_map<int, std::vector<std::size_t>>& by_node, const Agrees& agrees,
                         std::vector<std::size_t>& others) {
  std::size_t n = 0;
  for (auto [node, depth] : reached) {
    if (depth <= level) continue;
    if (auto it = by_node.find(node); it != by_node.end())
      for (std::size_t r : it->second)
        if (agrees(r)) {
          others.push_back(r);
          if (++n >= k_max_deeper) return n;
        }
  }
  return n;
}

// Whether a test expects the very class `s` raises (`OSError` for a
// `raise OSError`, or one of its old names), not only one of its bases.
bool names_class_itself(const model::TestExpectation& e, const model::ThrowSite& s) {
  std::string_view raised = canonical(last_component(s.error_class));
  return std::any_of(e.classes.begin(), e.classes.end(),
                     [&](const std::string& c) { return canonical(last_component(c)) == raised; });
}




// The names a test may expect of a raise of `error_class` in `file_path`
// to agree with it (class_agrees), each an old name made canonical and
// without its module: the classes of its chain in the index, then its
// built-in base and theirs.
std::vector<std::string> class_names(std::string_view error_class, std::string_view file_path,
                                     const ClassIndex& classes) {
  std::vector<std::string> names;
  auto res = classes.resolve(error_class, file_path);
  for (const auto& c : res.chain) names.emplace_back(canonical(last_component(c)));
  std::string_view b = canonical(res.builtin);
  for (int hops = 0; !b.empty() && hops < 8; ++hops, b = builtin_parent(b)) names.emplace_back(b);
  return names;
}

// Whether a test expecting `expected` agrees with a raise whose class
// has those names (class_names).
bool names_agree(std::string_view expected, const std::vector<std::string>& names) {
  std::string_view want = canonical(last_component(expected));
  if (want.empty()) return false;
  if (want == "Exception" || want == "BaseException") return true;
  return std::find(names.begin(), names.end(), want) != names.end();
}

// class_agrees for each record, its class resolved the first time it is
// asked: the expectations of a repository's tests ask it of the same
// records again and again. Not thread-safe.
class RecordClasses {
 public:
  RecordClasses(const std::vector<model::ThrowSite>& sites, const std::vector<model::ErrorRecord>& records,
                const ClassIndex& classes)
      : m_sites(sites), m_records(records), m_classes(classes), m_names(records.size()) {}

  // Whether a test expecting `expected` is satisfied by record r's raise.
  bool agrees(std::string_view expected, std::size_t r) const {
    const std::string& error_class = m_sites[r].error_class;
    if (error_class.empty()) return false;
    return names_agree(expected, names(r));
  }

  // Whether record r raises an object whose class is not known: an
  // expression (`raise a_s.all_defects[0]`, `raise self._exc`) that names
  // no class of the index nor a built-in one, or an exception held that the
  // scanner gave no class (a raise again with an expression of its own).
  bool unknown(std::size_t r) const {
    const model::ThrowSite& s = m_sites[r];
    if (s.kind != "raise") return false;
    if (s.error_class.empty()) return s.reraise && !s.raised_text.empty();
    if (s.reraise) return false;
    const std::string_view last = last_component(s.error_class);
    const bool expression = s.error_class.find_first_of("[(") != std::string::npos ||
                            std::islower(static_cast<unsigned char>(last.front()));
    if (!expression) return false;
    auto res = m_classes.resolve(s.error_class, m_records[r].file_path);
    return res.defined_at.empty() && res.builtin.empty();
  }

 private:
  const std::vector<std::string>& names(std::size_t r) const {
    if (!m_names[r]) m_names[r] = class_names(m_sites[r].error_class, m_records[r].file_path, m_classes);
    return *m_names[r];
  }

  const std::vector<model::ThrowSite>& m_sites;
  const std::vector<model::ErrorRecord>& m_records;
  const ClassIndex& m_classes;
  mutable std::vector<std::optional<std::vector<std::string>>> m_names;
};


struct Link {
  int level = 0;
  std::size_t order = 0;  // expectations in file order
  const std::string* path = nullptr;
  const model::TestExpectation* e = nullptr;
};

// Each record's links kept as its tests (at most `max_tests`: the tests
// seen raising it first, when `observed` is given, then its links,
// closest first, then in file order, but for an expectation watched that
// never raised it; one entry per test: its first expectation that reaches
// the site), and the trigger they give its prose.
void keep_links(std::vector<std::vector<Link>>& links, std::vector<model::ErrorRecord>& records, std::size_t max_tests,
                const ObservedLinks* observed = nullptr) {
  for (std::size_t r = 0; r < records.size(); ++r) {
    auto& l = links[r];
    if (observed)
      std::erase_if(l, [&](const Link& k) { return observed->contradicts(*k.path, k.e->line, r); });
    const bool seen = observed && r < observed->tests.size() && !observed->tests[r].empty();
    if (l.empty() && !seen) continue;
    std::stable_sort(l.begin(), l.end(), [](const Link& a, const Link& b) {
      if (a.level != b.level) return a.level < b.level;
      return a.order < b.order;
    });
    auto& tests = records[r].evidence.tests;
    if (seen)
      for (const auto& t : observed->tests[r])
        if (tests.size() < max_tests) tests.push_back(t);
    for (const Link& k : l) {
      if (tests.size() >= max_tests) break;
      if (std::any_of(tests.begin(), tests.end(), [&](const model::TestEvidence& t) {
            return t.file_path == *k.path && (t.name == k.e->test || t.line_number == k.e->line);
          }))
        continue;
      tests.push_back({*k.path, k.e->line, k.e->test, k.e->code});
    }
    write_test_trigger(records[r]);
  }
}

// The sites a JavaScript test's calls name (by the last name of their
// function: `parser.parse` → `parse`, `Lexer` → its constructor) that
// agree with it; without one, when its message is specific enough (RE2
// takes the regex and a literal run of k_min_fragment characters), the
// sites of the whole repository that agree: the test reaches it through
// the functions it calls. Without a message, only plain calls of
// functions are read: a method's name (`axios.get`) may be any class's,
// and a call on another's result (`hash(alg).parse(x)`) may throw in
// either.
template <class Agrees>
std::vector<std::size_t> named_sites(const model::TestExpectation& e, const Pattern& pattern,
                                     const std::unordered_map<std::string_view, std::vector<std::size_t>>& by_name,
                                     const Agrees& agrees) {
  std::vector<std::size_t> found;
  if (e.match.empty() && std::any_of(e.calls.begin(), e.calls.end(), [](const std::string& c) {
        return c.find_first_of(".([") != std::string::npos;
      }))
    return found;
  for (const std::string& call : e.calls)
    if (auto it = by_name.find(last_component(call)); it != by_name.end())
      for (std::size_t r : it->second)
        if (agrees(r) && std::find(found.begin(), found.end(), r) == found.end()) found.push_back(r);
  const bool specific = pattern.re && pattern.fragment.size() >= k_min_fragment;
  if (found.empty() && specific)
    for (const auto& [name, rs] : by_name)
      for (std::size_t r : rs)
        if (agrees(r)) found.push_back(r);
  return found;
}

// The sites a JavaScript test reaches through the call graph that agree
// with it: its calls resolved through its file's imports and its typed
// locals (`p = new Parser()`, then `p.parse()`), walked down their callees
// (JsCallGraph::reach). `level`: the nearest one's depth; `complete`:
// whether the walk stayed within its bounds; `unknown`: whether it met a
// throw of unknown class (`throw err`).
template <class Agrees>
std::vector<std::size_t> reached_sites(const model::TestExpectation& e, std::string_view test_path,
                                       const model::FileFacts& test_facts, const JsCallGraph& graph,
                                       const std::unordered_map<int, std::vector<std::size_t>>& by_node,
                                       const std::unordered_map<int, std::vector<std::size_t>>& unknown_by_node,
                                       const Agrees& agrees, int& level, bool& complete, bool& unknown) {
  std::vector<std::size_t> found;
  complete = false;
  unknown = false;
  const std::vector<int> from = graph.resolve_calls(test_path, test_facts, e.calls, e.locals);
  if (from.empty()) return found;
  for (auto [node, depth] : graph.reach(from, &complete)) {
    if (auto it = by_node.find(node); it != by_node.end())
      for (std::size_t r : it->second)
        if (agrees(r) && std::find(found.begin(), found.end(), r) == found.end()) {
          if (found.empty()) level = depth;
          found.push_back(r);
        }
    unknown = unknown || unknown_by_node.contains(node);
  }
  return found;
}

}  // namespace

bool class_agrees(std::string_view expected, std::string_view error_class, std::string_view file_path,
                  const ClassIndex& classes) {
  return !error_class.empty() && names_agree(expected, class_names(error_class, file_path, classes));
}

void link_tests(const std::vector<FileFactsAt>& files, const std::vector<model::ThrowSite>& sites,
                std::vector<model::ErrorRecord>& records, const ClassIndex& classes, const CallGraph& graph,
                std::size_t max_tests, const ObservedLinks* observed) {
  // The records by the function they raise in.
  std::unordered_map<int, std::vector<std::size_t>> by_node;
  for (std::size_t i = 0; i < sites.size() && i < records.size(); ++i)
    if (int n = graph.node_of(records[i].file_path, sites[i]); n >= 0 && !sites[i].error_class.empty())
      by_node[n].push_back(i);
  // The records by the file and `def` line of the function they raise in.
  std::unordered_map<std::string, std::vector<std::size_t>> by_function;
  auto function_key = [](std::string_view path, int line) { return std::string(path) + ':' + std::to_string(line); };
  for (std::size_t i = 0; i < sites.size() && i < records.size(); ++i)
    if (sites[i].function_line > 0) by_function[function_key(records[i].file_path, sites[i].function_line)].push_back(i);
  const std::vector<std::size_t> no_sites;
  auto sites_of = [&](std::string_view path, int line) -> const std::vector<std::size_t>& {
    auto it = by_function.find(function_key(path, line));
    return it == by_function.end() ? no_sites : it->second;
  };
  std::vector<std::vector<Link>> links(records.size());
  const BindingFacts binding_facts(files);
  auto inherited = [&](std::string_view path, const model::FunctionCalls& caller, std::string_view name) {
    detail::Inherited out;
    const int n = graph.inherited_method(path, caller.line, name);
    if (n < 0) return out;
    out.path = graph.file_of(n);
    out.file = binding_facts.module(out.path);
    if (out.file) out.fn = &graph.function(n);
    return out;
  };
  const RecordClasses record_classes(sites, records, classes);
  std::size_t order = 0;
  for (const auto& f : files) {
    // JavaScript's tests are link_javascript_tests'.
    if (!f.path->ends_with(".py")) continue;
    // A test file's expectations often run the same calls: walked once.
    struct Walk {
      std::vector<std::pair<int, int>> reached;
      // The files of the functions the calls name through an import: what
      // the test is about, whatever their names (`decimal.Decimal` is
      // `_pydecimal`'s class through decimal's `*` import).
      std::vector<std::string_view> named_files;
    };
    std::unordered_map<std::string, Walk> reached;
    for (const auto& e : f.facts->expectations) {
      ++order;
      // A helper (`check_x(self, arg)`) runs with what a test passes it:
      // only a test itself says what it raises.
      if (!last_component(e.test).starts_with("test")) continue;
      Pattern pattern;
      if (!e.match.empty()) pattern = compile(e.match);
      auto agrees = [&](std::size_t r) {
        const model::ThrowSite& s = sites[r];
        if ((e.kind == "warns") != (s.kind == "warn")) return false;
        // `raise NotImplementedError` marks an abstract method or a missing
        // platform feature: only a test that expects it by name means it,
        // not one expecting RuntimeError, its base.
        if (last_component(s.error_class) == "NotImplementedError" &&
            std::none_of(e.classes.begin(), e.classes.end(),
                         [](const std::string& c) { return last_component(c) == "NotImplementedError"; }))
          return false;
        if (decorated_by_class(s)) return false;
        if (!std::any_of(e.classes.begin(), e.classes.end(),
                         [&](const std::string& c) { return record_classes.agrees(c, r); }))
          return false;
        return e.match.empty() || pattern_agrees(pattern, records[r]);
      };
      // What the test's calls reach through the call graph (its file's
      // imports resolve them), nearest first: the records of the nearest
      // level that agree.
      std::vector<std::size_t> found;
      int level = 0;
      std::string key;
      for (const auto& c : e.calls) key += c + '\n';
      auto walk = reached.find(key);
      if (walk == reached.end()) {
        Walk w;
        std::vector<int> imported;
        w.reached = graph.reach(graph.resolve_test_calls(*f.path, *f.facts, e.calls, &imported));
        for (int n : imported) w.named_files.push_back(graph.file_of(n));
        walk = reached.emplace(key, std::move(w)).first;
      }
      for (auto [node, depth] : walk->second.reached) {
        if (!found.empty() && depth > level) break;
        auto it = by_node.find(node);
        if (it == by_node.end()) continue;
        for (std::size_t r : it->second)
          if (agrees(r) && std::find(found.begin(), found.end(), r) == found.end()) {
            found.push_back(r);
            level = depth;
          }
      }
      if (found.empty()) continue;
      // The sites of its class below the nearest level, which the checks
      // below each ask: counted once (each count asks `agrees` of them).
      std::vector<std::size_t> others;
      const std::size_t deeper = deeper_sites(walk->second.reached, level, by_node, agrees, others);
      // Without a regex, a test whose nearest site of its class is already
      // inside a callee, below which more sites of the class are reached,
      // says too little of which one its inputs hit.
      if (e.match.empty() && level >= 1 && deeper >= k_max_deeper) continue;
      // A name reached is only a name: the record's module must be what the
      // test is about (its file's or folder's name, or a call's qualifier).
      auto words = subject_words(*f.path, e);
      const auto& named_files = walk->second.named_files;
      std::erase_if(found, [&](std::size_t r) {
        return !has_affinity(records[r].file_path, words) &&
               std::find(named_files.begin(), named_files.end(), records[r].file_path) == named_files.end();
      });
      // Those the test's code names first: a test without a regex that
      // reaches several sites of its class still says which one when its
      // keyword or variable is in one's guard or message.
      const std::size_t agreeing = found.size();
      detail::keep_named(found, e, sites, records);
      // Then those its call's literal arguments lead to.
      const bool picked =
          detail::keep_by_literals(found, e, sites, records, binding_facts, deeper == 0, found.size() == agreeing, level);
      // One statement raises once: two sites that agree, regex or not, are
      // two guesses.
      if (found.size() != 1) continue;
      // Without a regex, a site that is not all the test reaches of its
      // class (it is in a callee, or more sites of the class are below it)
      // is a guess unless the test's code or name names something of it;
      // and nothing does when the test names only a base of the class the
      // site raises (`OSError` for a `FileNotFoundError`): any of the
      // others, or C code's raise of the base, meets it as well. A site
      // the test's literals are decided to reach needs no other witness.
      if (e.match.empty() && (level >= 1 || deeper >= 1) && !picked &&
          (!names_class_itself(e, sites[found[0]]) || !detail::witnessed(e, sites[found[0]], records[found[0]], others, sites, records)))
        continue;
      // Without a regex, a raise of an object of unknown class in the
      // site's function (`raise a_s.all_defects[0]`) may be the one the
      // test meets, unless the test's literals reach the site, and it is
      // below it.
      if (e.match.empty()) {
        const auto& same = sites_of(records[found[0]].file_path, sites[found[0]].function_line);
        if (std::any_of(same.begin(), same.end(), [&](std::size_t o) {
              return o != found[0] && record_classes.unknown(o) && !(picked && sites[o].line > sites[found[0]].line);
            }))
          continue;
      }
      // A bare `raise` in a callee passes on what its `try` block met
      // somewhere below: where the exception began, and whether the test's
      // path goes through that `try` at all, is a guess.
      if (sites[found[0]].reraise && level >= 1) continue;
      // The test's call of the site's own function, or of one that hands
      // its values on to it, read with its values, may say the raise is
      // not reached after all.
      if (detail::call_misses_site(e, sites[found[0]], records[found[0]], binding_facts, level)) continue;
      // A helper the site's function calls first may raise the class as
      // well: which of the two the test meets is a guess; so is a site of
      // a function defined twice.
      if (const model::FunctionCalls* fn = binding_facts.function(records[found[0]].file_path, sites[found[0]]))
        if (const model::FileFacts* file = binding_facts.module(records[found[0]].file_path);
            file && (detail::defined_again(*fn, *file) ||
                     detail::helper_may_raise_first(*fn, *file, e, found[0], sites, records, binding_facts, level,
                                                    {agrees, sites_of, inherited})))
          continue;
      for (std::size_t r : found) links[r].push_back({level, order, f.path, &e});
    }
  }
  keep_links(links, records, max_tests, observed);
}

void link_javascript_tests(const std::vector<FileFactsAt>& files, const std::vector<model::ThrowSite>& sites,
                           std::vector<model::ErrorRecord>& records, const ClassIndex& classes,
                           const JsCallGraph* graph, std::size_t max_tests) {
  auto javascript = [](std::string_view path) { return !path.ends_with(".py"); };
  // The records of JavaScript sites by the name their function is called
  // by (its last component; a constructor by its class's name), and by
  // the graph's node of their function; the records of a throw of unknown
  // class (`throw err`) by node too.
  std::unordered_map<std::string_view, std::vector<std::size_t>> by_name;
  std::unordered_map<int, std::vector<std::size_t>> by_node, unknown_by_node;
  std::vector<std::size_t> classed;  // every JavaScript throw of a known class
  for (std::size_t i = 0; i < sites.size() && i < records.size(); ++i) {
    if (!javascript(records[i].file_path) || sites[i].kind != "raise") continue;
    const int node = graph ? graph->node_of(records[i].file_path, sites[i]) : -1;
    if (sites[i].error_class.empty()) {
      if (node >= 0) unknown_by_node[node].push_back(i);
      continue;
    }
    classed.push_back(i);
    if (node >= 0) by_node[node].push_back(i);
    std::string_view fn = last_component(sites[i].function);
    if (fn == "constructor" && !sites[i].class_name.empty()) fn = sites[i].class_name;
    if (!fn.empty()) by_name[fn].push_back(i);
  }
  auto class_fits = [&](const model::TestExpectation& e, std::size_t r) {
    if (e.classes.empty()) return true;
    return std::any_of(e.classes.begin(), e.classes.end(), [&](const std::string& c) {
      const std::string_view want = last_component(c);
      // Every error a JavaScript site throws is an Error.
      return want == "Error" || want == last_component(sites[r].error_class) ||
             class_agrees(c, sites[r].error_class, records[r].file_path, classes);
    });
  };
  // One statement, or its copies in the package's builds (`src/` and
  // `dist/`: the same function and message, each in another file): more
  // are guesses.
  auto one_statement = [&](const std::vector<std::size_t>& found) {
    const std::size_t first = found.front();
    return std::all_of(found.begin(), found.end(), [&](std::size_t r) {
      return sites[r].function == sites[first].function && records[r].error_message == records[first].error_message &&
             (r == first || records[r].file_path != records[first].file_path);
    });
  };
  // Whether record r is a copy of record k in a build: the same class
  // and message, in another file, in a function called by the same name
  // (a bundler's renaming undone: `CancelToken$1`).
  auto copy_of = [&](std::size_t r, std::size_t k) {
    auto called = [&](std::size_t i) {
      std::string_view fn = last_component(sites[i].function);
      if (fn == "constructor" && !sites[i].class_name.empty()) fn = sites[i].class_name;
      const std::size_t dollar = fn.rfind('$');
      if (dollar != std::string_view::npos && dollar > 0 && dollar + 1 < fn.size() &&
          std::all_of(fn.begin() + dollar + 1, fn.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        fn = fn.substr(0, dollar);
      return fn;
    };
    return records[r].file_path != records[k].file_path && sites[r].error_class == sites[k].error_class &&
           records[r].error_message == records[k].error_message && called(r) == called(k);
  };
  std::vector<std::vector<Link>> links(records.size());
  std::size_t order = 0;
  for (const auto& f : files) {
    if (!javascript(*f.path)) continue;
    for (const auto& e : f.facts->expectations) {
      ++order;
      Pattern pattern;
      if (!e.match.empty()) pattern = compile(e.match);
      auto agrees = [&](std::size_t r) {
        return class_fits(e, r) && (e.match.empty() || pattern_agrees(pattern, records[r]));
      };
      std::vector<std::size_t> found = named_sites(e, pattern, by_name, agrees);
      if (!found.empty() && one_statement(found)) {
        for (std::size_t r : found) links[r].push_back({0, order, f.path, &e});
        continue;
      }
      if (!graph) continue;
      // Through the graph, a message must fit closely; and it must single
      // the site out in the whole repository (its copies in builds aside):
      // the graph misses calls (a method of an object made from a config,
      // a receiver of unknown type), so a site it did not reach that the
      // message fits as well may be the one. Without a message, the walk
      // must have stayed within its bounds and met no throw of unknown
      // class (`throw err`), which may be what the test meets.
      auto closely = [&](std::size_t r) {
        return class_fits(e, r) && (e.match.empty() || pattern_agrees(pattern, records[r], true));
      };
      int level = 0;
      bool complete = false, unknown = false;
      found = reached_sites(e, *f.path, *f.facts, *graph, by_node, unknown_by_node, closely, level, complete, unknown);
      if (found.empty() || !one_statement(found)) continue;
      if (e.match.empty() && (!complete || unknown)) continue;
      if (!e.match.empty() && std::any_of(classed.begin(), classed.end(), [&](std::size_t r) {
            return std::find(found.begin(), found.end(), r) == found.end() && !copy_of(r, found.front()) && closely(r);
          }))
        continue;
      for (std::size_t r : found) links[r].push_back({level, order, f.path, &e});
    }
  }
  keep_links(links, records, max_tests);
}

}  // namespace errdex::analyze
