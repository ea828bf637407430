// What a class defined in one file prints where another file raises it
// (link_class_displays in frontend.h).
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "scan/python/file_scanner.h"
#include "scan/python/frontend.h"
#include "scan/python/relative_import.h"
#include "util/text.h"

namespace errdex::scan {

using model::MessageTemplate;
using model::TemplatePart;
using python::detail::drop_none_lines;
using python::detail::filled_with;
using python::detail::shows_as_digits;
using python::detail::offer_class_displays;
using python::detail::push_alternative;

namespace {

// What Python shows for an argument written as a decimal integer, a plain
// string literal (`'...'`, `"..."`, a `u` prefix allowed) or an f-string,
// when its text holds no escape and no quote of its own: its literal text
// and interpolations. None for anything else.
std::optional<std::vector<TemplatePart>> literal_parts(std::string_view arg) {
  std::vector<TemplatePart> parts;
  if (!arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
      (arg.size() == 1 || arg[0] != '0')) {
    append_literal(parts, std::string(arg));
    return parts;
  }
  bool fstring = false;
  if (!arg.empty() && (arg[0] == 'u' || arg[0] == 'U' || arg[0] == 'f' || arg[0] == 'F')) {
    fstring = arg[0] == 'f' || arg[0] == 'F';
    arg.remove_prefix(1);
  }
  if (arg.size() < 2 || (arg[0] != '\'' && arg[0] != '"') || arg.back() != arg[0]) return std::nullopt;
  const char quote = arg[0];
  std::string_view inside = arg.substr(1, arg.size() - 2);
  if (inside.find_first_of(std::string("\\\n") + quote) != std::string_view::npos) return std::nullopt;
  if (!fstring) {
    append_literal(parts, std::string(inside));
    return parts;
  }
  std::string literal;
  for (std::size_t i = 0; i < inside.size();) {
    const char c = inside[i];
    if ((c == '{' || c == '}') && i + 1 < inside.size() && inside[i + 1] == c) {
      literal += c;
      i += 2;
      continue;
    }
    if (c == '}') return std::nullopt;
    if (c != '{') {
      literal += c;
      ++i;
      continue;
    }
    // `{expr}`, `{expr!r}`, `{expr:spec}`: to the brace that closes it.
    int depth = 0;
    std::size_t j = i + 1, cut = std::string_view::npos;
    for (; j < inside.size(); ++j) {
      const char d = inside[j];
      if (d == '(' || d == '[' || d == '{') ++depth;
      else if ((d == ')' || d == ']' || d == '}') && depth > 0) --depth;
      else if (d == '}') break;
      else if (depth == 0 && cut == std::string_view::npos && (d == ':' || (d == '!' && j + 1 < inside.size() && inside[j + 1] != '=')))
        cut = j;
    }
    if (j >= inside.size()) return std::nullopt;
    std::string_view field = inside.substr(i + 1, j - i - 1);
    std::string_view expr = field.substr(0, cut == std::string_view::npos ? field.size() : cut - i - 1);
    while (!expr.empty() && expr.back() == ' ') expr.remove_suffix(1);
    while (!expr.empty() && expr.front() == ' ') expr.remove_prefix(1);
    if (expr.empty()) return std::nullopt;
    if (!literal.empty()) append_literal(parts, std::exchange(literal, std::string()));
    TemplatePart p;
    p.literal = false;
    p.text = std::string(expr);
    if (field.size() != expr.size()) p.display = std::string(field);
    parts.push_back(std::move(p));
    i = j + 1;
  }
  if (!literal.empty()) append_literal(parts, std::move(literal));
  return parts;
}

// What interpolation `p`, shown by its repr (`%r`, `{x!r}`), shows for the
// site's argument `given` (at `given_at` of its arguments) when the site
// writes its text: a literal, or a message it builds (the site's own when
// the argument is its first), in the quotes Python's repr of a str puts
// around it (double ones when the text holds a single quote). A text
// without literal words is shown as it is; none when the repr would
// escape something (a line break, a backslash, both quotes).
std::optional<std::vector<TemplatePart>> repr_of(const TemplatePart& p, std::size_t given_at, bool first_argument,
                                                 std::string_view given, const model::ThrowSite& site) {
  if (p.printf_conv != 'r' && p.display != p.text + "!r") return std::nullopt;
  std::optional<std::vector<TemplatePart>> known;
  if (first_argument && site.message.style != "none" && site.message.style != "expression")
    known = site.message.parts;
  else if (given_at < site.arg_messages.size() && !site.arg_messages[given_at].parts.empty())
    known = site.arg_messages[given_at].parts;
  else if (!given.empty() && (given.front() == '\'' || given.front() == '"' || given.front() == 'f'))
    known = literal_parts(given);
  if (!known || known->empty()) return std::nullopt;
  if (!python::detail::any_literal(*known)) return known;
  std::string literal;
  for (const TemplatePart& k : *known)
    if (k.literal) literal += k.text;
  const bool single = literal.find('\'') != std::string::npos, double_ = literal.find('"') != std::string::npos;
  if ((single && double_) || literal.find_first_of("\n\\\r\t") != std::string::npos) return std::nullopt;
  const std::string_view quote = single ? "\"" : "'";
  std::vector<TemplatePart> out;
  append_literal(out, quote);
  append_parts(out, std::move(*known));
  append_literal(out, quote);
  return out;
}

// `site` raises `cls`, defined in another file: its display filled with the
// site's arguments, as an alternative.
void apply_class_display(model::ThrowSite& site, const model::ClassDef& cls) {
  // A bare `raise` (or `raise err`) shows what was caught, not a display
  // filled with arguments it does not pass.
  if (cls.display.empty() || site.kind != "raise" || site.reraise) return;
  // The arguments as written: positional ones in order, keywords by name.
  std::vector<std::size_t> positional;  // indexes into site.args
  std::vector<std::pair<std::string_view, std::string_view>> keywords;
  std::vector<std::size_t> keyword_at;  // indexes into site.args
  for (std::size_t i = 0; i < site.args.size(); ++i) {
    std::string_view a = site.args[i];
    if (a.starts_with("*")) return;  // which parameters it fills is not known
    std::size_t n = 0;
    while (n < a.size() && (std::isalnum(static_cast<unsigned char>(a[n])) || a[n] == '_')) ++n;
    if (n > 0 && !std::isdigit(static_cast<unsigned char>(a[0])) && n < a.size() && a[n] == '=' &&
        (n + 1 == a.size() || a[n + 1] != '=')) {
      keywords.emplace_back(a.substr(0, n), a.substr(n + 1));
      keyword_at.push_back(i);
      continue;
    }
    if (!keywords.empty()) return;  // not Python
    positional.push_back(i);
  }
  std::vector<MessageTemplate> shown;
  std::vector<std::string> left_none;  // parameters the call leaves to their `None` default
  for (const MessageTemplate& t : cls.display) {
    // A parameter the class gives a default text when left out: passed,
    // it is the only display; left out, it is none.
    const bool as_given = t.style == python::detail::k_as_given && t.parts.size() == 1;
    bool passed = false;
    left_none.clear();
    MessageTemplate out;
    out.style = t.style;
    out.from_literals = true;
    for (const TemplatePart& p : t.parts) {
      if (p.literal) {
        append_literal(out.parts, p.text);
        continue;
      }
      std::size_t k = 0;
      while (k < cls.params.size() && cls.params[k].name != p.text) ++k;
      if (k == cls.params.size()) {
        // Not a parameter: a field the call names, taken by `**kwargs`.
        const bool takes_keywords = std::any_of(cls.params.begin(), cls.params.end(),
                                                [](const model::ClassParam& c) { return c.name.starts_with("**"); });
        auto named = std::find_if(keywords.begin(), keywords.end(), [&](const auto& kw) { return kw.first == p.text; });
        out.parts.push_back(takes_keywords && named != keywords.end() ? filled_with(p, std::string(named->second)) : p);
        continue;
      }
      // The argument for it: by position, by name, else the default.
      std::optional<std::string_view> given;
      std::size_t given_at = 0;
      bool first_argument = false;
      if (!cls.params[k].keyword_only && k < positional.size()) {
        given = site.args[positional[k]];
        given_at = positional[k];
        first_argument = positional[k] == 0;
      }
      for (std::size_t w = 0; w < keywords.size(); ++w)
        if (!given && keywords[w].first == p.text) {
          given = keywords[w].second;
          given_at = keyword_at[w];
        }
      passed = passed || given.has_value();
      if (!given) {
        if (cls.params[k].defaults_to_none) left_none.push_back(p.text);
        if (cls.params[k].default_text.empty()) {
          out.parts.push_back(p);
        } else {
          append_literal(out.parts, cls.params[k].default_text);
        }
        continue;
      }
      // Shown as it is: the site's message when it is the first argument.
      const bool as_is = (p.display.empty() || p.display == p.text) && (p.printf_conv == 0 || p.printf_conv == 's');
      if (as_is && first_argument && site.message.style != "none" && site.message.style != "expression") {
        append_parts(out.parts, std::vector<TemplatePart>(site.message.parts));
        continue;
      }
      // Another argument the raising file built a message of (`.format`, `%`, `+`).
      if (as_is && given_at < site.arg_messages.size() && !site.arg_messages[given_at].parts.empty()) {
        append_parts(out.parts, std::vector<TemplatePart>(site.arg_messages[given_at].parts));
        continue;
      }
      // A literal shows as its text, an f-string as its own template.
      if (auto literal = as_is ? literal_parts(*given) : std::nullopt) {
        append_parts(out.parts, std::move(*literal));
        continue;
      }
      if (shows_as_digits(p, *given)) {
        append_literal(out.parts, std::string(*given));
        continue;
      }
      // Shown by its repr (`"Invalid HTTP Header: %r" % self.hdr`): a text
      // the site writes shows in the quotes Python puts around it.
      if (auto quoted = repr_of(p, given_at, first_argument, *given, site)) {
        append_parts(out.parts, std::move(*quoted));
        continue;
      }
      out.parts.push_back(filled_with(p, std::string(*given)));
    }
    drop_none_lines(out, left_none);
    if (as_given && !passed) continue;
    if (as_given) {
      // What Python prints is that argument, whatever the first one is.
      out.style = "variable";
      site.message = std::move(out);
      site.alternatives.clear();
      return;
    }
    shown.push_back(std::move(out));
  }
  offer_class_displays(site, std::move(shown));
}

// The first name of the module `imp` binds, when it is an absolute import
// (`from pydantic_core import X`: "pydantic_core"); empty for a relative one.
std::string_view absolute_top(const model::ImportFact& imp) {
  if (imp.level > 0) return {};
  std::string_view m = imp.module;
  return m.substr(0, m.find('.'));
}

// Whether file `facts` takes the class it raises as `written` from a
// module that is not one of the repository's (`local`: every folder and
// module name of its Python files).
bool imported_from_outside(const model::FileFacts& facts, std::string_view written,
                           const std::unordered_set<std::string_view>& local) {
  const auto dot = written.find('.');
  const std::string_view bound = written.substr(0, dot);
  for (const model::ImportFact& imp : facts.imports) {
    const std::string_view name = !imp.alias.empty() ? std::string_view(imp.alias)
                                  : !imp.name.empty() ? std::string_view(imp.name)
                                                      : std::string_view(imp.module).substr(0, imp.module.find('.'));
    if (name != bound) continue;
    const std::string_view top = absolute_top(imp);
    return !top.empty() && !local.contains(top);
  }
  return false;
}

// The module file, as a path without `.py` ("gunicorn/http/errors"),
// from which file `facts` at `path` takes the class it raises as `written`:
// `from gunicorn.http.errors import InvalidHeader` (or `from .errors
// import …`, resolved against the file's folder) for `InvalidHeader`,
// `from gunicorn.http import errors` or `import gunicorn.http.errors as
// errors` for `errors.InvalidHeader`. Empty when no import binds it.
std::string imported_module(const model::FileFacts& facts, std::string_view path, std::string_view written) {
  const auto dot = written.rfind('.');
  const std::string_view owner = dot == std::string_view::npos ? std::string_view() : written.substr(0, dot);
  for (const model::ImportFact& imp : facts.imports) {
    std::string module;
    if (owner.empty()) {
      if (imp.name.empty() || (imp.alias.empty() ? imp.name : imp.alias) != written) continue;
      module = imp.module;
    } else if (!imp.name.empty()) {
      if ((imp.alias.empty() ? imp.name : imp.alias) != owner) continue;
      module = imp.module.empty() ? imp.name : imp.module + "." + imp.name;
    } else {
      if (imp.alias.empty() ? imp.module != owner : imp.alias != owner) continue;
      module = imp.module;
    }
    std::replace(module.begin(), module.end(), '.', '/');
    const std::string_view folder = path.substr(0, path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/'));
    return python::resolve_relative_import(folder, imp.level, module, '/');
  }
  return {};
}

// Whether the file at `path` is the module `stem` names (`a/b` for
// `a/b.py` or `a/b/__init__.py`), below any folder the repository keeps
// its packages in (`src/`).
bool is_module_file(std::string_view path, std::string_view stem) {
  if (stem.empty()) return false;
  std::string_view p = path;
  if (p.ends_with("/__init__.py")) {
    p.remove_suffix(12);
  } else if (p.ends_with(".py")) {
    p.remove_suffix(3);
  } else {
    return false;
  }
  return p == stem || (p.size() > stem.size() && p.ends_with(stem) && p[p.size() - stem.size() - 1] == '/');
}

}  // namespace

namespace {

std::string_view last_name(std::string_view dotted) {
  auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

// What a text written as one literal or several side by side, in
// parentheses or not (black's `MSG = (\n    "…"\n)`, `("first "\n "second")`),
// shows: literal_parts of each, joined. None for anything else (a tuple,
// a triple-quoted string).
std::optional<std::vector<TemplatePart>> joined_literal_parts(std::string_view value) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  };
  value = trim(value);
  if (value.size() >= 2 && value.front() == '(' && value.back() == ')') value = trim(value.substr(1, value.size() - 2));
  std::vector<TemplatePart> out;
  while (!value.empty()) {
    std::size_t q = 0;
    while (q < value.size() && q < 1 && std::isalpha(static_cast<unsigned char>(value[q]))) ++q;
    if (q >= value.size() || (value[q] != '\'' && value[q] != '"')) return std::nullopt;
    const std::size_t close = value.find(value[q], q + 1);
    if (close == std::string_view::npos || close == q + 1) {
      // `""` alone is an empty text; `"""` opens a triple-quoted one.
      if (close != q + 1 || (close + 1 < value.size() && value[close + 1] == value[q])) return std::nullopt;
    }
    auto parts = literal_parts(value.substr(0, close + 1));
    if (!parts) return std::nullopt;
    append_parts(out, std::move(*parts));
    value = trim(value.substr(close + 1));
  }
  return out;
}

// The module-level names of a file bound once, at its top level, to a
// string literal (`SERVER_CLOSED = "Connection closed by server."`): name
// -> text.
std::unordered_map<std::string_view, std::vector<TemplatePart>> module_literals(const model::FileFacts& facts) {
  // Each name's last binding, which holds once the module has run when it
  // is a plain statement of the module (cerberus' `DOCUMENT_MISSING =
  // ErrorDefinition(0x01, None)` then `DOCUMENT_MISSING = "document is
  // missing"`); none for a name also bound otherwise (`def`, `global`).
  std::unordered_map<std::string_view, const model::Binding*> last;
  std::unordered_set<std::string_view> other;
  for (const model::Binding& b : facts.module_bindings) {
    if (b.kind != "assign") other.insert(b.name);
    const model::Binding*& l = last[b.name];
    if (!l || b.line >= l->line) l = &b;
  }
  std::unordered_map<std::string_view, std::vector<TemplatePart>> out;
  for (const auto& [name, l] : last) {
    const model::Binding& b = *l;
    if (other.contains(name) || !b.top || b.loop != 0) continue;
    // A text, not a number: an integer constant is a code (twisted's
    // `ConchError(OPEN_UNKNOWN_CHANNEL_TYPE, …)`), not what is printed.
    auto parts = joined_literal_parts(b.value);
    if (parts && !parts->empty() && python::detail::all_literal(*parts)) out.emplace(b.name, std::move(*parts));
  }
  return out;
}

// Whether interpolation `p` prints its value as str() does: `{x}`, `%s`.
bool shows_as_str(const TemplatePart& p) {
  return !p.literal && (p.display.empty() || p.display == p.text) && (p.printf_conv == 0 || p.printf_conv == 's');
}

// Each part of `site`'s templates (its message, alternatives and
// arguments' messages) that `replacement` gives parts for replaced by
// them; a template then of literals alone reads as a string of them.
template <class Replacement>
void replace_parts(model::ThrowSite& site, const Replacement& replacement) {
  auto fill = [&](MessageTemplate& t) {
    if (std::none_of(t.parts.begin(), t.parts.end(), [&](const TemplatePart& p) { return replacement(p).has_value(); }))
      return;
    std::vector<TemplatePart> out;
    for (TemplatePart& p : t.parts) {
      if (auto v = replacement(p)) append_parts(out, std::move(*v));
      else append_parts(out, {std::move(p)});
    }
    t.parts = std::move(out);
    if (python::detail::all_literal(t.parts)) {
      t.from_literals = true;
      if (t.style == "expression" || t.style == "variable") t.style = "string";
    }
  };
  fill(site.message);
  for (MessageTemplate& t : site.alternatives) fill(t);
  for (MessageTemplate& t : site.arg_messages) fill(t);
}

}  // namespace

void link_imported_constants(std::vector<model::FileFacts>& files, const std::vector<bool>& python,
                             const std::vector<const model::FileFacts*>& whole, const std::vector<std::string>& paths) {
  auto is_python = [&](std::size_t i) { return python.empty() || (i < python.size() && python[i]); };
  // A module's file, found once per module name; files.size() when none
  // or several files are that module.
  std::unordered_map<std::string, std::size_t> file_of;
  auto module_file = [&](const std::string& module) {
    auto [it, added] = file_of.emplace(module, files.size());
    if (!added) return it->second;
    for (std::size_t k = 0; k < paths.size() && k < files.size(); ++k) {
      if (!is_python(k) || !is_module_file(paths[k], module)) continue;
      if (it->second != files.size()) return it->second = files.size();
      it->second = k;
    }
    return it->second;
  };
  std::unordered_map<std::size_t, std::unordered_map<std::string_view, std::vector<TemplatePart>>> literals;
  for (std::size_t i = 0; i < files.size() && i < whole.size() && i < paths.size(); ++i) {
    if (!is_python(i) || !whole[i]) continue;
    // `{NAME}` or `{module.NAME}` of an import: the literal the module
    // binds it to, when it binds it once, to a literal.
    auto value_of = [&](std::string_view written) -> const std::vector<TemplatePart>* {
      if (!python::detail::is_dotted_name(written)) return nullptr;
      const std::string module = imported_module(*whole[i], paths[i], written);
      if (module.empty()) return nullptr;
      const std::size_t k = module_file(module);
      if (k >= files.size() || k == i || !whole[k]) return nullptr;
      auto [it, added] = literals.try_emplace(k);
      if (added) it->second = module_literals(*whole[k]);
      auto found = it->second.find(last_name(written));
      return found == it->second.end() ? nullptr : &found->second;
    };
    auto constant = [&](const TemplatePart& p) -> std::optional<std::vector<TemplatePart>> {
      const std::vector<TemplatePart>* v = shows_as_str(p) ? value_of(p.text) : nullptr;
      if (!v) return std::nullopt;
      return *v;
    };
    for (model::ThrowSite& site : files[i].sites) replace_parts(site, constant);
  }
}

void link_class_displays(std::vector<model::FileFacts>& files, const std::vector<bool>& python,
                         const std::vector<const model::FileFacts*>& whole, const std::vector<std::string>& paths) {
  std::unordered_set<std::string_view> local;
  for (const std::string& p : paths) {
    std::string_view rest = p;
    while (!rest.empty()) {
      const auto slash = rest.find('/');
      std::string_view part = rest.substr(0, slash);
      if (slash == std::string_view::npos && part.ends_with(".py")) part.remove_suffix(3);
      local.insert(part);
      if (slash == std::string_view::npos) break;
      rest.remove_prefix(slash + 1);
    }
  }
  struct Defined {
    std::size_t file = 0;
    const model::ClassDef* cls = nullptr;
  };
  auto is_python = [&](std::size_t i) { return python.empty() || (i < python.size() && python[i]); };
  std::unordered_map<std::string_view, std::vector<Defined>> by_name;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!is_python(i)) continue;
    for (const model::ClassDef& c : files[i].classes) by_name[c.name].push_back(Defined{i, &c});
  }
  // The class file `i` means by `written`: the one definition of its name,
  // else (a name several modules define: gunicorn's `InvalidHeader` in
  // `http/errors.py` and in `asgi/parser.py`) the file's own, else the one
  // in the module the file imports it from. Null when none is told apart.
  auto defined_for = [&](std::size_t i, std::string_view written) -> const Defined* {
    std::string_view name = written;
    if (auto dot = name.rfind('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
    auto it = by_name.find(name);
    if (it == by_name.end()) return nullptr;
    const std::vector<Defined>& all = it->second;
    if (all.size() == 1) return &all.front();
    auto own = std::find_if(all.begin(), all.end(), [&](const Defined& d) { return d.file == i; });
    if (own != all.end()) return written.find('.') == std::string_view::npos ? &*own : nullptr;
    if (i >= whole.size() || !whole[i] || i >= paths.size()) return nullptr;
    const std::string module = imported_module(*whole[i], paths[i], written);
    const Defined* found = nullptr;
    for (const Defined& d : all) {
      if (d.file >= paths.size() || !is_module_file(paths[d.file], module)) continue;
      if (found && found->file != d.file) return nullptr;
      if (!found) found = &d;
    }
    return found;
  };
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!is_python(i)) continue;
    for (model::ThrowSite& site : files[i].sites) {
      const Defined* raised = defined_for(i, site.error_class);
      if (!raised) continue;
      if (!local.empty() && i < whole.size() && whole[i] && imported_from_outside(*whole[i], site.error_class, local))
        continue;
      // A class without methods of its own prints as its first base does,
      // a base defined in another file of the repository.
      const model::ClassDef* shown = raised->cls;
      std::size_t defined_in = raised->file;
      for (int hops = 0; hops < 4 && shown->display.empty() && !shown->own_methods && !shown->bases.empty(); ++hops) {
        const Defined* b = defined_for(defined_in, shown->bases.front());
        if (!b || b->cls == shown) break;
        shown = b->cls;
        defined_in = b->file;
      }
      // Raised where it and its display are defined: the file's own scan
      // followed it.
      if (raised->file == i && defined_in == i) continue;
      apply_class_display(site, *shown);
    }
  }
}

