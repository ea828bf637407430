// The calls of one file: the calls of a name and the first function
// defined with it, a function's parameters and the arguments a call passes
// for them; a message read through them (what callers pass for a
// parameter, a helper's returns).
#include "scan/python/file_scanner.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scan/python/text.h"

namespace errdex::scan::python::detail {

// Callers read for a parameter message, and returns read of a helper, at
// most.
constexpr std::size_t k_max_callers_read = 256;

TSNode FileScanner::enclosing_function(TSNode n) const {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
    if (kind(p) == Kind::FunctionDef) return p;
  return TSNode{};
}

namespace {

// Uses of `word` as a callee (`word(`, `x.word (`), definitions left out.
std::size_t count_calls(std::string_view hay, std::string_view word) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::size_t n = 0;
  for (std::size_t pos = hay.find(word); pos != std::string_view::npos; pos = hay.find(word, pos + 1)) {
    if (pos > 0 && ident(hay[pos - 1])) continue;
    std::size_t after = pos + word.size();
    if (after < hay.size() && ident(hay[after])) continue;
    while (after < hay.size() && (hay[after] == ' ' || hay[after] == '\t')) ++after;
    if (after >= hay.size() || hay[after] != '(') continue;
    n += !(pos >= 4 && hay.substr(pos - 4, 4) == "def ");
  }
  return n;
}

}  // namespace

bool FileScanner::calls_blanked(std::string_view word) {
  if (m_original.empty()) return false;
  depends_on(word);
  auto [it, added] = m_blanked_words.emplace(std::string(word), false);
  if (added) {
    // The outline only takes lines away (and adds `pass`): fewer calls
    // than in the file means some were blanked.
    it->second = count_calls(m_src, word) != count_calls(m_original, word);
    if (it->second) m_facts.blanked.emplace_back(word);
  }
  return it->second;
}

void FileScanner::index_calls() {
  if (m_calls_indexed) return;
  // One walk over the whole tree, once per file, for every call and def.
  m_calls_indexed = true;
  walk(m_root, [&](TSNode node, std::uint32_t, TSTreeCursor*) {
    Kind k = kind(node);
    if (k == Kind::Call) {
      TSNode fn = child(node, m_g.f_function);
      Kind fk = kind(fn);
      std::string_view last = fk == Kind::Identifier ? text(fn) : fk == Kind::Attribute ? text(child(fn, m_g.f_attribute)) : "";
      if (!last.empty()) m_calls[std::string(last)].push_back(node);
    } else if (k == Kind::FunctionDef) {
      m_functions.emplace(std::string(text(child(node, m_g.f_name))), node);  // the first of a name
    }
    return k != Kind::String && k != Kind::Comment;
  });
}

const std::vector<std::string>& FileScanner::aliases_of(std::string_view name) {
  depends_on(name);
  if (!m_aliases_indexed) {
    // `error = _fail` at the top level, read from the file as written: the
    // outline blanks such a line, and its calls are what ask to keep it.
    m_aliases_indexed = true;
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    const std::string_view src = m_original.empty() ? m_src : m_original;
    for (std::size_t at = 0; at < src.size();) {
      std::size_t end = src.find('\n', at);
      if (end == std::string_view::npos) end = src.size();
      std::string_view line = src.substr(at, end - at);
      at = end + 1;
      std::size_t i = 0;
      while (i < line.size() && ident(line[i])) ++i;
      const std::string_view left = line.substr(0, i);
      while (i < line.size() && line[i] == ' ') ++i;
      if (left.empty() || std::isdigit(static_cast<unsigned char>(left[0])) || i + 1 >= line.size() || line[i] != '=' ||
          line[i + 1] == '=')
        continue;
      ++i;
      while (i < line.size() && line[i] == ' ') ++i;
      const std::size_t from = i;
      while (i < line.size() && ident(line[i])) ++i;
      const std::string_view right = line.substr(from, i - from);
      while (i < line.size() && (line[i] == ' ' || line[i] == '\r')) ++i;
      if (!right.empty() && right != left && (i == line.size() || line[i] == '#'))
        m_aliases[std::string(right)].emplace_back(left);
    }
  }
  static const std::vector<std::string> none;
  auto it = m_aliases.find(std::string(name));
  return it == m_aliases.end() ? none : it->second;
}

