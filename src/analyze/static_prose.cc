#include "analyze/static_prose.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <sstream>

#include "analyze/category.h"
#include "analyze/docstring_prose.h"
#include "analyze/lints.h"
#include "analyze/python_check.h"
#include "analyze/situation.h"
#include "scan/facts_json.h"
#include "util/env.h"
#include "util/text.h"

namespace errdex::analyze {
namespace {

using model::ErrorRecord;
using model::Guard;
using model::ThrowSite;

// Callers of a private function named in triggerScenarios.
constexpr std::size_t k_max_callers = 3;
// Callers, public or not, followed from a private function to a documented
// public one, per function and in calls.
constexpr std::size_t k_max_any_callers = 8;
constexpr int k_max_caller_hops = 3;

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool is_identifier(std::string_view s) {
  return !s.empty() && ident_start(s[0]) && std::all_of(s.begin(), s.end(), ident_char);
}

using util::collapse_ws;

// A Python string literal holding `s`.
std::string py_str(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// snake_case instance name for a class: "DynamicCache" → "dynamic_cache".
std::string instance_name(const std::string& cls) {
  if (cls.empty()) return "obj";
  std::string out;
  for (std::size_t i = 0; i < cls.size(); ++i) {
    char c = cls[i];
    if (c >= 'A' && c <= 'Z') {
      bool prev_lower = i > 0 && !(cls[i - 1] >= 'A' && cls[i - 1] <= 'Z') && cls[i - 1] != '_';
      bool next_lower = i + 1 < cls.size() && cls[i + 1] >= 'a' && cls[i + 1] <= 'z';
      bool prev_upper = i > 0 && cls[i - 1] >= 'A' && cls[i - 1] <= 'Z';
      if (prev_lower || (prev_upper && next_lower)) out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else if (ident_char(c)) {
      out += c;
    }
  }
  while (!out.empty() && out.front() == '_') out.erase(out.begin());
  if (out.empty() || !ident_start(out[0])) out = "obj";
  if (is_python_builtin(out) || out == "self") out += "_obj";
  return out;
}

// Replaces the identifier `from` (not `from_x`, not `x.from`) by `to`.
std::string rename_name(const std::string& code, const std::string& from, const std::string& to) {
  std::string out;
  char quote = 0;
  for (std::size_t i = 0; i < code.size();) {
    char c = code[i];
    if (quote) {
      out += c;
      if (c == '\\' && i + 1 < code.size()) out += code[++i];
      else if (c == quote) quote = 0;
      ++i;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (code.compare(i, from.size(), from) == 0 && (i == 0 || (!ident_char(code[i - 1]) && code[i - 1] != '.')) &&
        (i + from.size() == code.size() || !ident_char(code[i + from.size()]))) {
      out += to;
      i += from.size();
    } else {
      out += code[i++];
    }
  }
  return out;
}

bool has_decorator(const ThrowSite& s, std::string_view d) {
  return std::any_of(s.decorators.begin(), s.decorators.end(), [&](const std::string& x) {
    return x == d || (x.size() > d.size() && x.compare(x.size() - d.size() - 1, d.size() + 1, "." + std::string(d)) == 0);
  });
}

bool is_property(const ThrowSite& s) {
  return has_decorator(s, "property") || has_decorator(s, "cached_property") || has_decorator(s, "setter");
}

bool is_dunder(const std::string& fn) {
  return fn.size() > 4 && fn.compare(0, 2, "__") == 0 && fn.compare(fn.size() - 2, 2, "__") == 0;
}

// "Cache.early_initialization()", "the Cache.batch_size property", ...
std::string who(const ThrowSite& s) {
  if (s.function.empty()) return s.class_name.empty() ? "module-level code" : "the body of class " + s.class_name;
  if (s.class_name.empty()) return s.function + "()";
  if (is_property(s)) return "the " + s.class_name + "." + s.function + " property";
  return s.class_name + "." + s.function + "()";
}

// The module a file is imported as, when its name is an identifier.
std::string module_name(const std::string& path) {
  std::string p = path;
  auto slash = p.rfind('/');
  std::string file = slash == std::string::npos ? p : p.substr(slash + 1);
  std::string dir = slash == std::string::npos ? "" : p.substr(0, slash);
  if (file.size() > 3 && file.compare(file.size() - 3, 3, ".py") == 0) file.resize(file.size() - 3);
  if (file == "__init__") {
    auto s2 = dir.rfind('/');
    file = s2 == std::string::npos ? dir : dir.substr(s2 + 1);
  }
  return is_identifier(file) && !is_python_builtin(file) ? file : "";
}

// A statement that reaches the site, with the tested parameters passed by
// name: `cache.early_initialization(..., head_dim=head_dim)`.
std::string example_call(const ThrowSite& s, const std::string& file_path, const std::vector<std::string>& kwargs) {
  std::string args = "...";
  for (const auto& k : kwargs) args += ", " + k + "=" + k;
  if (s.function.empty()) {
    std::string m = module_name(file_path);
    return m.empty() ? "import importlib" : "import " + m;
  }
  const std::string& fn = s.function;
  std::string inst = instance_name(s.class_name);
  if (s.class_name.empty()) return fn + "(" + args + ")";
  if (fn == "__init__" || fn == "__new__") return s.class_name + "(" + args + ")";
  bool on_class = has_decorator(s, "staticmethod") || has_decorator(s, "classmethod");
  std::string recv = on_class ? s.class_name : inst;
  if (is_property(s)) return (has_decorator(s, "setter") ? recv + "." + fn + " = value" : recv + "." + fn);
  if (fn == "__getitem__") return recv + "[...]";
  if (fn == "__call__") return recv + "(" + args + ")";
  if (fn == "__len__") return "len(" + recv + ")";
  if (fn == "__iter__") return "iter(" + recv + ")";
  if (fn == "__next__") return "next(" + recv + ")";
  return recv + "." + fn + "(" + args + ")";
}

std::string first_sentence(const std::string& doc) {
  // Doctest examples are code, not a sentence.
  std::string d = collapse_ws(doc.substr(0, doc.find(">>>")));
  for (std::size_t at = d.find(". "); at != std::string::npos; at = d.find(". ", at + 1)) {
    // "e.g. x" and "i.e. y" do not end a sentence.
    if (at >= 3 && (d.compare(at - 3, 3, "e.g") == 0 || d.compare(at - 3, 3, "i.e") == 0)) continue;
    d = d.substr(0, at + 1);
    break;
  }
  if (d.size() > 240) d = d.substr(0, 237) + "...";
  return d;
}

// `name = rhs` on one line between the function's first line and `before`,
// the last one wins: what a local the guard tests was computed as.
std::string local_assignment(const std::vector<std::string_view>& lines, int from_line, int before,
                             const std::string& name) {
  std::string found;
  int assignments = 0;
  for (int l = std::max(1, from_line); l < before && l <= static_cast<int>(lines.size()); ++l) {
    std::string line(util::trim(lines[l - 1]));
    if (line.compare(0, name.size(), name) != 0) continue;
    std::size_t i = name.size();
    if (i < line.size() && ident_char(line[i])) continue;  // a longer name
    // Rebound or updated (`x += 1`, `x, y = ...`): which value reaches the
    // guard is not a fact of one line.
    if (line.compare(i, 2, " +") == 0 || line.compare(i, 2, " -") == 0 || line.compare(i, 1, ",") == 0 ||
        line.compare(i, 2, " *") == 0 || line.compare(i, 2, " |") == 0)
      ++assignments;
    if (i < line.size() && line[i] == ':') {  // annotated: `name: T = rhs`
      auto eq = line.find(" = ", i);
      if (eq == std::string::npos) continue;
      i = eq;
    }
    while (i < line.size() && line[i] == ' ') ++i;
    if (i + 1 >= line.size() || line[i] != '=' || line[i + 1] == '=') continue;
    std::string rhs(util::trim(std::string_view(line).substr(i + 1)));
    auto hash = rhs.find("  #");
    if (hash != std::string::npos) rhs = std::string(util::trim(std::string_view(rhs).substr(0, hash)));
    ++assignments;
    if (parses_as_expression(rhs)) found = rhs;
  }
  if (assignments != 1 || found.empty()) return {};
  // An initial literal (`x = 0`, `x = []`) is later changed, or it would
  // not be tested; a right side reading the name itself is an update.
  bool literal = std::all_of(found.begin(), found.end(), [](char c) { return !ident_start(c); }) || found == "None" ||
                 found == "True" || found == "False";
  if (literal || rename_name(found, name, "\x01") != found) return {};
  return found;
}

// `super().__init__(..., name=name, ...)` between the two lines: the base
// class's constructor received the argument (and, by convention, stores it).
bool passed_to_super(const std::vector<std::string_view>& lines, int from_line, int before, const std::string& name) {
  bool in_super = false;
  std::string kw = name + "=" + name;
  for (int l = std::max(1, from_line); l < before && l <= static_cast<int>(lines.size()); ++l) {
    std::string_view line = lines[l - 1];
    if (line.find("super().__init__(") != std::string_view::npos) in_super = true;
    if (!in_super) continue;
    for (std::size_t at = line.find(kw); at != std::string_view::npos; at = line.find(kw, at + 1)) {
      bool left = at == 0 || !ident_char(line[at - 1]);
      bool right = at + kw.size() >= line.size() || !ident_char(line[at + kw.size()]);
      if (left && right) return true;
    }
  }
  return false;
}

}  // namespace

// One pass over the lines: each name called (an identifier right before
// `(`, not after another identifier character), with the innermost `def`
// or `class` around the line, in line order. A line's only def that
// matters is the innermost one: a call of a helper made in a class body or
// in a nested private function names no public caller above it.
void FileCallers::index(const std::vector<std::string_view>& lines) {
  m_indexed = true;
  struct Def {
    std::size_t indent;
    std::string_view name;
    bool is_class;
  };
  std::vector<Def> stack;
  for (std::string_view line : lines) {
    std::size_t indent = line.find_first_not_of(" \t");
    if (indent == std::string_view::npos || line[indent] == '#') continue;
    while (!stack.empty() && stack.back().indent >= indent) stack.pop_back();
    std::string_view body = line.substr(indent);
    if (body.compare(0, 4, "def ") == 0 || body.compare(0, 10, "async def ") == 0 || body.compare(0, 6, "class ") == 0) {
      bool cls = body[0] == 'c';
      std::size_t start = body.find(cls ? "class " : "def ") + (cls ? 6 : 4);
      std::size_t end = start;
      while (end < body.size() && ident_char(body[end])) ++end;
      stack.push_back({indent, body.substr(start, end - start), cls});
      continue;
    }
    if (stack.empty()) continue;
    Call call{stack.back().name, {}, stack.back().is_class};
    for (auto it = stack.rbegin() + 1; it != stack.rend(); ++it)
      if (it->is_class) {
        call.cls = it->name;
        break;
      }
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (!ident_start(body[i]) || (i > 0 && ident_char(body[i - 1]))) continue;
      std::size_t e = i;
      while (e < body.size() && ident_char(body[e])) ++e;
      if (e < body.size() && body[e] == '(') m_calls[body.substr(i, e - i)].push_back(call);
      i = e;
    }
  }
}

const std::vector<std::string>& FileCallers::of(const std::vector<std::string_view>& lines, const std::string& fn,
                                                 bool any_caller) {
  auto [answer, added] = m_answers.try_emplace((any_caller ? "*" : "") + fn);
  if (!added) return answer->second;
  if (!m_indexed) index(lines);
  auto calls = m_calls.find(fn);
  if (calls == m_calls.end()) return answer->second;
  std::vector<std::string>& out = answer->second;
  for (const Call& c : calls->second) {
    if (c.in_class || c.function.empty() || (!any_caller && c.function[0] == '_') || c.function == fn) continue;
    std::string name = std::string(c.function) + "()";
    if (!c.cls.empty()) name = std::string(c.cls) + "." + name;
    if (std::find(out.begin(), out.end(), name) == out.end() &&
        out.size() < (any_caller ? k_max_any_callers : k_max_callers))
      out.push_back(name);
  }
  return out;
}

namespace {

// Public functions of the file whose body calls `fn` (a private helper);
// with `any_caller`, private ones too (up to k_max_any_callers); through
// ctx.callers when there is one.
std::vector<std::string> callers_in_file(const ProseContext& ctx, const std::string& fn, bool any_caller = false) {
  if (ctx.callers) return ctx.callers->of(ctx.lines, fn, any_caller);
  FileCallers once;
  return once.of(ctx.lines, fn, any_caller);
}

// The name a deprecation message points to: "use notify_all() instead",
// "Use foo.bar instead" → "notify_all", "bar". "" when it names none.
std::string replacement_named(const ThrowSite& s) {
  if (s.kind != "warn") return {};
  std::string text;
  for (const auto& p : s.message.parts)
    if (p.literal) text += p.text;
  std::string lower = util::to_lower_ascii(text);
  for (std::size_t at = lower.find("use "); at != std::string::npos; at = lower.find("use ", at + 1)) {
    if (at > 0 && ident_char(lower[at - 1])) continue;
    std::size_t i = at + 4, j = i;
    while (j < text.size() && text[j] == '`') ++i, ++j;
    while (j < text.size() && (ident_char(text[j]) || text[j] == '.')) ++j;
    std::string name = text.substr(i, j - i);
    std::string rest = lower.substr(j, 12);
    if (rest.compare(0, 1, "(") != 0) continue;  // "use notify_all()" names a call; "use logging" may not
    auto dot = name.rfind('.');
    if (dot != std::string::npos) name = name.substr(dot + 1);
    if (is_identifier(name) && name != s.function && !is_python_builtin(name) && name != "the" && name != "a" && name != "an")
      return name;
  }
  return {};
}

// The nearest public function of the file (or constructor) with a
// docstring summary whose calls lead to the private function of `s`,
// directly or through private ones, up to k_max_caller_hops calls away.
struct DocumentedCaller {
  std::string call;                  // "Calling `A.g`", "Constructing `A`"
  std::string summary;
  std::vector<std::string> through;  // private functions between, nearest the caller first
  bool class_summary = false;        // the summary is the class's (a constructor without a docstring)
};
std::optional<DocumentedCaller> documented_caller(const ThrowSite& s, const ProseContext& ctx) {
  if (!ctx.docstrings) return std::nullopt;
  auto callers_of = [&](const std::string& fn) { return callers_in_file(ctx, fn, true); };
  std::unordered_map<std::string, std::string> callee;  // bare name → the function it calls on the way
  std::vector<std::string> frontier = {s.function};
  std::set<std::string> seen = {s.function};
  for (int hop = 0; hop < k_max_caller_hops && !frontier.empty(); ++hop) {
    std::vector<std::string> next;
    for (const auto& f : frontier) {
      for (const auto& c : callers_of(f)) {
        std::string qual = c.substr(0, c.size() - 2);  // "A.f()" → "A.f"
        std::string bare = qual.substr(qual.rfind('.') == std::string::npos ? 0 : qual.rfind('.') + 1);
        if (bare.empty() || !seen.insert(bare).second) continue;
        callee[bare] = f;
        if (bare[0] == '_' && !is_dunder(bare)) {
          next.push_back(bare);
          continue;
        }
        const bool init = bare == "__init__" && qual != bare;
        const std::string cls = init ? qual.substr(0, qual.size() - 9) : "";
        const model::Docstring* d = find_docstring(*ctx.docstrings, "function", qual);
        std::string sum = d ? doc_summary(d->text) : "";
        bool class_summary = false;
        if (sum.empty() && init)
          if (const auto* k = find_docstring(*ctx.docstrings, "class", cls)) {
            sum = doc_summary(k->text);
            class_summary = true;
          }
        if (sum.empty()) continue;
        DocumentedCaller out{init ? "Constructing `" + cls + "`" : "Calling `" + qual + "`", sum, {}, class_summary};
        for (std::string at = f; at != s.function; at = callee[at]) out.through.push_back(at);
        return out;
      }
    }
    frontier = std::move(next);
  }
  return std::nullopt;
}

// What the repository's docstrings say, placed: `lead` names the call a
// user makes and what it is for (first in triggerScenarios), `after` what
// the raising function's docstring says of the inputs its check tests or
// of the error (after the code's own sentence), `situation` what callers
// are doing (commonSituations). One docstring sentence goes in one place.
struct DocSentences {
  std::string lead, after, situation;
  bool own_summary_used = false;
};

// `module`: the summary of the module's docstring; `via`: the documented
// caller of a private function (documented_caller).
DocSentences docstring_sentences(const ThrowSite& s, const ErrorRecord& r, const std::string& module,
                                 const std::optional<DocumentedCaller>& via, const std::vector<std::string>& tested) {
  DocSentences out;
  const bool has_fn = !s.function.empty();
  const bool public_fn = has_fn && (s.function[0] != '_' || is_dunder(s.function));
  const bool init = s.function == "__init__" && !s.class_name.empty();
  const std::string fn = s.class_name.empty() ? s.function : s.class_name + "." + s.function;
  const std::string own = doc_summary(s.function_doc);
  const std::string cls = s.class_name.empty() ? "" : doc_summary(s.class_doc);
  bool class_used = false;
  if (!has_fn) {
    // Module-level code: the module's own account of itself is the context.
  } else if (public_fn && !own.empty()) {
    out.lead = (init ? "Constructing `" + s.class_name + "`, whose `__init__` docstring reads: "
                     : "Calling `" + fn + "`, whose docstring reads: ") + own;
    out.own_summary_used = true;
  } else {
    if (via) {
      std::string through;
      for (std::size_t i = 0; i < via->through.size(); ++i) through += (i ? " → `" : "`") + via->through[i] + "`";
      out.lead = via->call + (through.empty() ? ", which calls `" + s.function + "`"
                                              : ", which reaches `" + s.function + "` through " + through) +
                 "; its docstring reads: " + via->summary;
      class_used = via->class_summary && cls == via->summary;
    } else if (!cls.empty() && (init || public_fn)) {
      out.lead = init ? "Constructing `" + s.class_name + "`, whose docstring reads: " + cls
                      : "Calling `" + fn + "` on a `" + s.class_name + "`, whose class docstring reads: " + cls;
      class_used = true;
    }
    if (!own.empty() && !public_fn) {
      out.after = "`" + s.function + "` itself is documented as: " + own;
      out.own_summary_used = true;
    }
  }
  // The docstring on the inputs the check tests, or on the error.
  std::vector<std::string> words = tested;
  std::string raised = r.error_class.substr(r.error_class.rfind('.') == std::string::npos ? 0 : r.error_class.rfind('.') + 1);
  if (is_identifier(raised) && raised != "Exception") words.push_back(raised);
  if (auto said = doc_sentences_naming(s.function_doc, words, 2); !said.empty()) {
    out.after += std::string(out.after.empty() ? "" : " ") + "From the docstring of `" + fn + "`:";
    for (const auto& x : said) out.after += " " + x;
  }
  if (!cls.empty() && !class_used && has_fn)
    out.situation = "Callers are working with a `" + s.class_name + "`, whose docstring reads: " + cls;
  if (out.situation.empty() && !module.empty()) {
    std::string m = module_name(r.file_path);
    std::string name = m.empty() ? r.file_path : m;
    out.situation = has_fn ? "Callers are using the `" + name + "` module, whose docstring reads: " + module
                           : "Importing `" + name + "`, whose module docstring reads: " + module;
  }
  return out;
}

const Guard* except_guard(const ThrowSite& s) {
  for (const auto& g : s.guards)
    if (g.kind == "except") return &g;
  return nullptr;
}

const Guard* match_guard(const ThrowSite& s) {
  for (const auto& g : s.guards)
    if (g.kind == "match") return &g;
  return nullptr;
}

// Words for tags: lower-case, from the class, function and message.
std::vector<std::string> make_tags(const ThrowSite& s, const ErrorRecord& r, const ProseContext& ctx) {
  std::vector<std::string> tags;
  auto add = [&](std::string t) {
    t = util::to_lower_ascii(t);
    if (t.size() < 3 || t.size() > 40) return;
    if (std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
  };
  std::string cls = r.error_class;
  auto dot = cls.rfind('.');
  if (dot != std::string::npos) cls = cls.substr(dot + 1);
  if (is_identifier(cls)) add(cls);
  if (!ctx.resolution.builtin.empty()) add(ctx.resolution.builtin);
  add(r.error_type);
  if (!s.function.empty() && s.function[0] != '_') add(s.function);
  if (!s.class_name.empty()) add(s.class_name);
  static const std::set<std::string> k_stop = {"the", "and", "for", "not", "with", "must", "are", "was", "has",
                                               "have", "this", "that", "from", "but", "can", "cannot", "should",
                                               "will", "when", "got", "expected", "only", "one", "use", "you", "any",
                                               "been", "were", "than", "into", "does", "which", "there"};
  std::string word;
  int added = 0;
  for (const auto& p : s.message.parts) {
    if (!p.literal) continue;
    for (std::size_t i = 0; i <= p.text.size() && added < 3; ++i) {
      char c = i < p.text.size() ? p.text[i] : ' ';
      if (ident_start(c)) {
        word += c;
        continue;
      }
      std::string w = util::to_lower_ascii(word);
      word.clear();
      if (w.size() >= 4 && !k_stop.count(w)) {
        add(w);
        ++added;
      }
    }
  }
  return tags;
}

std::string quote_message(const ErrorRecord& r) {
  std::string m = r.error_message;
  if (m.size() > 200) m = m.substr(0, 197) + "...";
  return "\"" + m + "\"";
}

// The class a caller-side check raises: the built-in the site's class
// resolves to, or one that fits the category.
std::string check_class(const ErrorRecord& r, const ProseContext& ctx) {
  const std::string& b = ctx.resolution.builtin;
  if (!b.empty() && b != "BaseException" && b != "Exception" && b != "AssertionError" && b.find("Warning") == std::string::npos)
    return b;
  return r.error_type == "type" ? "TypeError" : "ValueError";
}

// A code field, kept only when it parses.
std::optional<std::string> checked(std::string code) {
  if (parses_as_python(code)) return code;
  return std::nullopt;
}


// What a site's prose reads of its file beyond the site, answered. With
// the site, its record's class, message, category, severity and path and
// its class resolution, this is everything the prose is written from.
struct FileReads {
  // `self.x = x` (or x passed to `super().__init__`) before the guard: a
  // check of self.x is a check of the argument x.
  std::vector<std::string> stored_params;
  // Those and the parameters the guard tests (from the site).
  std::vector<std::string> tested_params;
  // The locals the guard tests, with what they were computed as.
  std::vector<std::pair<std::string, std::string>> assigned;
  // The public callers in the file of a private function.
  std::vector<std::string> callers;
  // The documented function of the file a private function is reached from.
  std::optional<DocumentedCaller> via;
  // The summary of the module's docstring.
  std::string module;
};

FileReads read_file_for(const ThrowSite& s, const ProseContext& ctx, const Conditions& cond,
                        const std::vector<std::string>& params) {
  FileReads f;
  const bool guarded = cond.count > 0;
  if (guarded && !s.function.empty())
    for (const auto& n : cond.names) {
      if (n.compare(0, 5, "self.") != 0 || n.find('.', 5) != std::string::npos) continue;
      std::string attr = n.substr(5);
      if (std::find(params.begin(), params.end(), attr) == params.end()) continue;
      if (local_assignment(ctx.lines, s.function_line + 1, s.guards.front().line, n) == attr ||
          (s.function == "__init__" && passed_to_super(ctx.lines, s.function_line + 1, s.guards.front().line, attr)))
        f.stored_params.push_back(attr);
    }
  f.tested_params = f.stored_params;
  std::vector<std::string> locals;
  for (const auto& n : cond.names) {
    std::string root = n.substr(0, n.find('.'));
    bool is_param = std::find(params.begin(), params.end(), root) != params.end();
    auto& into = is_param ? f.tested_params : locals;
    if (root == "self" || root == "cls" || is_python_builtin(root)) continue;
    if (std::find(into.begin(), into.end(), root) == into.end()) into.push_back(root);
  }
  if (guarded && !s.function.empty())
    for (const auto& l : locals) {
      std::string rhs = local_assignment(ctx.lines, s.function_line + 1, s.guards.front().line, l);
      if (!rhs.empty()) f.assigned.emplace_back(l, rhs);
    }
  const bool has_fn = !s.function.empty();
  const bool public_fn = has_fn && (s.function[0] != '_' || is_dunder(s.function));
  if (has_fn && s.function[0] == '_' && !is_dunder(s.function)) f.callers = callers_in_file(ctx, s.function);
  if (has_fn && !public_fn) f.via = documented_caller(s, ctx);
  if (ctx.docstrings)
    if (const auto* m = find_docstring(*ctx.docstrings, "module", "")) f.module = doc_summary(m->text);
  return f;
}

// The key of a site's prose in FileProse: the site's facts with its line
// numbers left out (they are read only as places in the file, whose
// answers are in `f`), the record's fields the prose reads, the class
// resolution and `f`, each length-prefixed.
std::string prose_key(const ThrowSite& s, const ErrorRecord& r, const ProseContext& ctx, const FileReads& f) {
  std::string key = scan::site_to_json(s, false);
  auto add = [&](std::string_view x) {
    key += std::to_string(x.size());
    key += ':';
    key += x;
  };
  auto add_all = [&](const std::vector<std::string>& v) {
    key += std::to_string(v.size());
    key += '[';
    for (const auto& x : v) add(x);
  };
  for (const std::string* x : {&r.error_class, &r.error_message, &r.error_type, &r.severity, &r.file_path,
                               &ctx.resolution.builtin, &ctx.resolution.defined_at})
    add(*x);
  add_all(ctx.resolution.chain);
  add_all(f.stored_params);
  add_all(f.tested_params);
  key += std::to_string(f.assigned.size());
  for (const auto& [name, rhs] : f.assigned) add(name), add(rhs);
  add_all(f.callers);
  key += f.via ? (f.via->class_summary ? 'C' : 'V') : '-';
  if (f.via) add(f.via->call), add(f.via->summary), add_all(f.via->through);
  add(f.module);
  return key;
}

// ERRDEX_CHECK_MEMO=1: prose taken from an earlier analysis is written
// again and compared.
bool check_memo() {
  static const bool on = util::env_flag("ERRDEX_CHECK_MEMO");
  return on;
}

void write_prose(const ThrowSite& s, ErrorRecord& r, const ProseContext& ctx, const Conditions& cond,
                 const std::vector<std::string>& params, const FileReads& f);

}  // namespace

bool write_static_prose(const ThrowSite& s, ErrorRecord& r, const ProseContext& ctx) {
  const Conditions cond = site_conditions(s);
  const auto params = parameter_names(s.function_params);
  const FileReads f = read_file_for(s, ctx, cond, params);
  if (!ctx.earlier && !ctx.next) {
    write_prose(s, r, ctx, cond, params, f);
    return false;
  }
  std::string key = prose_key(s, r, ctx, f);
  std::shared_ptr<const StaticProse> held;
  if (ctx.earlier)
    if (auto it = ctx.earlier->by_key.find(key); it != ctx.earlier->by_key.end()) held = it->second;
  if (held && !check_memo()) {
    held->apply_to(r);
  } else {
    write_prose(s, r, ctx, cond, params, f);
    if (held && !(StaticProse::of(r) == *held))
      std::fprintf(stderr, "errdex: prose reused from an earlier analysis differs from the prose written again for %s:%d\n",
                   r.file_path.c_str(), s.line);
  }
  if (ctx.next) ctx.next->by_key.try_emplace(std::move(key), held ? held : std::make_shared<const StaticProse>(StaticProse::of(r)));
  return held != nullptr;
}

namespace {

void write_prose(const ThrowSite& s, ErrorRecord& r, const ProseContext& ctx, const Conditions& cond,
                 const std::vector<std::string>& params, const FileReads& f) {
  const bool guarded = cond.count > 0;
  const Guard* ex = except_guard(s);
  const Guard* match = match_guard(s);
  const std::string caller = who(s);
  const std::string inst = instance_name(s.class_name);
  const bool on_class = has_decorator(s, "classmethod");
  const std::string verb = r.severity == "warning" ? "warns with" : "raises";
  const std::vector<std::string>& stored_params = f.stored_params;
  const std::vector<std::string>& tested_params = f.tested_params;
  const auto& assigned = f.assigned;
  const std::vector<std::string>& callers = f.callers;
  auto to_caller = [&](const std::string& code) {
    std::string c = code;
    for (const auto& p : stored_params) c = rename_name(c, "self." + p, p);
    c = rename_name(c, "self", inst);
    return on_class ? rename_name(c, "cls", s.class_name) : c;
  };
  Conditions by_argument = cond;  // stored arguments read as the arguments
  for (const auto& p : stored_params) {
    by_argument.reach = rename_name(by_argument.reach, "self." + p, p);
    by_argument.ok = rename_name(by_argument.ok, "self." + p, p);
  }
  const std::string call = example_call(s, r.file_path, tested_params);
  const auto misleading = find_misleading(s);
  // A bare re-raise of an unknown class propagates what its except caught.
  const std::string catch_cls = !r.error_class.empty() ? r.error_class
                                : (s.reraise && ex && parses_as_expression(ex->condition)) ? ex->condition
                                                                                          : "Exception";
  const std::string replacement = replacement_named(s);
  const bool custom = !ctx.resolution.defined_at.empty() && ctx.resolution.chain.size() > 1;
  const DocSentences docs = docstring_sentences(s, r, f.module, f.via, tested_params);

  // documentation: who raises it, under which condition, why.
  std::ostringstream doc;
  doc << caller << " " << verb << " " << (r.error_class.empty() ? "the exception it is handling" : r.error_class);
  if (s.reraise) doc << (r.error_class.empty() ? "" : " by re-raising the exception it is handling");
  if (guarded) {
    doc << " when `" << cond.reach << "`";
    if (cond.count == 1)
      if (std::string g = gloss(cond.reach); !g.empty()) doc << " (" << g << ")";
  } else if (match) {
    doc << " in the `case " << match->condition << "` branch of a match statement";
  }
  if (ex && !s.reraise)
    doc << (guarded ? ", " : " ") << "while handling " << ex->condition << " from its try block: it turns that "
        << ex->condition << " into " << catch_cls;
  else if (ex)
    doc << (guarded ? ", " : " ") << "after catching " << ex->condition;
  if (s.kind == "assert") doc << " (an assert statement, skipped under python -O)";
  doc << ".";
  for (const auto& [name, rhs] : assigned) doc << " `" << name << "` is computed as `" << rhs << "`.";
  if (custom) {
    doc << " " << r.error_class << " is defined in this repository (" << ctx.resolution.defined_at << ")";
    std::string via;
    for (std::size_t i = 1; i < ctx.resolution.chain.size(); ++i) via += (i > 1 ? " → " : "") + ctx.resolution.chain[i];
    doc << " and derives from " << via << ".";
  }
  if (r.error_message.empty() && !s.reraise) {
    doc << " It carries no message.";
  } else if (!r.error_message.empty()) {
    doc << " The message reads " << quote_message(r);
    if (s.message.style == "variable") doc << ", built in a variable before the " << (s.kind == "warn" ? "call" : "raise");
    doc << ".";
  }
  if (!s.cause.empty()) {
    if (s.cause == "None") doc << " `from None` hides the exception it replaces.";
    else doc << " It is chained from `" << collapse_ws(s.cause) << "`.";
  }
  if (misleading)
    doc << " Note: the message shows `" << misleading->shown << "`, but the check is on `" << misleading->tested
        << "`; when it fires, `" << misleading->meant << "` is the value at fault.";
  // The docstring's summary, unless triggerScenarios quotes it.
  if (std::string first = first_sentence(s.function_doc); !first.empty() && !docs.own_summary_used)
    doc << " From the docstring of " << caller << ": " << first;
  r.documentation = doc.str();
  if (r.documentation.compare(0, 4, "the ") == 0 || r.documentation.compare(0, 13, "module-level ") == 0)
    r.documentation[0] = static_cast<char>(r.documentation[0] - 'a' + 'A');

  // triggerScenarios: the calls and inputs that reach the raise.
  std::ostringstream trig;
  if (!callers.empty()) {
    trig << "Calling ";
    for (std::size_t i = 0; i < callers.size(); ++i) trig << (i ? (i + 1 == callers.size() ? " or " : ", ") : "") << callers[i];
    trig << " (in this file, the public " << (callers.size() == 1 ? "entry point that calls " : "entry points that call ")
         << s.function << "()), which reaches `" << call << "`";
  } else {
    trig << (is_property(s) ? "Reading `" : s.function.empty() ? "Running `" : "Calling `") << call << "`";
  }
  if (!tested_params.empty()) {
    trig << " with ";
    for (std::size_t i = 0; i < tested_params.size(); ++i) trig << (i ? ", " : "") << "`" << tested_params[i] << "`";
    trig << " such that `" << by_argument.reach << "`";
  } else if (guarded) {
    trig << " while `" << to_caller(cond.reach) << "`";
  }
  if (ex) trig << (guarded || !tested_params.empty() ? " and " : " when ") << "the operation in its try block fails with "
               << ex->condition;
  trig << ".";
  if (misleading)
    trig << " The message then shows `" << misleading->shown << "` although `" << misleading->meant
         << "` is what failed the check.";
  r.trigger_scenarios = (docs.lead.empty() ? "" : docs.lead + " ") + trig.str() + (docs.after.empty() ? "" : " " + docs.after);

  // commonSituations: what callers are doing, from the docstrings of the
  // class or module they use; else by category, naming the entry point.
  std::string entry = s.function.empty() ? "the import of " + r.file_path : "`" + call + "`";
  const std::string shaped = situation_from(by_argument, tested_params, entry);

  if (!docs.situation.empty())
    r.common_situations = docs.situation + (shaped.empty() || ex ? "" : " " + shaped);
  else if (s.function.empty() && r.error_type != "deprecation" && r.error_type != "dependency")
    r.common_situations = "Importing " + r.file_path + " in an environment it does not expect: another platform, "
                          "a missing optional module or feature, or a setting it checks at import time.";
  else if (r.severity == "warning" && r.error_type == "deprecation")
    r.common_situations = "Code written for an older release keeps calling " + entry +
                          " the old way; the warning shows up in test runs and logs until the call is updated.";
  else if (!shaped.empty() && !ex)
    r.common_situations = shaped;
  else if ((r.error_type == "validation" || r.error_type == "type") && tested_params.empty() && guarded)
    r.common_situations = "Using " + entry + " after the object or its inputs reached a state where `" + to_caller(cond.reach) +
                          "`.";
  else
    r.common_situations = category_situation(r.error_type, entry);

  // solutions, most likely first, derived from the guard.
  r.solutions.clear();
  // A module not found is what the user can act on, not the guard inside
  // the import machinery that notices it.
  const bool module_not_found = r.error_class == "ModuleNotFoundError" || r.error_class.ends_with(".ModuleNotFoundError");
  if (module_not_found) r.solutions.push_back("Install or upgrade the module the message names");
  if (misleading)
    r.solutions.push_back("Check `" + misleading->meant + "` rather than the `" + misleading->shown +
                          "` the message prints: the message interpolates the wrong name");
  if (guarded) {
    std::string before = s.function.empty()        ? ""
                         : is_property(s)            ? " before reading " + caller
                         : s.function == "__init__" && !s.class_name.empty() ? " when constructing " + s.class_name
                                                     : " before calling " + caller;
    std::string fix = by_argument.count == 1 ? remedy(by_argument.reach) : "";
    if (!fix.empty()) r.solutions.push_back(fix + before);
    else r.solutions.push_back("Make sure `" + by_argument.ok + "` holds" + before);
  }
  if (!tested_params.empty()) {
    std::string list;
    for (std::size_t i = 0; i < tested_params.size(); ++i) list += (i ? ", `" : "`") + tested_params[i] + "`";
    r.solutions.push_back("Check the value you pass as " + list + " against what " + caller + " accepts" +
                          (s.function_doc.empty() ? "" : " (see its docstring)"));
  }
  if (ex && !s.reraise)
    r.solutions.push_back("Fix the underlying " + ex->condition + " that " + caller + " turns into " + catch_cls +
                          (s.cause == "None" ? "; `from None` hides it from the traceback, but the exception keeps it as __context__"
                                             : "; the chained traceback shows it"));
  if (r.error_type == "dependency" && !module_not_found)
    r.solutions.push_back("Install or upgrade the module the message names");
  if (s.reraise) r.solutions.push_back("Read the chained traceback: the re-raised exception names the real cause");
  if (r.severity == "warning" && r.error_type == "deprecation")
    r.solutions.push_back(replacement.empty() ? "Move to the replacement the warning names"
                          : "Call " + replacement + "()" + (s.function.empty() ? "" : " instead of " + s.function + "()") +
                                ", as the message says");
  if (!guarded && !ex && !s.reraise && r.error_type == "unsupported")
    r.solutions.push_back("Use a class or mode that implements " + caller + ", or override it in your subclass");
  if (r.solutions.empty() || (!guarded && !ex))
    r.solutions.push_back("Read the message and the traceback: " + caller + (r.severity == "warning" ? " warns " : " raises it ") +
                          (guarded ? "only under the condition above" : "whenever this line is reached"));

  // Code fields: each must parse as Python (checked), else stays null.
  std::string reach_code = to_caller(cond.reach), ok_code = to_caller(cond.ok);
  std::string prelude;
  for (const auto& [name, rhs] : assigned) prelude += name + " = " + to_caller(rhs) + "\n";
  r.validation_code = std::nullopt;
  if (guarded && !tested_params.empty()) {
    std::string what;
    for (std::size_t i = 0; i < tested_params.size(); ++i) what += (i ? ", " : "") + tested_params[i];
    r.validation_code = checked(prelude + "if " + reach_code + ":\n    raise " + check_class(r, ctx) + "(" +
                                py_str(what + " would be rejected by " + caller + ": " + reach_code) + ")\n" + call);
  } else if (guarded) {
    r.validation_code = checked(prelude + "if " + ok_code + ":\n    " + call);
  }

  std::optional<std::string> isinstance_type;  // `T` of a `not isinstance(x, T)` guard
  std::string isinstance_arg;
  for (const auto& g : s.guards) {
    if (!is_condition_guard(g)) break;
    std::string c = g.kind == "else" || g.kind == "assert" ? negate_condition(g.condition) : clean_condition(g.condition);
    auto cc = call_condition(c);
    if (cc && cc->negated && cc->fn == "isinstance") {
      auto args = split_args(cc->args);
      if (args.size() == 2) {
        isinstance_type = strip_parens(args[1]);
        isinstance_arg = args[0];
      }
      break;
    }
  }
  bool type_check = guarded && (isinstance_type || cond.reach.find("isinstance(") != std::string::npos ||
                                cond.reach.find("callable(") != std::string::npos || r.error_type == "type");
  r.type_guard = std::nullopt;
  if (type_check && isinstance_type && is_identifier(isinstance_arg)) {
    r.type_guard = checked("if not isinstance(" + isinstance_arg + ", " + *isinstance_type + "):\n    raise TypeError(f" +
                           py_str(isinstance_arg + " must be " + type_phrase(*isinstance_type) + ", got {type(" +
                                  isinstance_arg + ").__name__}") +
                           ")\n" + call);
  } else if (type_check) {
    r.type_guard = checked(prelude + "if " + ok_code + ":\n    " + call);
  }

  if (r.severity == "warning") {
    r.try_catch_pattern = checked("import warnings\n\nwith warnings.catch_warnings():\n    warnings.simplefilter(\"error\", " +
                                  catch_cls + ")\n    try:\n        " + call + "\n    except " + catch_cls +
                                  " as exc:\n        print(f\"" + (s.function.empty() ? "warned" : s.function + " warned") +
                                  ": {exc}\")");
  } else if (r.error_type == "network" || r.error_type == "timeout") {
    r.try_catch_pattern = checked("import time\n\nfor attempt in range(3):\n    try:\n        " + call + "\n        break\n    except " +
                                  catch_cls + ":\n        if attempt == 2:\n            raise\n        time.sleep(2 ** attempt)");
  } else if (r.error_type == "lookup" && !guarded && !ex) {
    r.try_catch_pattern = checked("try:\n    result = " + call + "\nexcept " + catch_cls + ":\n    result = None  # the key or name is absent");
  } else {
    std::string what = s.function.empty() ? "import" : s.function;
    std::string handle = ex ? "    print(f\"" + what + " failed: {exc} (caused by {exc.__cause__ or exc.__context__!r})\")\n    raise"
                            : "    print(f\"" + what + " failed: {exc}\")\n    raise";
    r.try_catch_pattern = checked("try:\n    " + call + "\nexcept " + catch_cls + " as exc:\n" + handle);
  }
  if (!r.try_catch_pattern)  // a class expression `except` cannot take
    r.try_catch_pattern = checked("try:\n    " + call + "\nexcept Exception as exc:\n    print(f\"failed: {exc}\")\n    raise");

  std::ostringstream fix;
  // `not isinstance(x, int)` on a parameter: the fix converts the argument.
  std::string after_call = call;
  static const std::set<std::string> k_convertible = {"int", "str", "float", "list", "tuple", "bytes", "dict"};
  if (isinstance_type && k_convertible.count(*isinstance_type) &&
      std::find(tested_params.begin(), tested_params.end(), isinstance_arg) != tested_params.end()) {
    std::string kw = isinstance_arg + "=" + isinstance_arg;
    std::size_t at = call.find(", " + kw);
    if (at != std::string::npos)
      after_call = call.substr(0, at + 2) + isinstance_arg + "=" + *isinstance_type + "(" + isinstance_arg + ")" +
                   call.substr(at + 2 + kw.size());
  }
  std::string before_note = "  # " + (r.error_class.empty() ? std::string("raises") : r.error_class) +
                            (guarded ? " when " + reach_code : std::string(" here"));
  if (before_note.find('\n') != std::string::npos) before_note = "";
  fix << "# before\n" << prelude << call << before_note << "\n\n# after\n";
  if (after_call == call && !replacement.empty() && !s.function.empty()) {
    // "notifyAll() is deprecated, use notify_all() instead": the fix calls that.
    std::size_t at = call.find(s.function + "(");
    if (at != std::string::npos && (at == 0 || call[at - 1] == '.'))
      after_call = call.substr(0, at) + replacement + call.substr(at + s.function.size());
  }
  if (after_call != call) fix << after_call;
  else if (guarded) fix << prelude << "if " << ok_code << ":\n    " << call;
  else if (ex) fix << "# remove the cause of the " << ex->condition << " first, then\n" << call;
  else fix << call << "  # only with inputs and state " << caller << " accepts";
  r.example_fix = fix.str();
  if (!parses_as_python(r.example_fix)) r.example_fix = "# before\n" + call + "\n\n# after\n" + call + "  # with inputs it accepts";
  if (!parses_as_python(r.example_fix)) r.example_fix = "# before\nimport importlib\n\n# after\nimport importlib";

  if (r.severity == "warning") r.handling_strategy = r.error_type == "deprecation" ? "upgrade" : "validation";
  else if (isinstance_type || r.error_type == "type") r.handling_strategy = "type-guard";
  else if (r.error_type == "network" || r.error_type == "timeout") r.handling_strategy = "retry";
  else if (r.error_type == "dependency") r.handling_strategy = "upgrade";
  else if (r.error_type == "io" || r.error_type == "lookup") r.handling_strategy = guarded ? "validation" : "fallback";
  else if (guarded) r.handling_strategy = "validation";
  else r.handling_strategy = "propagate";

  r.prevention_tips.clear();
  if (misleading)
    r.prevention_tips.push_back("When this error names `" + misleading->shown + "`, verify `" + misleading->meant +
                                "` too: the printed value is not the one the check tests");
  if (guarded)
    r.prevention_tips.push_back("Keep `" + ok_code + "` true " +
                                (s.function.empty() ? "before importing " + r.file_path
                                                    : (is_property(s) ? "in the code that reads " : "in the code that calls ") + caller));
  if (!tested_params.empty() && !s.function_doc.empty())
    r.prevention_tips.push_back("Follow the documented contract of " + caller + " for " + tested_params.front());
  else if (!s.function_doc.empty())
    r.prevention_tips.push_back("Follow the documented contract of " + caller);
  if (r.severity == "warning") r.prevention_tips.push_back("Run tests with -W error::" + (is_identifier(catch_cls) ? catch_cls : std::string("Warning")) + " so new warnings fail early");
  else r.prevention_tips.push_back("Catch " + catch_cls + " only where you can act on it; let it propagate elsewhere");

  r.tags = make_tags(s, r, ctx);
  r.background_tag = std::nullopt;
}

}  // namespace

}  // namespace errdex::analyze