namespace {

// Whether `callee`, as file `facts` writes it, names function `fn` of the
// module `stem` through one of its imports: `from .rv import fn` (`fn` or
// its alias called bare), `import pkg.rv as rv` or `from pkg import rv`
// (`rv.fn`).
bool names_through_imports(const model::FileFacts& facts, std::string_view callee, std::string_view fn,
                           std::string_view stem) {
  const auto dot = callee.rfind('.');
  if (dot == std::string_view::npos) {
    for (const auto& imp : facts.imports)
      if (imp.name == fn && (imp.alias.empty() || imp.alias == callee) && last_name(imp.module) == stem &&
          (imp.alias.empty() ? callee == fn : true))
        return true;
    return false;
  }
  std::string_view owner = callee.substr(0, dot);
  for (const auto& imp : facts.imports) {
    const std::string_view bound = !imp.alias.empty() ? std::string_view(imp.alias)
                                   : !imp.name.empty() ? std::string_view(imp.name)
                                                       : std::string_view(imp.module);
    if (bound != owner) continue;
    const std::string_view target = imp.name.empty() ? last_name(imp.module) : std::string_view(imp.name);
    if (target == stem) return true;
  }
  return false;
}

}  // namespace

void link_caller_messages(std::vector<model::FileFacts>& files, const std::vector<bool>& python,
                          const std::vector<const model::FileFacts*>& calls, const std::vector<std::string>& paths) {
  struct Helper {
    std::size_t file = 0;  // the file defining it; files.size() when defined in several
    std::vector<std::size_t> sites;
  };
  std::unordered_map<std::string_view, Helper> by_name;
  auto is_python = [&](std::size_t i) { return python.empty() || (i < python.size() && python[i]); };
  for (std::size_t i = 0; i < files.size() && i < paths.size(); ++i)
    for (std::size_t k = 0; k < files[i].sites.size() && is_python(i); ++k) {
      const model::ThrowSite& s = files[i].sites[k];
      if (s.message_param.empty() || s.function.empty() || !s.class_name.empty()) continue;
      auto [it, added] = by_name.emplace(s.function, Helper{i, {}});
      if (!added && it->second.file != i) it->second.file = files.size();
      it->second.sites.push_back(k);
    }
  if (by_name.empty()) return;
  for (std::size_t j = 0; j < files.size() && j < paths.size() && j < calls.size(); ++j) {
    if (!is_python(j)) continue;
    for (const model::MessageCall& c : calls[j]->message_calls) {
      auto it = by_name.find(last_name(c.callee));
      // Its own file's callers are the file's scan's; a name several files
      // define is nobody's in particular.
      if (it == by_name.end() || it->second.file == j || it->second.file >= files.size()) continue;
      const std::size_t i = it->second.file;
      if (!names_through_imports(*calls[j], c.callee, it->first, util::python_module_stem(paths[i]))) continue;
      auto parts = literal_parts(c.text);
      if (!parts) continue;
      for (std::size_t k : it->second.sites) {
        model::ThrowSite& site = files[i].sites[k];
        const bool fits = c.keyword.empty() ? c.position >= 0 && c.position == site.message_param_position
                                            : c.keyword == site.message_param;
        if (!fits) continue;
        MessageTemplate t;
        t.style = "string";
        t.parts = *parts;
        t.from_literals = true;
        if (!same_parts(t, site.message)) push_alternative(site, std::move(t));
      }
    }
  }
}