TSNode FileScanner::function_named(std::string_view name) {
  depends_on(name);
  index_calls();
  auto it = m_functions.find(std::string(name));
  return it == m_functions.end() ? TSNode{} : it->second;
}

const std::vector<TSNode>& FileScanner::calls_named(std::string_view name) {
  depends_on(name);
  index_calls();
  static const std::vector<TSNode> none;
  auto it = m_calls.find(std::string(name));
  return it == m_calls.end() ? none : it->second;
}

bool FileScanner::parameter_position(TSNode fn, std::string_view name, int& position) const {
  int pos = 0;
  bool found = false;
  each_parameter(fn, [&](std::string_view pname, bool keyword_only) {
    if (pname == name) {
      position = keyword_only ? -1 : pos;
      found = true;
      return false;
    }
    if (!keyword_only) ++pos;
    return true;
  });
  return found;
}

std::string_view FileScanner::keywords_parameter(TSNode fn) const {
  TSNode params = child(fn, m_g.f_parameters);
  std::uint32_t count = named_count(params);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode p = ts_node_named_child(params, i);
    if (std::string_view(ts_node_type(p)) == "dictionary_splat_pattern") return text(first_named(p));
  }
  return {};
}

TSNode FileScanner::parameter_default(TSNode fn, std::string_view name) const {
  TSNode params = child(fn, m_g.f_parameters);
  std::uint32_t count = named_count(params);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode p = ts_node_named_child(params, i);
    std::string_view type = ts_node_type(p);
    if ((type == "default_parameter" || type == "typed_default_parameter") && text(child(p, m_g.f_name)) == name)
      return child(p, m_g.f_value);
  }
  return TSNode{};
}

bool FileScanner::passes_splat(TSNode call) const {
  TSNode args = child(call, m_g.f_arguments);
  std::uint32_t count = kind(args) == Kind::ArgumentList ? named_count(args) : 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    Kind k = kind(ts_node_named_child(args, i));
    if (k == Kind::ListSplat || k == Kind::DictSplat) return true;
  }
  return false;
}

TSNode FileScanner::argument_for(TSNode call, int position, std::string_view name) const {
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList) return TSNode{};
  std::uint32_t na = named_count(args);
  int pos = 0;
  bool positional_known = true;
  TSNode found{};
  for (std::uint32_t i = 0; i < na; ++i) {
    TSNode a = ts_node_named_child(args, i);
    Kind ak = kind(a);
    if (ak == Kind::Comment) continue;
    if (ak == Kind::KeywordArg) {
      if (text(child(a, m_g.f_name)) == name) return child(a, m_g.f_value);
      continue;
    }
    if (ak == Kind::ListSplat) positional_known = false;
    if (ak == Kind::ListSplat || ak == Kind::DictSplat) continue;
    if (positional_known && pos == position) found = a;
    ++pos;
  }
  return found;
}

int FileScanner::splat_position(TSNode fn, std::string_view name) const {
  TSNode params = child(fn, m_g.f_parameters);
  const std::uint32_t count = named_count(params);
  int before = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode p = ts_node_named_child(params, i);
    std::string_view type = ts_node_type(p);
    if (type == "list_splat_pattern") return text(first_named(p)) == name ? before : -1;
    if (type == "keyword_separator" || type == "dictionary_splat_pattern") return -1;
    if (type != "positional_separator" && type != "comment") ++before;
  }
  return -1;
}

