// A JavaScript or TypeScript test file read as evidence: each expectation
// that a call throws (Jest's and Vitest's `expect(fn).toThrow(…)`, Chai's
// `expect(fn).to.throw(…)`, Node's `assert.throws(fn, …)`, their promise
// forms) with what it expects and what it runs (FileFacts::expectations).
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "scan/javascript/file_scanner.h"
#include "scan/javascript/text.h"
#include "scan/template.h"

namespace errdex::scan::javascript_detail {
namespace {

// Calls kept per expectation, and lines of its code.
constexpr std::size_t k_max_calls = 8;
constexpr int k_max_code_lines = 6;

// A name as written (`errors.ParseError`) that reads as a class.
bool capitalised(std::string_view name) {
  const std::size_t dot = name.rfind('.');
  return javascript::names_class(dot == std::string_view::npos ? name : name.substr(dot + 1));
}

// A text expected as a substring, as a regex.
std::string quote_meta(const std::string& s) {
  model::MessageTemplate t;
  t.parts.push_back({true, s, {}, 0});
  return template_pattern(t);
}

}  // namespace

// The text of a string literal without substitutions (`'x'`, `\`x\``), or
// nullopt.
std::optional<std::string> FileScanner::plain_string(TSNode n) const {
  std::vector<TemplatePart> parts;
  if (!literal_parts(n, parts)) return std::nullopt;
  std::string out;
  for (const TemplatePart& p : parts) {
    if (!p.literal) return std::nullopt;
    out += p.text;
  }
  return out;
}

// What a test expects of the error, from one argument: a class
// (`TypeError`, `errors.ParseError`), a text it holds (a string: Jest and
// Chai read it as a substring of the message), a regex, or an object of
// them (`{ name: 'TypeError', message: /bad/ }`, Node's assert). A string
// is a message only where `strings` (Node's assert reads it as its own
// message).
void FileScanner::read_expected(TSNode a, model::TestExpectation& e, bool strings) const {
  a = unwrap(a);
  const Kind k = kind(a);
  if (k == Kind::Identifier || k == Kind::Member) {
    const std::string name = collapse_ws(text(a));
    if (capitalised(name)) e.classes.push_back(name);
  } else if (k == Kind::Regex) {
    std::string flags;
    for (std::uint32_t i = 0, n = named_count(a); i < n; ++i) {
      TSNode c = ts_node_named_child(a, i);
      if (std::string_view(ts_node_type(c)) == "regex_flags") flags = text(c);
    }
    e.match = std::string(flags.find('i') != std::string::npos ? "(?i)" : "") + std::string(text(child(a, m_g.f_pattern)));
  } else if (k == Kind::String || k == Kind::Template) {
    if (auto s = plain_string(a); s && strings && !s->empty()) e.match = quote_meta(*s);
  } else if (k == Kind::Object) {
    for (std::uint32_t i = 0, n = named_count(a); i < n; ++i) {
      TSNode p = ts_node_named_child(a, i);
      if (kind(p) != Kind::Pair) continue;
      std::string_view key = text(child(p, m_g.f_key));
      if (key.size() >= 2 && (key.front() == '\'' || key.front() == '"')) key = key.substr(1, key.size() - 2);
      TSNode v = unwrap(child(p, m_g.f_value));
      if (key == "message") {
        if (kind(v) == Kind::Regex) {
          read_expected(v, e, true);
        } else if (auto s = plain_string(v); s && !s->empty()) {
          e.match = '^' + quote_meta(*s) + '$';
        }
      } else if (key == "name") {
        if (auto s = plain_string(v); s && capitalised(*s)) e.classes.push_back(*s);
      }
    }
  }
}

// The calls `subject` runs (an arrow's or function's body, a call given
// as a promise, a function named), as written without `this.`
// (`hash(alg).parse` for a call on another's result); a constructor call
// as its class's name.
void FileScanner::read_subject(TSNode subject, model::TestExpectation& e) const {
  subject = unwrap(subject);
  auto add = [&](TSNode call) {
    const bool made = kind(call) == Kind::New;
    std::string callee = collapse_ws(text(child(call, made ? m_g.f_constructor : m_g.f_function)));
    if (callee.starts_with("this.")) callee.erase(0, 5);
    if (callee.empty() || callee == "expect") return;
    if (e.calls.size() < k_max_calls && std::find(e.calls.begin(), e.calls.end(), callee) == e.calls.end())
      e.calls.push_back(std::move(callee));
  };
  const Kind k = kind(subject);
  if (k == Kind::Identifier || k == Kind::Member) {
    e.calls.push_back(collapse_ws(text(subject)));
    return;
  }
  if (!is_function(k) && k != Kind::Call && k != Kind::New) return;
  walk(subject, [&](TSNode x, std::uint32_t depth, TSTreeCursor*) {
    const Kind xk = kind(x);
    if (xk == Kind::Call || xk == Kind::New) add(x);
    // A function defined inside runs when called, not here.
    return depth == 0 || !is_function(xk);
  });
}

// The class of each local the calls are made on (`p.parse`), where the
// one binding that reaches `subject` (assignments_reaching: the last one
// before it in its own function, else the only one of an enclosing
// function or the file) is `new Cls(…)`: {"p", "new Cls"}.
void FileScanner::read_receivers(TSNode subject, model::TestExpectation& e) {
  for (const std::string& c : e.calls) {
    const std::size_t dot = c.find('.');
    if (dot == std::string::npos) continue;
    const std::string_view receiver = std::string_view(c).substr(0, dot);
    if (receiver.empty() || !std::all_of(receiver.begin(), receiver.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$';
        }))
      continue;
    if (std::any_of(e.locals.begin(), e.locals.end(), [&](const auto& l) { return l.first == receiver; })) continue;
    const Assign* last = nullptr;
    assignments_reaching(receiver, start_byte(subject), last);
    if (!last) continue;
    TSNode value = unwrap(last->value);
    if (kind(value) != Kind::New) continue;
    const std::string cls = collapse_ws(text(child(value, m_g.f_constructor)));
    if (!cls.empty() && cls.find_first_of("([") == std::string::npos)
      e.locals.emplace_back(std::string(receiver), "new " + cls);
  }
}