void link_module_names(std::vector<model::FileFacts>& files, const std::vector<bool>& python,
                       const std::vector<std::string>& module_names) {
  auto is_python = [&](std::size_t i) { return python.empty() || (i < python.size() && python[i]); };
  for (std::size_t i = 0; i < files.size() && i < module_names.size(); ++i) {
    const std::string& module = module_names[i];
    if (!is_python(i) || module.empty()) continue;
    // What `{__name__}` prints there: the name as str() or repr() shows
    // it (a module's name holds no quote); none for a format spec.
    auto shown = [&](const TemplatePart& p) -> std::optional<std::vector<TemplatePart>> {
      if (p.literal || p.text != "__name__") return std::nullopt;
      const bool as_str = p.printf_conv == 0 || p.printf_conv == 's';
      if (as_str && (p.display.empty() || p.display == p.text || p.display == "__name__!s"))
        return std::vector<TemplatePart>{TemplatePart{.text = module}};
      if ((p.printf_conv == 'r' && (p.display.empty() || p.display == p.text)) ||
          (p.printf_conv == 0 && p.display == "__name__!r"))
        return std::vector<TemplatePart>{TemplatePart{.text = "'" + module + "'"}};
      return std::nullopt;
    };
    for (model::ThrowSite& site : files[i].sites) replace_parts(site, shown);
  }
}

}  // namespace errdex::scan