TSNode FileScanner::only_argument_from(TSNode call, int position) const {
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList || position < 0) return TSNode{};
  const std::uint32_t na = named_count(args);
  int pos = 0;
  TSNode found{};
  for (std::uint32_t i = 0; i < na; ++i) {
    TSNode a = ts_node_named_child(args, i);
    Kind ak = kind(a);
    if (ak == Kind::Comment || ak == Kind::KeywordArg) continue;
    if (ak == Kind::ListSplat || ak == Kind::DictSplat) return TSNode{};
    if (pos > position) return TSNode{};  // several: Python shows their tuple
    if (pos == position) found = a;
    ++pos;
  }
  return found;
}

std::optional<MessageTemplate> FileScanner::parameter_default_text(std::string_view name, std::uint32_t at) {
  const std::size_t fi = innermost_function();
  if (fi == std::string::npos || !ts_node_is_null(m_scope)) return std::nullopt;
  TSNode fn = m_ctx[fi].node;
  if (at < start_byte(fn) || at >= end_byte(fn)) return std::nullopt;
  TSNode def = unwrap_parens(parameter_default(fn, name));
  if (kind(def) != Kind::String && kind(def) != Kind::ConcatString) return std::nullopt;
  MessageTemplate t;
  bool is_f = false;
  if (!literal_parts(def, t.parts, is_f) || is_f || !all_literal(t.parts)) return std::nullopt;
  t.style = "string";
  t.from_literals = true;
  return t;
}

TSNode FileScanner::formatted_name(TSNode message) const {
  message = unwrap_parens(message);
  TSNode name{};
  if (kind(message) == Kind::BinaryOp && text(child(message, m_g.f_operator)) == "%") {
    name = unwrap_parens(child(message, m_g.f_left));
  } else if (kind(message) == Kind::Call) {
    TSNode fn = child(message, m_g.f_function);
    if (kind(fn) == Kind::Attribute && text(child(fn, m_g.f_attribute)) == "format") name = unwrap_parens(child(fn, m_g.f_object));
  }
  return kind(name) == Kind::Identifier ? name : TSNode{};
}

void FileScanner::add_caller_messages(ThrowSite& site, std::string_view param, bool splat, const MessageTemplate* frame,
                                      TSNode formatted, std::uint32_t at) {
  // The enclosing function, and whether it is a method (called as `x.f()`,
  // its first parameter bound).
  const std::size_t fi = innermost_function();
  if (fi == std::string::npos || !ts_node_is_null(m_scope)) return;
  TSNode fn = m_ctx[fi].node;
  int position = -1;
  if (splat ? (position = splat_position(fn, param)) < 0 : !parameter_position(fn, param, position)) return;
  // A module-level function's: callers in other files may fill it too.
  bool module_level = true;
  for (std::size_t j = 0; j < fi; ++j)
    module_level = module_level && m_ctx[j].kind != Kind::ClassDef && m_ctx[j].kind != Kind::FunctionDef;
  if (!splat && module_level && !frame && ts_node_is_null(formatted)) {
    site.message_param = std::string(param);
    site.message_param_position = position;
  }
  std::string fname(text(child(fn, m_g.f_name)));
  // Special methods are called by syntax (`x[k]`, `x.y`), not by name.
  if (fname.empty() || (fname.starts_with("__") && fname.ends_with("__"))) return;
  if (calls_blanked(fname)) return;
  std::size_t ci = fi;
  if (ci > 0 && m_ctx[ci - 1].kind == Kind::DecoratedDef) --ci;
  bool method = ci > 0 && m_ctx[ci - 1].kind == Kind::ClassDef;
  if (method && ci != fi && python::collapse_ws(text(m_ctx[ci].node)).find("@staticmethod") != std::string::npos)
    method = false;
  std::size_t read = 0;
  // Calls of the function, and of a module-level name bound to it (`error
  // = _fail`, then `error("…")`).
  std::vector<TSNode> calls = calls_named(fname);
  if (!method)
    for (const std::string& alias : aliases_of(fname)) {
      if (calls_blanked(alias)) return;  // the file is read again, keeping them
      calls.insert(calls.end(), calls_named(alias).begin(), calls_named(alias).end());
    }
  for (TSNode call : calls) {
    if (read >= k_max_callers_read) break;
    bool via_attribute = kind(child(call, m_g.f_function)) == Kind::Attribute;
    if (method != via_attribute) continue;
    TSNode arg = splat ? only_argument_from(call, position - (method ? 1 : 0))
                       : argument_for(call, position < 0 ? -1 : position - (method ? 1 : 0), param);
    if (ts_node_is_null(arg)) continue;
    ++read;
    if (!ts_node_is_null(formatted)) {
      // A text written in the call, formatted in the site's own scope.
      const TSNode given = unwrap_parens(arg);
      if (kind(given) != Kind::String && kind(given) != Kind::ConcatString) continue;
      m_given_format = {param, given};
      std::optional<MessageTemplate> t = build(formatted, at, 0, true);
      m_given_format = {};
      if (t && any_literal(t->parts)) {
        t->from_literals = true;
        push_alternative(site, std::move(*t));
      }
      continue;
    }
    TSNode caller = enclosing_function(call);
    m_scope = ts_node_is_null(caller) ? m_root : child(caller, m_g.f_body);
    if (!ts_node_is_null(m_scope)) {
      if (auto t = build(arg, start_byte(call), 1, true); t && frame) {
        // The text in place of the parameter in the message around it: a
        // string written in the call (not a name, whose value may be
        // another: an Enum member prints as `State.WRAPPED`).
        const Kind ak = kind(unwrap_parens(arg));
        if ((ak == Kind::String || ak == Kind::ConcatString) && all_literal(t->parts)) {
          MessageTemplate filled = *frame;
          // Shown as it is: not `{msg!r}`, `{msg:>9}` or `%r`.
          for (TemplatePart& p : filled.parts)
            if (!p.literal && p.text == param && (p.display.empty() || p.display == param) &&
                (p.printf_conv == 0 || p.printf_conv == 's'))
              p = TemplatePart{true, joined_literal(t->parts), {}, 0};
          filled.from_literals = true;
          push_alternative(site, std::move(filled));
        }
      } else if (t) {
        t->from_literals = true;
        push_alternative(site, std::move(*t));
      }
    }
    m_scope = TSNode{};
  }
}