// The test around `n`: the titles of the `describe`/`it`/`test` calls that
// hold it, outermost first, joined as Jest prints them; "" when no `it` or
// `test` holds it (a helper, a hook).
std::string FileScanner::test_title(TSNode n) const {
  std::vector<std::string> titles;
  bool in_test = false;
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (kind(p) != Kind::Call) continue;
    std::string_view callee = text(child(p, m_g.f_function));
    if (const std::size_t dot = callee.find('.'); dot != std::string_view::npos) callee = callee.substr(0, dot);
    const bool test = callee == "it" || callee == "test";
    if (!test && callee != "describe" && callee != "context" && callee != "suite") continue;
    TSNode arg = unwrap(argument(p, 0));
    auto title = plain_string(arg);
    // A title with substitutions (`it(\`reads ${name}\`)`) as written.
    if (!title && kind(arg) == Kind::Template) title = std::string(text(arg).substr(1, text(arg).size() - 2));
    if (!title) continue;
    in_test = in_test || test;
    titles.push_back(collapse_ws(*title));
  }
  if (!in_test) return {};
  std::string out;
  for (auto it = titles.rbegin(); it != titles.rend(); ++it) out += (out.empty() ? "" : " › ") + *it;
  return out;
}

void FileScanner::read_expectation(TSNode call) {
  TSNode callee = child(call, m_g.f_function);
  if (kind(callee) != Kind::Member) return;
  const std::string_view method = text(child(callee, m_g.f_property));
  model::TestExpectation e;
  TSNode subject{};
  const std::string_view head = text(unwrap(child(callee, m_g.f_object)));
  if ((head == "assert" || head == "assert.strict" || head == "t") &&
      (method == "throws" || method == "rejects" || method == "throwsAsync")) {
    // Node's `assert.throws(fn, expected)`, ava's `t.throws(fn, …)`.
    subject = argument(call, 0);
    read_expected(argument(call, 1), e, false);
  } else if (method == "toThrow" || method == "toThrowError" || method == "throw" || method == "rejectedWith") {
    // Down the chain to `expect(subject)`: `.rejects`, `.to`, `.be`,
    // `.eventually` pass; `.not` expects no error.
    TSNode object = unwrap(child(callee, m_g.f_object));
    for (int i = 0; i < 8 && kind(object) == Kind::Member; ++i) {
      if (text(child(object, m_g.f_property)) == "not") return;
      object = unwrap(child(object, m_g.f_object));
    }
    const std::string_view expect = text(child(object, m_g.f_function));
    if (kind(object) != Kind::Call || (expect != "expect" && expect != "chai.expect")) return;
    subject = argument(object, 0);
    // Chai: `.throw(TypeError, 'bad')`; Jest: `.toThrow('bad')`.
    read_expected(argument(call, 0), e, true);
    read_expected(argument(call, 1), e, true);
  } else {
    return;
  }
  e.test = test_title(call);
  if (e.test.empty()) return;
  read_subject(subject, e);
  if (e.calls.empty()) return;
  read_receivers(subject, e);
  e.line = line_of(call);
  // The statement holding it, a few lines at most.
  TSNode stmt = call;
  while (!ts_node_is_null(ts_node_parent(stmt)) && kind(stmt) != Kind::Statement) stmt = ts_node_parent(stmt);
  if (ts_node_is_null(stmt) || kind(stmt) != Kind::Statement) stmt = call;
  std::string_view code = text(stmt);
  std::size_t cut = 0;
  for (int lines = 0; lines < k_max_code_lines && cut != std::string_view::npos; ++lines)
    cut = code.find('\n', cut + (lines > 0));
  e.code = std::string(code.substr(0, cut));
  m_facts.expectations.push_back(std::move(e));
}

FileFacts FileScanner::read_tests() {
  m_facts.had_syntax_errors = ts_node_has_error(m_root);
  walk(m_root, [&](TSNode n, std::uint32_t, TSTreeCursor*) {
    const Kind k = kind(n);
    if (k == Kind::Call) read_expectation(n);
    return k != Kind::String && k != Kind::Comment && k != Kind::Regex && k != Kind::Template;
  });
  return std::move(m_facts);
}

}  // namespace errdex::scan::javascript_detail
