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
#include "analyze/static_prose.h"
#include "analyze/test_bindings.h"
#include "util/text.h"


namespace errdex::analyze {
namespace {

// The shortest literal run of a test's regex that may stand for it when the
// regex itself does not match the template (interpolations in the way).
constexpr std::size_t k_min_fragment = 8;
// Sites of an expectation's class below its nearest one (itself in a
// callee) that make a regex-less expectation a guess.
constexpr std::size_t k_max_deeper = 3;
// Calls a test's values are followed down through (chained_bindings).
constexpr int k_max_hops = 3;

using detail::BindingFacts;
using detail::instance_state;
using detail::last_component;
using detail::names_at;

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

// Whether the test's words are a run of some message `template_text`
// gives, each interpolation (`{node!r}`, and the word around it) standing
// for one or more of the test's words: at least one does, and the words
// the template spells out hold k_min_fragment characters. The first and
// last words may be cut (the regex is searched in the message).
bool words_fit(const std::vector<std::string>& test, std::string_view template_text) {
  const std::size_t n = test.size();
  if (n < 2 || template_text.find('{') == std::string_view::npos) return false;
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
  for (std::size_t j = 0; j < m; ++j)
    if (fit(0, j, false) > static_cast<int>(k_min_fragment)) return true;
  return false;
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

bool pattern_agrees(const Pattern& p, const model::ErrorRecord& r) {
  auto one = [&](const std::string& text) {
    if (p.re && RE2::PartialMatch(text, *p.re)) return true;
    return !p.fragment.empty() && (text.find(p.fragment) != std::string::npos || words_fit(p.words, text));
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

// The identifiers of a test's code that may name what it does wrong
// (`ssl_handshake_timeout=-10`): 4 characters or more, not the test's own
// machinery, nor a word followed by a dot: a receiver or a module says
// what is called, not what is wrong (`loop` of `self.loop.
// run_until_complete(f)` is in "Event loop stopped" as much as in any of
// the loop's messages; `errors` of `errors.HeaderParseError` in every
// `except errors.HeaderParseError:` guard).
std::vector<std::string_view> code_words(const model::TestExpectation& e) {
  std::vector<std::string_view> out;
  std::string_view c = e.code;
  for (std::size_t i = 0; i < c.size();) {
    if (!(std::isalnum(static_cast<unsigned char>(c[i])) || c[i] == '_')) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < c.size() && (std::isalnum(static_cast<unsigned char>(c[j])) || c[j] == '_')) ++j;
    std::string_view w = c.substr(i, j - i);
    bool quoted = i > 0 && (c[i - 1] == '\'' || c[i - 1] == '"');
    const bool qualifier = j < c.size() && c[j] == '.';
    if (w.size() >= 4 && !quoted && !qualifier && !std::isdigit(static_cast<unsigned char>(w[0])) && w != "self" && w != "with" &&
        !w.starts_with("assert") && w != "raises" && w != "warns" && w != "pytest" && w != "match" &&
        std::find(out.begin(), out.end(), w) == out.end() &&
        std::none_of(e.classes.begin(), e.classes.end(), [&](const std::string& k) { return last_component(k) == w; }) &&
        std::none_of(e.calls.begin(), e.calls.end(), [&](const std::string& k) { return last_component(k) == w; }))
      out.push_back(w);
    i = j;
  }
  return out;
}

bool has_word(std::string_view text, std::string_view w) {
  for (auto at = text.find(w); at != std::string_view::npos; at = text.find(w, at + 1)) {
    bool l = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    std::size_t end = at + w.size();
    bool r = end >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
    if (l && r) return true;
  }
  return false;
}

// Of several sites a test reaches that all agree, the ones whose guard or
// message names what the test's code names (a keyword argument, a
// variable): `SSLProtocol(..., ssl_handshake_timeout=-10)` raises the
// site guarding `ssl_handshake_timeout`, not its `ssl_shutdown_timeout`
// twin. All of them when none or all name one.
void keep_named(std::vector<std::size_t>& found, const model::TestExpectation& e,
                const std::vector<model::ThrowSite>& sites, const std::vector<model::ErrorRecord>& records) {
  if (found.size() < 2) return;
  auto words = code_words(e);
  std::vector<int> score(found.size(), 0);
  for (std::size_t k = 0; k < found.size(); ++k) {
    const model::ThrowSite& s = sites[found[k]];
    for (std::string_view w : words) {
      bool named = has_word(records[found[k]].error_message, w);
      for (const auto& g : s.guards) named = named || has_word(g.condition, w);
      score[k] += named;
    }
  }
  int best = *std::max_element(score.begin(), score.end());
  if (best == 0 || std::all_of(score.begin(), score.end(), [&](int x) { return x == best; })) return;
  std::vector<std::size_t> kept;
  for (std::size_t k = 0; k < found.size(); ++k)
    if (score[k] == best) kept.push_back(found[k]);
  found = std::move(kept);
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

// The words of a test's name (`test_get_angle_addr_no_angle`,
// `testNonnumericPort`), lower case, of 4 letters or more, without those
// any test's name has.
std::vector<std::string> test_name_words(std::string_view test) {
  static const std::unordered_set<std::string_view> k_common = {
      "test", "tests", "raise", "raises", "raised", "error", "errors", "fail", "fails", "exception", "exceptions",
      // `test_write_to_self`: every guard on an instance reads `self`.
      "self"};
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (cur.size() >= 4 && !k_common.contains(cur)) out.push_back(cur);
    cur.clear();
  };
  for (char c : last_component(test)) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u)) {
      flush();
      continue;
    }
    if (std::isupper(u) && !cur.empty() && std::islower(static_cast<unsigned char>(cur.back()))) flush();
    cur += static_cast<char>(std::tolower(u));
  }
  flush();
  return out;
}

bool has_lowered(std::string_view text, std::string_view lower_word) {
  return util::to_lower_ascii(text).find(lower_word) != std::string::npos;
}

// Whether what a test writes says which site it means: a word of its code
// (`ssl_handshake_timeout=-10`) in the site's message or a guard, or a
// word of its name (`test_negative_timeout`) in them, and in none of
// `others` (the deeper sites of the class it reaches): `copyreg.pickle(t,
// int, "not a callable")` names "callable", which both `pickle`'s and
// `constructor`'s messages hold.
bool witnessed(const model::TestExpectation& e, const model::ThrowSite& s, const model::ErrorRecord& r,
               const std::vector<std::size_t>& others, const std::vector<model::ThrowSite>& sites,
               const std::vector<model::ErrorRecord>& records) {
  auto in_site = [&](const model::ThrowSite& at, const model::ErrorRecord& of, auto&& has) {
    if (has(std::string_view(of.error_message))) return true;
    return std::any_of(at.guards.begin(), at.guards.end(),
                       [&](const model::Guard& g) { return has(std::string_view(g.condition)); });
  };
  // A word the other sites hold too does not say which one the test meets.
  auto singles_out = [&](auto&& has) {
    return in_site(s, r, has) && std::none_of(others.begin(), others.end(), [&](std::size_t o) {
             return &sites[o] != &s && in_site(sites[o], records[o], has);
           });
  };
  for (std::string_view w : code_words(e))
    if (singles_out([&](std::string_view text) { return has_word(text, w); })) return true;
  for (const auto& w : test_name_words(e.test))
    if (singles_out([&](std::string_view text) { return has_lowered(text, w); })) return true;
  return false;
}

// What the test's own locals hold where it calls (TestExpectation::
// locals), those that are literals: `exts = 'foo'` then `f(exts)` binds
// `'foo'`. Null when none is, so an argument is read as a literal alone.
struct TestScope {
  Bindings values;
  explicit TestScope(const model::TestExpectation& e) {
    for (const auto& [name, text] : e.locals)
      if (auto v = literal_value(text)) values.emplace(name, std::move(*v));
  }
  const Bindings* get() const { return values.empty() ? nullptr : &values; }
};

// The argument texts of a test's calls of `callee` (call_argument_lists);
// for a coroutine function (`deferred`: its body runs when awaited) that
// the test's code does not call, those of the calls its locals were bound
// to (`coro = loop.create_connection(P, 'x', 80)`, then
// `loop.run_until_complete(coro)`). A plain function's call in a local's
// binding ran before the expectation and did not raise there.
std::optional<std::vector<std::string>> test_calls_of(const model::TestExpectation& e, std::string_view callee,
                                                      bool deferred) {
  auto calls = call_argument_lists(e.code, callee);
  if (calls || !deferred) return calls;
  std::optional<std::vector<std::string>> out;
  for (const auto& [name, text] : e.locals) {
    auto made = call_argument_lists(text, callee);
    if (!made) continue;
    if (!out) out.emplace();
    out->insert(out->end(), made->begin(), made->end());
  }
  return out;
}

// How a test calls the function `site` raises in, by name: the name it
// writes (a constructor's class for `__init__` and `__new__`: `C(x)` runs
// `C.__new__(C, x)`, then `__init__`), and whether its receiver is bound
// (not passed as an argument). Empty when the name may not be
// what is called: a special method, a decorator other than staticmethod or
// classmethod.
struct CallShape {
  std::string_view callee;
  bool receiver_bound = false;
};
std::optional<CallShape> call_shape(const model::TestExpectation& e, const model::ThrowSite& site) {
  const bool constructor = site.function == "__init__" || site.function == "__new__";
  if (site.function.empty() || (site.function.starts_with("__") && !constructor)) return std::nullopt;
  bool is_static = false;
  for (const auto& d : site.decorators) {
    if (d != "staticmethod" && d != "classmethod") return std::nullopt;
    is_static = is_static || d == "staticmethod";
  }
  CallShape out;
  out.callee = last_component(constructor ? std::string_view(site.class_name) : site.function);
  // A method named through its class (`Decimal.as_integer_ratio`) is
  // handed its instance as the first argument; a classmethod (by its
  // decorator, or `cls` as `get_value = classmethod(get_value)` leaves it)
  // is not.
  out.receiver_bound = !site.class_name.empty() && !is_static;
  if (out.receiver_bound && !constructor && site.function_params.starts_with("self") &&
      std::find(site.decorators.begin(), site.decorators.end(), "classmethod") == site.decorators.end() &&
      has_word(e.code, std::string(last_component(site.class_name)) + "." + site.function))
    out.receiver_bound = false;
  return out;
}

// A function a test's values are followed into: its name, class (empty
// for a module's function) and parameter list.
struct Callee {
  std::string_view function;
  std::string_view class_name;
  std::string_view params;
};

// What the parameters of `target` hold when a test reaches it through
// functions of its file that pass their values on: `f(b'x')` of `def f(s):
// _check(s, 0)`, the test's literals bound to `f`'s parameters, `f`'s names
// at its call of the helper (names_at), the helper's call read on them;
// down up to `hops` calls (`f` → `_g` → `_check`). One list per call of the
// first function in the test's code. Only one caller of `target` leads to
// it so, and its one statement calling it is a statement of its body
// itself (it runs whenever the caller does not stop first); empty when
// there is none such, or the test's code calls the first in no way
// call_argument_lists follows.
std::vector<std::optional<Bindings>> chained_bindings(const model::TestExpectation& e, const Callee& target,
                                                      const model::FileFacts& file, const Bindings& constants,
                                                      int hops) {
  std::vector<std::optional<Bindings>> out;
  // A constructor (`__init__`) is called by its class's name, from any
  // function (`def new(key, digestmod=''): return HMAC(key, digestmod)`).
  const bool constructor = target.function == "__init__" && !target.class_name.empty();
  if (hops < 1 || target.function.empty() || (target.function.starts_with("__") && !constructor)) return out;
  const bool method = !target.class_name.empty();
  const model::FunctionCalls* caller = nullptr;
  const model::StatementCall* passed = nullptr;
  std::vector<std::optional<Bindings>> caller_bounds;
  for (const auto& fn : file.functions) {
    if (fn.nested || fn.name == target.function) continue;
    const model::StatementCall* one = nullptr;
    bool several = false;
    for (const auto& c : fn.statement_calls) {
      // A method through `self.`, a module's function by its name.
      const bool calls_it = constructor ? c.callee == last_component(target.class_name)
                            : method    ? (c.callee.starts_with("self.") || c.callee.starts_with("cls.")) &&
                                           std::string_view(c.callee).substr(c.callee.find('.') + 1) == target.function
                                        : c.callee == target.function;
      if (!calls_it) continue;
      several = several || one;
      one = &c;
    }
    if (!one) continue;
    // Its name in the test's code: a constructor's class for `__init__`.
    std::string_view name = fn.name;
    const auto dot = fn.qualname.rfind('.');
    if (fn.name == "__init__") {
      if (dot == std::string::npos) continue;
      name = last_component(std::string_view(fn.qualname).substr(0, dot));
    } else if (fn.name.starts_with("__")) {
      continue;
    }
    std::vector<std::optional<Bindings>> got;
    const bool bound_first = dot != std::string::npos && (fn.params.starts_with("self") || fn.params.starts_with("cls"));
    if (has_word(e.code, name)) {
      if (auto calls = call_argument_lists(e.code, name)) {
        const TestScope scope(e);
        for (const auto& args : *calls) got.push_back(bind_call(fn.params, args, bound_first, nullptr, scope.get()));
      }
    } else if (hops > 1) {
      const std::string_view cls = dot == std::string::npos ? std::string_view() : std::string_view(fn.qualname).substr(0, dot);
      got = chained_bindings(e, {fn.name, bound_first ? cls : std::string_view(), fn.params}, file, constants, hops - 1);
    }
    if (got.empty()) continue;
    if (caller || several || !one->top || (!fn.bindings.empty() && fn.bindings.back().name == "*")) return {};
    // A method of another class than the helper's calls a `self.` helper
    // of its own.
    if (method && !constructor && !fn.qualname.starts_with(std::string(target.class_name) + ".")) return {};
    caller = &fn;
    passed = one;
    caller_bounds = std::move(got);
  }
  if (!caller) return out;
  for (const auto& bound : caller_bounds) {
    if (!bound) {
      out.emplace_back();
      continue;
    }
    const Bindings there = names_at(passed->line, *caller, *bound, constants);
    out.push_back(bind_call(std::string(target.params), passed->args, method, nullptr, &there));
  }
  return out;
}

// What a test's calls hand the function `site` raises in (of the file
// `path`): one binding of its parameters per call, null for a call it
// cannot read (keep_by_literals says how they are read); `state`, what the
// instance a method is called on holds (instance_state); `known`, the
// module's constants and that state.
struct TestValues {
  std::vector<std::optional<Bindings>> bounds;
  Bindings state;
  Bindings known;
};

TestValues test_values(const model::TestExpectation& e, const model::ThrowSite& site, std::string_view path,
                       const BindingFacts& facts, int level) {
  TestValues out;
  out.known = facts.constants(path);
  auto shape = call_shape(e, site);
  if (!shape) return out;
  const model::FunctionCalls* fn = facts.function(path, site);
  if (auto calls = test_calls_of(e, shape->callee, fn && fn->is_async)) {
    if (shape->receiver_bound) out.state = instance_state(e, site, path, facts, out.known);
    const TestScope scope(e);
    for (const auto& args : *calls)
      out.bounds.push_back(bind_call(site.function_params, args, shape->receiver_bound, nullptr, scope.get()));
  } else if (const model::FileFacts* file = facts.module(path); file && level >= 1) {
    // The test calls a function that hands its values on to this one.
    out.bounds = chained_bindings(e, {site.function, site.class_name, site.function_params}, *file, out.known,
                                  std::min(level, k_max_hops));
  }
  for (const auto& [name, value] : out.state) out.known.insert_or_assign(name, value);
  return out;
}

// Of the sites of one function a test reaches that all agree, the one its
// call's literal arguments lead to: `parse('x' * 300)` meets `if len(s) >
// 255: raise` and none of its siblings' guards. The guards are evaluated
// on the literals bound to the function's parameters, through what the
// function assigns above each site (names_at), and for a method, what the
// test's constructor call and steps set its instance's attributes to
// (instance_state: `Buffer(0).read()` meets `if self.size == 0:`); for a
// site one call below the test's (`level` 1) that the test does not call
// itself, on what the function it calls hands on (chained_bindings). The
// first site whose condition guards all hold is picked when every site
// above it is decided not reached (one below it that holds too never
// runs). A test calling the function several times (`f(1); f(2)`) is
// followed call by call: a call decided to reach none of the sites goes on
// to the next when no site of the class is deeper (`no_deeper`), else
// nothing is picked. Returns whether one was picked (a lone site too,
// decided reached). Otherwise, when `found` holds every site of the
// function that agrees (`whole`) and the test's one call is decided not to
// reach all of them but one, `found` is left that one: a lone site, as if
// the others were not there (`BZ2File(f, 'rx')` fails `if not (1 <=
// compresslevel <= 9)`, and the mode check, whose branches rebind `mode`,
// is what is left); else `found` is left as is.
bool keep_by_literals(std::vector<std::size_t>& found, const model::TestExpectation& e,
                      const std::vector<model::ThrowSite>& sites, const std::vector<model::ErrorRecord>& records,
                      const BindingFacts& facts, bool no_deeper, bool whole, int level) {
  if (found.empty()) return false;
  const model::ThrowSite& first = sites[found[0]];
  for (std::size_t r : found) {
    const model::ThrowSite& s = sites[r];
    if (records[r].file_path != records[found[0]].file_path || s.function != first.function ||
        s.function_line != first.function_line || s.class_name != first.class_name)
      return false;
  }
  const model::FunctionCalls* fn = facts.function(records[found[0]].file_path, first);
  if (!fn || (!fn->bindings.empty() && fn->bindings.back().name == "*")) return false;
  const TestValues values = test_values(e, first, records[found[0]].file_path, facts, level);
  const Bindings& known = values.known;
  const Bindings& state = values.state;
  const auto& bounds = values.bounds;
  if (bounds.empty()) return false;
  for (const auto& bound : bounds) {
    if (!bound || (bound->empty() && state.empty())) return false;
    std::vector<std::pair<int, std::optional<bool>>> verdicts;
    for (std::size_t r : found)
      verdicts.emplace_back(sites[r].line, site_reached(sites[r], names_at(sites[r].line, *fn, *bound, known)));
    std::optional<std::size_t> pick;
    // The first decided reached raises; one below it that holds too never runs.
    for (std::size_t k = 0; k < found.size(); ++k)
      if (verdicts[k].second == true && (!pick || verdicts[k].first < verdicts[*pick].first)) pick = k;
    if (!pick) {
      // None reached by this call: the next one raises, if nothing deeper can.
      if (no_deeper && std::all_of(verdicts.begin(), verdicts.end(), [](const auto& v) { return v.second == false; }))
        continue;
      // The test's one call decided not to reach all sites but one: that
      // one is left, a lone site (not decided reached).
      const auto open = [](const auto& v) { return v.second != false; };
      if (whole && bounds.size() == 1 && std::count_if(verdicts.begin(), verdicts.end(), open) == 1)
        found = {found[static_cast<std::size_t>(std::find_if(verdicts.begin(), verdicts.end(), open) - verdicts.begin())]};
      return false;
    }
    for (std::size_t k = 0; k < found.size(); ++k)
      if (k != *pick && verdicts[k].first < verdicts[*pick].first && verdicts[k].second != false) return false;
    found = {found[*pick]};
    return true;
  }
  return false;
}

// Whether the test's own calls of the function a site raises in say the
// raise does not run: for every one, Python refuses the call
// (`D.from_float(1.1, context=xc)`: the TypeError the test expects is the
// call's), or the literals it passes fail one of the site's guards
// (`hmac.new("key", digestmod='sha256')` against `if not digestmod:`).
// For a site `level` calls below the test's that the test does not call
// itself, what the function it calls hands on (chained_bindings) fails
// one of the site's guards for every call.
bool call_misses_site(const model::TestExpectation& e, const model::ThrowSite& site, const model::ErrorRecord& r,
                      const BindingFacts& facts, int level) {
  auto shape = call_shape(e, site);
  if (!shape) return false;
  const model::FunctionCalls* fn = facts.function(r.file_path, site);
  if (!fn || (!fn->bindings.empty() && fn->bindings.back().name == "*")) return false;
  auto calls = test_calls_of(e, shape->callee, fn->is_async);
  Bindings known = facts.constants(r.file_path);
  if (!calls && level >= 1) {
    const model::FileFacts* file = facts.module(r.file_path);
    if (!file) return false;
    auto bounds = chained_bindings(e, {site.function, site.class_name, site.function_params}, *file, known,
                                   std::min(level, k_max_hops));
    return !bounds.empty() && std::all_of(bounds.begin(), bounds.end(), [&](const std::optional<Bindings>& b) {
      return b && !b->empty() && site_reached(site, names_at(site.line, *fn, *b, known)) == false;
    });
  }
  if (!calls || calls->empty() || level != 0) return false;
  const Bindings state = shape->receiver_bound ? instance_state(e, site, r.file_path, facts, known) : Bindings();
  for (const auto& [name, value] : state) known.insert_or_assign(name, value);
  const TestScope scope(e);
  for (const auto& args : *calls) {
    bool misfit = false;
    auto bound = bind_call(site.function_params, args, shape->receiver_bound, &misfit, scope.get());
    if (misfit) continue;
    if (!bound || (bound->empty() && state.empty()) || site_reached(site, names_at(site.line, *fn, *bound, known)) != false)
      return false;
  }
  return true;
}

// Up to how many calls down a helper called above a site is followed
// (helper_above_raises).
constexpr int k_max_helper_depth = 3;

// The function of `file` a statement of `caller` calls as written: a
// module function by its name, `self.m`/`cls.m` the method of the
// caller's own class; null when it is none of the file's.
const model::FunctionCalls* callee_in_file(const model::FileFacts& file, const model::FunctionCalls& caller,
                                           std::string_view callee) {
  std::string qualname;
  if (callee.starts_with("self.") || callee.starts_with("cls.")) {
    const auto dot = caller.qualname.rfind('.');
    if (dot == std::string::npos) return nullptr;
    qualname = caller.qualname.substr(0, dot + 1);
    callee.remove_prefix(callee.find('.') + 1);
  }
  if (callee.find('.') != std::string_view::npos || callee.empty()) return nullptr;
  qualname += callee;
  for (const auto& fn : file.functions)
    if (!fn.nested && fn.qualname == qualname) return &fn;
  return nullptr;
}

// Whether a function the site's function calls above the site (a
// statement that is one call: `self._check_closed()`, `_validate(x)`),
// or one it calls in turn (up to k_max_helper_depth calls down, in the
// site's file), raises a class the test expects too (`agrees`): the test
// may meet its expectation there before the site's line runs
// (`loop.run_until_complete(f)` on a closed loop raises in
// `_check_closed()`, not at the `raise RuntimeError` below it), so the
// site is a guess, whatever its guards say. With `bound`, what the test's
// call binds the site function's parameters to (`known` the module's
// constants and the instance's state), each helper's parameters are bound
// to what its call hands it, and a raise of the helper whose guards fail
// on them does not count: `a85decode(b"x", adobe=True)` hands
// `_bytes_from_decode_data(b)` bytes, and its `if isinstance(s, str):`
// raise cannot run. `sites_of` gives the records raised in a function of a
// file (by its `def` line). `inherited` gives, for a `self.m()` call the
// caller's own class does not define, the method its bases define (in any
// file) and that file's path and facts (Inherited); its parameters are not
// bound, and any raise of it that agrees counts.
struct Inherited {
  const model::FunctionCalls* fn = nullptr;
  std::string_view path;
  const model::FileFacts* file = nullptr;
};
template <class Agrees, class SitesOf, class InheritedOf>
bool helper_above_raises(const model::FunctionCalls& fn, const model::FileFacts& file, std::string_view path,
                         int site_line, const std::vector<model::ThrowSite>& sites, const Agrees& agrees,
                         const SitesOf& sites_of, const InheritedOf& inherited, const Bindings* bound,
                         const Bindings& known) {
  std::vector<const model::FunctionCalls*> seen{&fn};
  std::function<bool(const model::FunctionCalls&, const model::FileFacts&, std::string_view, const Bindings*, int,
                     int)>
      raises = [&](const model::FunctionCalls& f, const model::FileFacts& in, std::string_view at_path,
                   const Bindings* at, int below, int depth) {
        for (const auto& c : f.statement_calls) {
          if (below > 0 && c.line >= below) break;
          Inherited g{callee_in_file(in, f, c.callee), at_path, &in};
          if (!g.fn && c.callee.starts_with("self.")) g = inherited(at_path, f, std::string_view(c.callee).substr(5));
          if (!g.fn || std::find(seen.begin(), seen.end(), g.fn) != seen.end()) continue;
          seen.push_back(g.fn);
          std::optional<Bindings> passed;
          if (at && g.path == at_path && (g.fn->bindings.empty() || g.fn->bindings.back().name != "*")) {
            const Bindings there = names_at(c.line, f, *at, known);
            const bool receiver = g.fn->qualname.find('.') != std::string::npos &&
                                  (g.fn->params.starts_with("self") || g.fn->params.starts_with("cls"));
            passed = bind_call(g.fn->params, c.args, receiver, nullptr, &there);
          }
          for (std::size_t r : sites_of(g.path, g.fn->line))
            if (agrees(r) && !(passed && !passed->empty() &&
                               site_reached(sites[r], names_at(sites[r].line, *g.fn, *passed, known)) == false))
              return true;
          if (depth + 1 < k_max_helper_depth &&
              raises(*g.fn, *g.file, g.path, passed ? &*passed : nullptr, 0, depth + 1))
            return true;
        }
        return false;
      };
  return raises(fn, file, path, bound, site_line, 0);
}

// Whether the function `fn` of `file` is defined again under its name in
// its scope (`if _mswindows: def _execute_child(...)` and `else: def
// _execute_child(...)`, or a later redefinition): which of the bodies a
// call runs depends on the platform or the order, so a site in either is
// a guess. A property's getter, setter and deleter share a name but are
// no redefinition.
bool defined_again(const model::FunctionCalls& fn, const model::FileFacts& file) {
  if (!fn.property.empty()) return false;
  return std::any_of(file.functions.begin(), file.functions.end(), [&](const model::FunctionCalls& other) {
    return &other != &fn && other.qualname == fn.qualname && other.line != fn.line && other.property.empty();
  });
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
  // no class of the index nor a built-in one.
  bool unknown(std::size_t r) const {
    const model::ThrowSite& s = m_sites[r];
    if (s.reraise || s.kind != "raise" || s.error_class.empty()) return false;
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

// helper_above_raises for the site `r` a test's calls reach: a helper
// raises first when it may for any of the calls (each with its values,
// test_values), or for the test at all when they are not known.
template <class Agrees, class SitesOf, class InheritedOf>
bool helper_may_raise_first(const model::FunctionCalls& fn, const model::FileFacts& file,
                            const model::TestExpectation& e, std::size_t r, const std::vector<model::ThrowSite>& sites,
                            const std::vector<model::ErrorRecord>& records, const BindingFacts& facts, int level,
                            const Agrees& agrees, const SitesOf& sites_of, const InheritedOf& inherited) {
  const std::string& path = records[r].file_path;
  const TestValues values = test_values(e, sites[r], path, facts, level);
  const bool readable = !values.bounds.empty() && (fn.bindings.empty() || fn.bindings.back().name != "*") &&
                        std::all_of(values.bounds.begin(), values.bounds.end(), [&](const std::optional<Bindings>& b) {
                          return b && !(b->empty() && values.state.empty());
                        });
  if (!readable) return helper_above_raises(fn, file, path, sites[r].line, sites, agrees, sites_of, inherited, nullptr, values.known);
  return std::any_of(values.bounds.begin(), values.bounds.end(), [&](const std::optional<Bindings>& b) {
    return helper_above_raises(fn, file, path, sites[r].line, sites, agrees, sites_of, inherited, &*b, values.known);
  });
}

struct Link {
  int level = 0;
  std::size_t order = 0;  // expectations in file order
  const std::string* path = nullptr;
  const model::TestExpectation* e = nullptr;
};

}  // namespace

bool class_agrees(std::string_view expected, std::string_view error_class, std::string_view file_path,
                  const ClassIndex& classes) {
  return !error_class.empty() && names_agree(expected, class_names(error_class, file_path, classes));
}

void link_tests(const std::vector<FileFactsAt>& files, const std::vector<model::ThrowSite>& sites,
                std::vector<model::ErrorRecord>& records, const ClassIndex& classes, const CallGraph& graph,
                std::size_t max_tests) {
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
    Inherited out;
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
      keep_named(found, e, sites, records);
      // Then those its call's literal arguments lead to.
      const bool picked =
          keep_by_literals(found, e, sites, records, binding_facts, deeper == 0, found.size() == agreeing, level);
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
          (!names_class_itself(e, sites[found[0]]) || !witnessed(e, sites[found[0]], records[found[0]], others, sites, records)))
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
      if (call_misses_site(e, sites[found[0]], records[found[0]], binding_facts, level)) continue;
      // A helper the site's function calls first may raise the class as
      // well: which of the two the test meets is a guess; so is a site of
      // a function defined twice.
      if (const model::FunctionCalls* fn = binding_facts.function(records[found[0]].file_path, sites[found[0]]))
        if (const model::FileFacts* file = binding_facts.module(records[found[0]].file_path);
            file && (defined_again(*fn, *file) ||
                     helper_may_raise_first(*fn, *file, e, found[0], sites, records, binding_facts, level, agrees,
                                            sites_of, inherited)))
          continue;
      for (std::size_t r : found) links[r].push_back({level, order, f.path, &e});
    }
  }
  for (std::size_t r = 0; r < records.size(); ++r) {
    auto& l = links[r];
    if (l.empty()) continue;
    std::stable_sort(l.begin(), l.end(), [](const Link& a, const Link& b) {
      if (a.level != b.level) return a.level < b.level;
      return a.order < b.order;
    });
    for (const Link& k : l) {
      if (records[r].evidence.tests.size() >= max_tests) break;
      auto& tests = records[r].evidence.tests;
      // One entry per test: its first expectation that reaches the site.
      if (std::any_of(tests.begin(), tests.end(),
                      [&](const model::TestEvidence& t) { return t.file_path == *k.path && t.name == k.e->test; }))
        continue;
      tests.push_back({*k.path, k.e->line, k.e->test, k.e->code});
    }
    write_test_trigger(records[r]);
  }
}

}  // namespace errdex::analyze