void FileScanner::fill_parameters_from_callers(ThrowSite& site, std::uint32_t at) {
  if (!any_literal(site.message.parts) || !ts_node_is_null(m_scope)) return;
  // Raised on what failed while the values were used (`except KeyError`
  // around `self.error_messages[key]`): what callers pass is what works.
  for (const model::Guard& g : site.guards)
    if (g.kind == "except") return;
  const MessageTemplate frame = site.message;
  std::vector<std::string_view> seen;
  for (const TemplatePart& p : frame.parts) {
    const std::string_view name = p.text;
    if (p.literal || name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ||
        !std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }) ||
        std::find(seen.begin(), seen.end(), name) != seen.end())
      continue;
    seen.push_back(name);
    // A value the guards test (`else: raise Exception("invalid whitespace
    // mode %s" % mode)`): the callers' texts are those that pass them.
    if (std::any_of(site.guards.begin(), site.guards.end(), [&](const model::Guard& g) {
          return std::find(g.names.begin(), g.names.end(), name) != g.names.end();
        }))
      continue;
    if (reaching(name, at).empty()) add_caller_messages(site, name, false, &frame);
  }
}

TSNode FileScanner::called_helper(TSNode call, bool& method) {
  TSNode callee = child(call, m_g.f_function);
  const Kind ck = kind(callee);
  method = ck == Kind::Attribute;
  std::string_view name = ck == Kind::Identifier ? text(callee) : method ? text(child(callee, m_g.f_attribute)) : "";
  if (name.empty() || !(std::islower(static_cast<unsigned char>(name[0])) || name[0] == '_')) return TSNode{};
  if (method) {
    auto object = text(child(callee, m_g.f_object));
    if (object != "self" && object != "cls") return TSNode{};
  }
  // Only a function defined in this file is read (`def name(`).
  const std::string def = "def " + std::string(name) + "(";
  depends_on(name);
  if ((m_original.empty() ? m_src : m_original).find(def) == std::string_view::npos) return TSNode{};
  if (m_src.find(def) == std::string_view::npos) {
    if (std::find(m_facts.blanked.begin(), m_facts.blanked.end(), name) == m_facts.blanked.end())
      m_facts.blanked.emplace_back(name);
    return TSNode{};
  }
  return method ? method_named(call, name) : function_named(name);
}

void FileScanner::resolve_helper(ThrowSite& site, TSNode call, std::uint32_t at) {
  bool method = false;
  TSNode fn = called_helper(call, method);
  if (ts_node_is_null(fn) || !ts_node_is_null(m_scope)) return;
  // The helper's returns of a call to a class (capitalised) name, or of a
  // name last assigned one before the return, read once per helper; the
  // first few count.
  TSNode body = child(fn, m_g.f_body);
  auto [cached, added] = m_helper_returns.try_emplace(fn.id);
  std::vector<TSNode>& returns = cached->second;
  if (added) walk(body, [&](TSNode node, std::uint32_t d, TSTreeCursor*) {
    if (returns.size() >= k_max_callers_read) return false;
    Kind k = kind(node);
    bool descend = !(d > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda || k == Kind::DecoratedDef)) &&
                   k != Kind::String && k != Kind::Return;
    if (k == Kind::Return) {
      TSNode value = unwrap_parens(first_named(node));
      if (kind(value) == Kind::Identifier) {  // `exc = OSError(…); exc.filename = f; return exc`
        TSNode made{};
        if (const std::vector<Assign>* list = assignments(body, text(value)))
          for (const Assign& a : *list)
            if (a.how == '=' && a.start < start_byte(node)) made = unwrap_parens(a.rhs);
        value = made;
      }
      if (constructs_class(value)) returns.push_back(value);
    }
    return descend;
  });
  if (returns.empty()) return;

  // A helper's parameter in its message stands for what this call passes.
  auto substitute = [&](MessageTemplate t) {
    return with_arguments(std::move(t), at, true, [&](const TemplatePart& p) {
      int position = -1;
      // A field of `msg.format(**kwargs)`: what the call names.
      if (!parameter_position(fn, p.text, position))
        return keywords_parameter(fn).empty() ? TSNode{} : argument_for(call, -1, p.text);
      return argument_for(call, position < 0 ? -1 : position - (method ? 1 : 0), p.text);
    });
  };
  bool first = true;
  // A table the helper reads by its parameter (marshmallow's
  // `make_error(self, key)` returns `ValidationError(self.error_messages[key])`)
  // is read with this call's key, from the class of the method raising.
  HelperCall saved_call = m_helper_call;
  m_helper_call = {fn, call, method, enclosing_class(ts_node_descendant_for_byte_range(m_root, at, at))};
  for (TSNode value : returns) {
    ThrowSite built;
    TSNode saved = m_scope;
    m_scope = body;
    built.raised_text = site.raised_text;
    read_exception_call(value, built, start_byte(value));
    // packaging's `_invalid_metadata(msg)` returns `InvalidMetadata(
    // self.raw_name, msg)`, whose `__init__(field, message)` hands its base
    // the message: what the class prints, with the helper's parameters
    // filled from this call.
    std::vector<MessageTemplate> shown = class_display_texts(value, start_byte(value));
    m_scope = saved;
    built.message = substitute(std::move(built.message));
    for (MessageTemplate& t : built.alternatives) t = substitute(std::move(t));
    for (MessageTemplate& t : shown) t = substitute(std::move(t));
    if (!shown.empty()) offer_class_displays(built, std::move(shown));
    if (first) {
      site.error_class = std::move(built.error_class);
      site.message = std::move(built.message);
      first = false;
    } else {
      push_alternative(site, std::move(built.message));
    }
    for (MessageTemplate& t : built.alternatives) push_alternative(site, std::move(t));
  }
  m_helper_call = saved_call;
}

TSNode FileScanner::method_named(TSNode from, std::string_view name) {
  depends_on(name);
  TSNode cls = enclosing_class(from);
  for (int hops = 0; hops < 8 && !ts_node_is_null(cls); ++hops, cls = base_in_file(cls)) {
    TSNode body = child(cls, m_g.f_body);
    for (std::uint32_t i = 0, count = named_count(body); i < count; ++i) {
      TSNode def = ts_node_named_child(body, i);
      if (kind(def) == Kind::DecoratedDef) def = child(def, m_g.f_definition);
      if (kind(def) == Kind::FunctionDef && text(child(def, m_g.f_name)) == name) return def;
    }
  }
  return TSNode{};
}

std::optional<MessageTemplate> FileScanner::build_text_helper(TSNode call, std::uint32_t site_byte, int depth) {
  // A helper's text may call another helper; not deeper (a helper can
  // call itself).
  constexpr int k_max_helpers_open = 2;
  constexpr std::size_t k_max_returns = 8;
  // Not from inside another function's body (a helper's own), but from an
  // exception class's `__init__` read for its display: mako's
  // `message + _format_filepos(lineno, pos, filename)`.
  if (m_text_helpers_open >= k_max_helpers_open || (!ts_node_is_null(m_scope) && m_display_class.empty()))
    return std::nullopt;
  if (kind(child(call, m_g.f_arguments)) != Kind::ArgumentList || passes_splat(call)) return std::nullopt;
  bool method = false;
  TSNode fn = called_helper(call, method);
  if (ts_node_is_null(fn)) return std::nullopt;
  // Its returns, not those of functions nested in it; none may be a class
  // made (that helper makes an error, not its text).
  TSNode body = child(fn, m_g.f_body);
  std::vector<TSNode> returns;
  bool text_only = true;
  walk(body, [&](TSNode node, std::uint32_t d, TSTreeCursor*) {
    const Kind k = kind(node);
    if (d > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda || k == Kind::DecoratedDef))
      return false;
    if (k != Kind::Return) return k != Kind::String;
    TSNode value = unwrap_parens(first_named(node));
    // A helper returning a bare word (`return "utf-8"`) normalises a
    // value: its returns are not messages.
    const Kind vk = kind(value);
    if (ts_node_is_null(value) || constructs_class(value) ||
        ((vk == Kind::String || vk == Kind::ConcatString) && text(value).find(' ') == std::string_view::npos))
      text_only = false;
    else
      returns.push_back(value);
    return false;
  });
  if (!text_only || returns.empty() || returns.size() > k_max_returns) return std::nullopt;
  TSNode value = returns[choice_of(returns.size())];
  ++m_text_helpers_open;
  const TSNode caller_scope = m_scope;
  m_scope = body;
  std::optional<MessageTemplate> t;
  int position = -1;
  if (kind(value) == Kind::Identifier && parameter_position(fn, text(value), position)) {
    t.emplace();  // `return standardMsg`: what the call passes
    t->style = "variable";
    t->parts.push_back(interp(std::string(text(value))));
  } else {
    t = build(value, start_byte(value), depth + 1, true);
  }
  m_scope = caller_scope;
  if (t) {
    // The helper's parameters stand for what this call passes.
    t = with_arguments(std::move(*t), site_byte, true, [&](const TemplatePart& p) {
      int position = -1;
      if (!parameter_position(fn, p.text, position)) return TSNode{};
      return argument_for(call, position < 0 ? -1 : position - (method ? 1 : 0), p.text);
    });
  }
  --m_text_helpers_open;
  // What it returns must hold some text of its own or of the caller's
  // (`{first} != {second}` does): `return line` of lines read from a
  // socket, `'\n'.join(lines)`, tell nothing.
  if (t && std::none_of(t->parts.begin(), t->parts.end(), [](const TemplatePart& p) {
        return p.literal && std::any_of(p.text.begin(), p.text.end(), [](unsigned char c) { return !std::isspace(c); });
      }))
    return std::nullopt;
  return t;
}

}  // namespace errdex::scan::python::detail
