// The walk that finds a file's throw sites (`raise`, `assert`,
// `warnings.warn(...)`) and the context each is raised in: its guards and
// its enclosing function and class.
#include "scan/python/file_scanner.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "scan/python/text.h"

namespace errdex::scan::python::detail {

bool is_dotted_name(std::string_view t) {
  if (t.empty() || (t[0] >= '0' && t[0] <= '9') || t[0] == '.') return false;
  for (char c : t) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
              static_cast<unsigned char>(c) >= 0x80;
    if (!ok) return false;
  }
  return t.back() != '.';
}

void FileScanner::find_keywords() {
  static constexpr std::string_view k_words[] = {"raise", "warn", "assert", "class"};
  for (auto w : k_words) {
    std::size_t pos = 0;
    while ((pos = m_src.find(w, pos)) != std::string_view::npos) {
      m_keywords.push_back(static_cast<std::uint32_t>(pos));
      pos += w.size();
    }
  }
  std::sort(m_keywords.begin(), m_keywords.end());
}

bool FileScanner::visit(TSNode n, std::uint32_t depth) {
  m_path.resize(depth);
  m_path.push_back(n);
  while (!m_ctx.empty() && m_ctx.back().depth >= depth) m_ctx.pop_back();
  Kind k = kind(n);
  bool descend = true;
  switch (k) {
    case Kind::Raise: emit_raise(n); descend = false; break;
    case Kind::Assert: emit_assert(n); descend = false; break;
    case Kind::Call: descend = !emit_warn(n); break;
    case Kind::ClassDef:
      visit_class(n);
      m_ctx.push_back({k, n, depth});
      break;
    case Kind::FunctionDef: case Kind::DecoratedDef: case Kind::If: case Kind::Elif:
    case Kind::Else: case Kind::While: case Kind::Except: case Kind::Case:
      m_ctx.push_back({k, n, depth});
      break;
    case Kind::String: case Kind::Comment: descend = false; break;
    default: break;
  }
  // Subtrees without any keyword byte are skipped whole.
  return descend && subtree_has_keyword(n);
}

FileFacts FileScanner::run() {
  m_facts.had_syntax_errors = ts_node_has_error(m_root);
  find_keywords();
  if (m_keywords.empty()) return std::move(m_facts);
  // Statement by statement, each walked or taken from the earlier memo:
  // what one finds does not depend on the others' walks. A tree with a
  // syntax error is walked whole (where the parser recovered depends on
  // more than a statement's text).
  if (m_facts.had_syntax_errors) m_earlier.reset(), m_next.reset();
  if (!m_earlier && !m_next) {
    walk(m_root, [&](TSNode n, std::uint32_t depth, TSTreeCursor*) { return visit(n, depth); });
  } else if (visit(m_root, 0)) {
    if (m_next) m_next->source = std::string(m_src);
    for (std::uint32_t i = 0, count = ts_node_child_count(m_root); i < count; ++i) walk_unit(m_root, i, 1);
    for (std::size_t e = 0; m_next && e < m_next->entries.size(); ++e) {
      const DefinitionMemo::Entry& entry = m_next->entries[e];
      m_next->by_text.emplace(std::string_view(m_next->source).substr(entry.begin, entry.end - entry.begin), e);
    }
  }
  m_path.clear();
  m_ctx.clear();
  fill_class_texts();
  export_displays();
  return std::move(m_facts);
}

void FileScanner::walk_unit(TSNode body, std::uint32_t i, std::uint32_t depth) {
  TSNode st = ts_node_child(body, i);
  m_chain.push_back({body, i});
  TSNode cls = kind(st) == Kind::DecoratedDef ? child(st, m_g.f_definition) : st;
  if (kind(cls) == Kind::ClassDef) {
    walk_class(st, depth);
  } else if (!subtree_has_keyword(st)) {
    // Nothing to find, nothing looked up: cheaper walked than keyed.
    walk(st, [&](TSNode n, std::uint32_t d, TSTreeCursor*) { return visit(n, d + depth); });
  } else if (m_earlier && replay(st)) {
  } else {
    const std::size_t sites = m_facts.sites.size(), classes = m_facts.classes.size();
    std::vector<std::string> deps;
    m_deps = &deps;
    walk(st, [&](TSNode n, std::uint32_t d, TSTreeCursor*) { return visit(n, d + depth); });
    m_deps = nullptr;
    remember(st, std::move(deps), sites, classes);
  }
  m_chain.pop_back();
}

void FileScanner::walk_class(TSNode n, std::uint32_t depth) {
  if (!visit(n, depth)) return;
  const bool decorated = kind(n) == Kind::DecoratedDef;
  TSNode inner = decorated ? child(n, m_g.f_definition) : child(n, m_g.f_body);
  for (std::uint32_t i = 0, count = ts_node_child_count(n); i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_eq(c, inner)) {
      walk(c, [&](TSNode x, std::uint32_t d, TSTreeCursor*) { return visit(x, d + depth + 1); });
    } else if (decorated) {
      walk_class(c, depth + 1);
    } else if (visit(c, depth + 1)) {
      for (std::uint32_t j = 0, statements = ts_node_child_count(c); j < statements; ++j) walk_unit(c, j, depth + 2);
    }
  }
}

void FileScanner::visit_class(TSNode n) {
  ClassDef c;
  c.name = std::string(text(child(n, m_g.f_name)));
  c.line = line_of(n);
  TSNode sup = child(n, m_g.f_superclasses);
  std::uint32_t count = named_count(sup);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode b = ts_node_named_child(sup, i);
    Kind bk = kind(b);
    if (bk == Kind::KeywordArg || bk == Kind::Comment || bk == Kind::DictSplat) continue;
    c.bases.push_back(python::collapse_ws(text(b)));
  }
  c.own_methods = defines_methods(c.name);
  m_facts.classes.push_back(std::move(c));
}

// A bare `raise` (`name` empty), or a raise of the name an enclosing
// `except … as name` binds: the site raises again the exception it is
// handling, of the clause's class when that is one name. Not when the
// clause catches what a local, a parameter or a lower-case attribute holds
// (`except retry_errors:`, `except self.connection_errors:`: a tuple of
// classes made elsewhere, the class not known). False, and the site
// untouched, when no enclosing clause of the function binds `name`.
bool FileScanner::reraise_caught(ThrowSite& site, std::string_view name) {
  for (std::size_t i = m_ctx.size(); i-- > 0;) {
    const Ctx& c = m_ctx[i];
    if (c.kind == Kind::FunctionDef || c.kind == Kind::ClassDef) return false;
    if (c.kind != Kind::Except || (!name.empty() && caught_alias(c.node) != name)) continue;
    site.reraise = true;
    site.error_class.clear();
    std::string caught = caught_text(c.node);
    if (!is_dotted_name(caught)) return true;
    TSNode written{};
    for (std::uint32_t k = 0; k < named_count(c.node) && ts_node_is_null(written); ++k) {
      TSNode ch = ts_node_named_child(c.node, k);
      if (kind(ch) == Kind::AsPattern) ch = first_named(ch);
      if (kind(ch) == Kind::Identifier || kind(ch) == Kind::Attribute) written = ch;
    }
    const std::uint32_t at = start_byte(c.node);
    if (kind(written) == Kind::Attribute && holds_exception(written, at)) return true;
    if (kind(written) == Kind::Identifier && handed_on(caught, at)) {
      // `def _make_reader(self, error=socket.error): … except error:`:
      // the class the parameter defaults to, when nothing assigns it.
      if (!reaching(caught, at).empty()) return true;
      for (std::size_t j = i; j-- > 0;) {
        if (m_ctx[j].kind != Kind::FunctionDef) continue;
        int position = -1;
        if (!parameter_position(m_ctx[j].node, caught, position)) continue;
        std::string given = python::collapse_ws(text(parameter_default(m_ctx[j].node, caught)));
        if (is_dotted_name(given) && given != "None") site.error_class = std::move(given);
        break;
      }
      return true;
    }
    site.error_class = std::move(caught);
    return true;
  }
  return false;
}

void FileScanner::read_args_set(ThrowSite& site, std::string_view name, std::uint32_t at) {
  TSNode clause{};
  for (std::size_t i = m_ctx.size(); i-- > 0 && ts_node_is_null(clause);) {
    if (m_ctx[i].kind == Kind::FunctionDef || m_ctx[i].kind == Kind::ClassDef) return;
    if (m_ctx[i].kind == Kind::Except) clause = m_ctx[i].node;
  }
  const std::string_view alias = caught_alias(clause);
  if (alias.empty() || (!name.empty() && name != alias)) return;
  const std::string target = std::string(alias) + ".args";
  TSNode value{};
  std::uint32_t value_at = 0;
  walk(clause, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
    if (start_byte(x) >= at) return false;
    const Kind k = kind(x);
    if (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda) return false;
    if (k != Kind::Assignment) return true;
    // Set whatever path leads to the raise: its statement's block holds
    // the raise too.
    TSNode block = ts_node_parent(ts_node_parent(x));
    if (text(child(x, m_g.f_left)) == target && !ts_node_is_null(block) && start_byte(block) <= at &&
        ts_node_end_byte(block) > at) {
      value = child(x, m_g.f_right);
      value_at = start_byte(x);
    }
    return false;
  });
  // `(msg,) + e.args[1:]`: the tuple's first item.
  while (kind(value) == Kind::BinaryOp || kind(value) == Kind::Paren) value = first_named(value);
  if (kind(value) != Kind::Tuple) return;
  TSNode first = first_named(value);
  while (kind(first) == Kind::Comment) first = ts_node_next_named_sibling(first);
  if (ts_node_is_null(first) || kind(first) == Kind::ListSplat) return;
  MessageTemplate message = message_from(first, value_at);
  if (message.parts.empty()) return;
  site.message = std::move(message);
  site.alternatives.clear();
}

// `err` of `raise err.with_traceback(tb)`; empty for any other call.
std::string_view FileScanner::caught_with_traceback(TSNode call) const {
  TSNode fn = child(call, m_g.f_function);
  if (kind(fn) != Kind::Attribute || text(child(fn, m_g.f_attribute)) != "with_traceback") return {};
  TSNode object = child(fn, m_g.f_object);
  return kind(object) == Kind::Identifier ? text(object) : std::string_view{};
}

bool FileScanner::raises_what_it_holds(TSNode call) const {
  TSNode fn = child(call, m_g.f_function);
  if (kind(fn) != Kind::Attribute) return false;
  const std::string_view method = text(child(fn, m_g.f_attribute));
  TSNode object = child(fn, m_g.f_object);
  if (method == "with_traceback")
    return ts_node_type(object) == std::string_view("subscript") || kind(object) == Kind::Attribute;
  // The Future API's (concurrent.futures, asyncio) stored outcome.
  return (method == "exception" || method == "result") && named_count(child(call, m_g.f_arguments)) == 0;
}

void FileScanner::factory_given_class(ThrowSite& site, TSNode call) const {
  TSNode fn = child(call, m_g.f_function);
  if (site.error_class != python::collapse_ws(text(fn))) return;
  std::string_view name = text(fn);
  if (const auto dot = name.rfind('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
  const std::size_t letter = name.find_first_not_of('_');
  if (letter == std::string_view::npos || !std::islower(static_cast<unsigned char>(name[letter]))) return;
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("err") == std::string::npos && lower.find("exc") == std::string::npos) return;
  TSNode args = child(call, m_g.f_arguments);
  if (named_count(args) == 0) return;
  TSNode first = ts_node_named_child(args, 0);
  if (kind(first) != Kind::Identifier && kind(first) != Kind::Attribute) return;
  const std::string given(text(first));
  std::string_view last = given;
  if (const auto dot = last.rfind('.'); dot != std::string_view::npos) last.remove_prefix(dot + 1);
  // A class as CapWords write it: a capital first, some lower case (not
  // a constant such as `UNEXPECTED`).
  if (!is_dotted_name(given) || last.empty() || !std::isupper(static_cast<unsigned char>(last[0])) ||
      std::none_of(last.begin(), last.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); }))
    return;
  // The factory puts arguments of its own before the rest (tomlkit's
  // `exception(line, col, *args)`): what the class shows is not read.
  site.error_class = given;
  site.message = MessageTemplate{};
  site.alternatives.clear();
  site.args.clear();
  site.arg_messages.clear();
}

// The name `except E as name:` binds; empty when it binds none.
std::string_view FileScanner::caught_alias(TSNode clause) const {
  std::uint32_t count = named_count(clause);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode ch = ts_node_named_child(clause, i);
    if (kind(ch) != Kind::AsPattern) continue;
    TSNode target = ts_node_named_child(ch, named_count(ch) - 1);
    return named_count(ch) > 1 ? text(target) : std::string_view{};
  }
  return {};
}

std::string FileScanner::caught_text(TSNode clause) const {
  TSNode first{}, last{};
  std::uint32_t count = named_count(clause);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode ch = ts_node_named_child(clause, i);
    Kind ck = kind(ch);
    if (ck == Kind::Block || ck == Kind::Comment) continue;
    if (ts_node_is_null(first)) first = ch;
    last = ch;
  }
  if (ts_node_is_null(first)) return {};
  if (ts_node_eq(first, last) && kind(first) == Kind::AsPattern) {
    TSNode inner = first_named(first);
    if (!ts_node_is_null(inner)) return python::collapse_ws(text(inner));
  }
  return python::collapse_ws(span(start_byte(first), end_byte(last)));
}

std::vector<std::string> FileScanner::read_names(TSNode n) const {
  std::vector<std::string> out;
  if (ts_node_is_null(n)) return out;
  auto add = [&](std::string name) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
  };
  walk(n, [&](TSNode node, std::uint32_t depth, TSTreeCursor* cur) {
    TSFieldId fid = depth > 0 ? ts_tree_cursor_current_field_id(cur) : 0;
    bool descend = true;
    switch (kind(node)) {
      case Kind::Identifier:
        // keyword names in calls and attribute names are not reads
        if (depth == 0 || (fid != m_g.f_name && fid != m_g.f_attribute)) add(std::string(text(node)));
        descend = false;
        break;
      case Kind::Attribute: {
        auto t = text(node);
        if (is_dotted_name(t)) {
          add(python::collapse_ws(t));
          descend = false;
        }
        break;
      }
      case Kind::Lambda: case Kind::Comment: descend = false; break;
      default: break;
    }
    return descend;
  });
  return out;
}

Guard FileScanner::make_guard(const char* k, TSNode cond) const {
  Guard g;
  g.kind = k;
  g.condition = python::collapse_ws(text(cond));
  g.names = read_names(cond);
  g.line = ts_node_is_null(cond) ? 0 : line_of(cond);
  return g;
}

std::vector<Guard> FileScanner::guards(std::uint32_t site_byte) const {
  std::vector<Guard> out;
  auto inside = [&](TSNode block) {
    return !ts_node_is_null(block) && site_byte >= start_byte(block) &&
           site_byte < end_byte(block);
  };
  // Else guards for the branches of `if_node` that come before `stop`,
  // innermost (latest) first, the nearest 16 of them: each site of a chain
  // of n elifs would otherwise hold every earlier one, n² guards in all
  // (generated dispatch code has thousands). The chain's elifs are listed
  // once per `if`, so a site finds its place without walking them.
  constexpr std::size_t k_max_earlier = 16;
  auto earlier_branches = [&](TSNode if_node, TSNode stop) {
    auto [it, fresh] = m_elifs.try_emplace(if_node.id);
    std::vector<TSNode>& elifs = it->second;
    if (fresh)
      for (TSNode ch : named_children(if_node))
        if (kind(ch) == Kind::Elif) elifs.push_back(ch);
    const auto before = std::lower_bound(elifs.begin(), elifs.end(), start_byte(stop),
                                         [&](TSNode e, std::uint32_t at) { return start_byte(e) < at; });
    auto k = static_cast<std::size_t>(before - elifs.begin());
    for (std::size_t taken = 0; taken < k_max_earlier; ++taken) {
      if (k == 0) {
        out.push_back(make_guard("else", child(if_node, m_g.f_condition)));
        break;
      }
      out.push_back(make_guard("else", child(elifs[--k], m_g.f_condition)));
    }
  };
  TSNode skip{};  // an if/while whose branch was already accounted for
  for (std::size_t i = m_ctx.size(); i-- > 0;) {
    const Ctx& c = m_ctx[i];
    if (c.kind == Kind::FunctionDef || c.kind == Kind::ClassDef) break;
    if (!ts_node_is_null(skip) && ts_node_eq(c.node, skip)) continue;
    TSNode parent = c.depth > 0 ? m_path[c.depth - 1] : TSNode{};
    switch (c.kind) {
      case Kind::If:
        // `if __debug__:` holds in every run but `python -O`'s, which drops
        // the block as it drops asserts: no condition a caller can meet.
        if (inside(child(c.node, m_g.f_consequence)) && text(child(c.node, m_g.f_condition)) != "__debug__")
          out.push_back(make_guard("if", child(c.node, m_g.f_condition)));
        break;
      case Kind::Elif:
        if (!inside(child(c.node, m_g.f_consequence)) || kind(parent) != Kind::If) break;
        out.push_back(make_guard("elif", child(c.node, m_g.f_condition)));
        earlier_branches(parent, c.node);
        skip = parent;
        break;
      case Kind::Else:
        if (kind(parent) == Kind::If) {
          earlier_branches(parent, c.node);
          skip = parent;
        } else if (kind(parent) == Kind::While) {
          out.push_back(make_guard("else", child(parent, m_g.f_condition)));
          skip = parent;
        }
        break;
      case Kind::While:
        if (inside(child(c.node, m_g.f_body))) out.push_back(make_guard("while", child(c.node, m_g.f_condition)));
        break;
      case Kind::Except: {
        Guard g;
        g.kind = "except";
        g.condition = caught_text(c.node);
        g.line = line_of(c.node);
        std::uint32_t count = named_count(c.node);
        for (std::uint32_t k = 0; k < count; ++k) {
          TSNode ch = ts_node_named_child(c.node, k);
          Kind ck = kind(ch);
          if (ck == Kind::Block || ck == Kind::Comment) continue;
          TSNode caught = ck == Kind::AsPattern ? first_named(ch) : ch;
          for (auto& n : read_names(caught))
            if (std::find(g.names.begin(), g.names.end(), n) == g.names.end()) g.names.push_back(std::move(n));
        }
        out.push_back(std::move(g));
        break;
      }
      case Kind::Case: {
        if (!inside(child(c.node, m_g.f_consequence))) break;
        Guard g;
        g.kind = "match";
        g.line = line_of(c.node);
        TSNode body = child(c.node, m_g.f_consequence);
        std::uint32_t b = start_byte(c.node), e = start_byte(body);
        auto header = span(b, e);
        if (header.substr(0, 4) == "case") header.remove_prefix(4);
        while (!header.empty() && (header.back() == ':' || header.back() == ' ' || header.back() == '\n'))
          header.remove_suffix(1);
        g.condition = python::collapse_ws(header);
        // The subject is read by the match; a guard reads its own names.
        TSNode match = c.depth >= 2 ? m_path[c.depth - 2] : TSNode{};
        if (!ts_node_is_null(match)) g.names = read_names(child(match, m_g.f_subject));
        TSNode guard = child(c.node, m_g.f_guard);
        for (auto& n : read_names(guard))
          if (std::find(g.names.begin(), g.names.end(), n) == g.names.end()) g.names.push_back(std::move(n));
        out.push_back(std::move(g));
        break;
      }
      default: break;
    }
  }
  return out;
}

std::string FileScanner::docstring(TSNode body) const {
  TSNode first = first_named(body);
  if (kind(first) != Kind::ExprStatement || named_count(first) != 1) return {};
  TSNode s = ts_node_named_child(first, 0);
  std::vector<TemplatePart> parts;
  bool is_f = false;
  if (!literal_parts(s, parts, is_f) || is_f) return {};
  return joined_literal(parts);
}

FileScanner::FunctionInfo FileScanner::function_info(std::size_t i) const {
  const Ctx& c = m_ctx[i];
  FunctionInfo f;
  f.name = std::string(text(child(c.node, m_g.f_name)));
  f.line = line_of(c.node);
  auto params = text(child(c.node, m_g.f_parameters));
  if (params.size() >= 2 && params.front() == '(' && params.back() == ')')
    params = params.substr(1, params.size() - 2);
  f.params = python::collapse_ws(params);
  f.doc = docstring(child(c.node, m_g.f_body));
  if (i > 0 && m_ctx[i - 1].kind == Kind::DecoratedDef && m_ctx[i - 1].depth + 1 == c.depth) {
    TSNode d = m_ctx[i - 1].node;
    std::uint32_t count = named_count(d);
    for (std::uint32_t k = 0; k < count; ++k) {
      TSNode ch = ts_node_named_child(d, k);
      if (kind(ch) != Kind::Decorator) continue;
      auto t = text(ch);
      if (!t.empty() && t.front() == '@') t.remove_prefix(1);
      f.decorators.push_back(python::collapse_ws(t));
    }
  }
  return f;
}

void FileScanner::fill_context(ThrowSite& site, std::uint32_t site_byte) {
  auto g = guards(site_byte);
  site.guards.insert(site.guards.end(), std::make_move_iterator(g.begin()), std::make_move_iterator(g.end()));
  bool have_function = false, have_class = false;
  for (std::size_t i = m_ctx.size(); i-- > 0 && !(have_function && have_class);) {
    const Ctx& c = m_ctx[i];
    if (c.kind == Kind::FunctionDef && !have_function) {
      have_function = true;
      FunctionInfo f = function_info(i);
      site.function = std::move(f.name);
      site.function_params = std::move(f.params);
      site.function_doc = std::move(f.doc);
      site.decorators = std::move(f.decorators);
      site.function_line = f.line;
    } else if (c.kind == Kind::ClassDef && !have_class) {
      have_class = true;
      site.class_name = std::string(text(child(c.node, m_g.f_name)));
      auto bases = text(child(c.node, m_g.f_superclasses));
      if (bases.size() >= 2 && bases.front() == '(' && bases.back() == ')')
        bases = bases.substr(1, bases.size() - 2);
      site.class_bases = python::collapse_ws(bases);
      site.class_doc = docstring(child(c.node, m_g.f_body));
    }
  }
}

std::size_t FileScanner::innermost_function() const {
  for (std::size_t i = m_ctx.size(); i-- > 0;)
    if (m_ctx[i].kind == Kind::FunctionDef) return i;
  return std::string::npos;
}

TSNode FileScanner::scope_node() const {
  if (!ts_node_is_null(m_scope)) return m_scope;
  const std::size_t fi = innermost_function();
  return fi == std::string::npos ? m_root : child(m_ctx[fi].node, m_g.f_body);
}

TSNode FileScanner::default_exception(TSNode expr) const {
  TSNode e = unwrap_parens(expr);
  if (std::string_view(ts_node_type(e)) == "conditional_expression") {
    // `raise error if self.msg is None else AnyInvalid(self.msg)`: the
    // error made here, when the other branch raises one made elsewhere.
    TSNode made{};
    int calls = 0, branches = 0;
    for (std::uint32_t i = 0, all = named_count(e); i < all; ++i) {
      TSNode part = ts_node_named_child(e, i);
      if (kind(part) == Kind::Comment || branches++ == 1) continue;  // the condition
      part = unwrap_parens(part);
      if (kind(part) == Kind::Call) ++calls, made = part;
    }
    return branches == 3 && calls == 1 ? made : e;
  }
  if (kind(e) != Kind::BoolOp || text(child(e, m_g.f_operator)) != "or") return e;
  TSNode right = unwrap_parens(child(e, m_g.f_right));
  return kind(right) == Kind::Call ? right : e;
}

TSNode FileScanner::cast_type(TSNode expr) const {
  expr = unwrap_parens(expr);
  if (kind(expr) != Kind::Call) return {};
  TSNode fn = child(expr, m_g.f_function);
  if (kind(fn) == Kind::Attribute) {
    // (`t` is not checked against the imports: the outline may have
    // blanked them, and a raise of another `cast` of two values is not
    // known.)
    if (kind(child(fn, m_g.f_object)) != Kind::Identifier || text(child(fn, m_g.f_attribute)) != "cast") return {};
  } else if (kind(fn) != Kind::Identifier || text(fn) != "cast") {
    return {};
  }
  TSNode args = child(expr, m_g.f_arguments);
  std::vector<TSNode> given;
  for (std::uint32_t i = 0, all = named_count(args); i < all; ++i)
    if (TSNode a = ts_node_named_child(args, i); kind(a) != Kind::Comment) given.push_back(a);
  if (given.size() != 2 || kind(given[0]) == Kind::KeywordArg || kind(given[1]) == Kind::KeywordArg) return {};
  return given[0];
}

void FileScanner::emit_raise(TSNode n) {
  ThrowSite site;
  site.kind = "raise";
  site.line = line_of(n);
  site.end_line = end_line_of(n);
  std::uint32_t at = start_byte(n);
  TSNode cause = child(n, m_g.f_cause);
  site.cause = expr_text(text(cause));
  bool made_here = false;  // `raise X(…)` with its message read here
  TSNode expr{};
  std::uint32_t count = named_count(n);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode ch = ts_node_named_child(n, i);
    if (kind(ch) == Kind::Comment || (!ts_node_is_null(cause) && ts_node_eq(ch, cause))) continue;
    expr = ch;
    break;
  }
  if (ts_node_is_null(expr)) {
    reraise_caught(site, {});
  } else {
    site.raised_text = std::string(text(expr));
    expr = default_exception(expr);
    // `raise ImportStringError(name, e).with_traceback(tb)`: the
    // construction, raised with another traceback.
    if (kind(expr) == Kind::Call) {
      TSNode fn = child(expr, m_g.f_function);
      TSNode object = child(fn, m_g.f_object);
      if (kind(fn) == Kind::Attribute && text(child(fn, m_g.f_attribute)) == "with_traceback" && kind(object) == Kind::Call)
        expr = object;
    }
    const std::string_view traced = kind(expr) == Kind::Call ? caught_with_traceback(expr) : std::string_view{};
    // `raise value.with_traceback(tb)` of a name no clause binds (six's
    // `reraise(tp, value, tb)`): what the name holds, raised again.
    if (!traced.empty() && !reraise_caught(site, traced))
      expr = child(child(expr, m_g.f_function), m_g.f_object);
    if (TSNode type = cast_type(expr); !ts_node_is_null(type)) {
      // `raise t.cast(BadSignature, last_exception)`: the value given,
      // an exception caught earlier, raised again as the type it names.
      std::string named = python::collapse_ws(text(type));
      // A type written as a string (`cast("BadSignature", err)`).
      if (named.size() > 2 && (named.front() == '"' || named.front() == '\'') && named.back() == named.front())
        named = named.substr(1, named.size() - 2);
      site.error_class = std::move(named);
      site.reraise = true;
    } else if (kind(expr) == Kind::Call && traced.empty() && raises_what_it_holds(expr)) {
      // `raise exc_info[1].with_traceback(exc_info[2])`, `raise
      // future.exception()`, `raise outcome.result()`: an exception made
      // elsewhere, raised again; its class is not known here.
      site.error_class.clear();
      site.reraise = true;
    } else if (kind(expr) == Kind::Call && traced.empty()) {
      read_exception_call(expr, site, at);
      resolve_helper(site, expr, at);
      resolve_class_display(site, expr, at);
      resolve_args_display(site, expr, at);
      factory_given_class(site, expr);
      made_here = true;
    } else if (kind(expr) != Kind::Call) {
      site.error_class = python::collapse_ws(text(expr));
      if (kind(expr) == Kind::Identifier) {
        resolve_raised_name(site, expr, at);
        // `except OSError as err: …; raise err`: no construction of its
        // own reaches the raise, so it raises again what it caught, as a
        // bare `raise` does.
        if (site.error_class == text(expr)) reraise_caught(site, text(expr));
        // `exc = errors[max(errors)]; raise exc`, `def throw(self, typ):
        // raise typ`: an exception the function got from elsewhere (a local
        // or a parameter), raised whatever its class; not a class named
        // `exc`. A module's own name (ftplib's class `error_proto`) and a
        // capitalised one stay classes.
        if (site.error_class == text(expr) && handed_on(text(expr), at)) {
          site.error_class = tested_class(text(expr), at);
          site.reraise = true;
        }
      } else if (holds_exception(expr, at)) {
        site.error_class = tested_class(python::collapse_ws(text(expr)), at);
        site.reraise = true;
      }
    }
  }
  if (site.reraise && (ts_node_is_null(expr) || kind(expr) == Kind::Identifier))
    read_args_set(site, ts_node_is_null(expr) ? std::string_view{} : text(expr), at);
  fill_context(site, at);
  if (made_here) fill_parameters_from_callers(site, at);
  m_facts.sites.push_back(std::move(site));
}

namespace {
// Whether pattern `p` (a target of `for`, of an unpacking assignment or of
// `with … as`) binds `name`: `r` in `for i, r in …`, `res` in `res, ok = …`.
bool pattern_binds(TSNode p, std::string_view name, std::string_view src, int depth = 0) {
  if (ts_node_is_null(p) || depth > 8) return false;
  const std::string_view type = ts_node_type(p);
  if (type == "identifier") return node_text(src, p) == name;
  if (type != "pattern_list" && type != "tuple_pattern" && type != "list_pattern" && type != "tuple" &&
      type != "list" && type != "parenthesized_expression" && type != "list_splat_pattern" &&
      type != "as_pattern_target" && type != "expression_list")
    return false;
  const std::uint32_t count = ts_node_named_child_count(p);
  for (std::uint32_t i = 0; i < count; ++i)
    if (pattern_binds(ts_node_named_child(p, i), name, src, depth + 1)) return true;
  return false;
}
}  // namespace

bool FileScanner::bound_by_pattern(TSNode scope, std::string_view name) const {
  bool found = false;
  walk(scope, [&](TSNode node, std::uint32_t d, TSTreeCursor*) {
    if (found) return false;
    const Kind k = kind(node);
    if (d > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda || k == Kind::DecoratedDef))
      return false;
    const std::string_view type = ts_node_type(node);
    if (k == Kind::For || k == Kind::Assignment)
      found = pattern_binds(child(node, m_g.f_left), name, m_src);
    else if (type == "as_pattern_target")
      found = pattern_binds(node, name, m_src);
    else if (type == "named_expression")
      found = text(child(node, m_g.f_name)) == name;
    return !found && k != Kind::String && k != Kind::Comment;
  });
  return found;
}

bool FileScanner::holds_exception(TSNode expr, std::uint32_t at) {
  const std::string_view type = ts_node_type(expr);
  // `raise errors[0]`, `raise self.errors[0][1]`: an item of a collection
  // of exceptions, not a class.
  if (type == "subscript") return true;
  if (kind(expr) != Kind::Attribute) return false;
  // `raise self._exc`, `raise outcome.error`: an attribute named in lower
  // case (no capital: `self.failureException` may name a class) of `self`
  // or of a local or parameter. A module's (`socket.error`) stays a class.
  const std::string_view last = text(child(expr, m_g.f_attribute));
  if (last.empty() || std::any_of(last.begin(), last.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
    return false;
  // A class the file defines in lower case (imaplib's IMAP4 nests `class
  // abort(error)`, caught as `except self.abort:`).
  const std::string_view source = m_original.empty() ? m_src : m_original;
  const std::string defined = "class " + std::string(last);
  depends_on(last);
  for (std::size_t at = source.find(defined); at != std::string_view::npos; at = source.find(defined, at + 1)) {
    const std::size_t end = at + defined.size();
    if (end < source.size() && (source[end] == '(' || source[end] == ':')) return false;
  }
  TSNode root = expr;
  for (int hops = 0; hops < 8 && kind(root) == Kind::Attribute; ++hops) root = child(root, m_g.f_object);
  return kind(root) == Kind::Identifier && handed_on(text(root), at);
}

std::string FileScanner::tested_class(std::string_view held, std::uint32_t at) const {
  const std::vector<Guard> around = guards(at);
  if (around.empty() || (around.front().kind != "if" && around.front().kind != "elif")) return {};
  // `isinstance(error, ConnectionError)`, one class, as the whole test.
  std::string_view c = around.front().condition;
  constexpr std::string_view k_call = "isinstance(";
  if (!c.starts_with(k_call) || !c.ends_with(')')) return {};
  c = c.substr(k_call.size(), c.size() - k_call.size() - 1);
  const std::size_t comma = c.find(',');
  if (comma == std::string_view::npos || python::collapse_ws(c.substr(0, comma)) != held) return {};
  std::string cls = python::collapse_ws(c.substr(comma + 1));
  while (!cls.empty() && cls.front() == ' ') cls.erase(0, 1);
  const std::size_t dot = cls.rfind('.');
  const char first = cls.empty() ? '\0' : cls[dot == std::string::npos ? 0 : dot + 1];
  // Any exception at all: the class it has is not known.
  const std::string_view last = std::string_view(cls).substr(dot == std::string::npos ? 0 : dot + 1);
  if (!is_dotted_name(cls) || !std::isupper(static_cast<unsigned char>(first)) || last == "Exception" ||
      last == "BaseException")
    return {};
  return cls;
}

bool FileScanner::handed_on(std::string_view name, std::uint32_t at) {
  const std::size_t letter = name.find_first_not_of('_');
  if (letter == std::string_view::npos || !std::islower(static_cast<unsigned char>(name[letter]))) return false;
  if (!reaching(name, at).empty()) return true;
  // A local or parameter of the function, or of one around it (`app_exc`
  // set by a nested function through `nonlocal`, raised in another).
  for (std::size_t i = m_ctx.size(); i-- > 0;) {
    if (m_ctx[i].kind != Kind::FunctionDef) continue;
    int position = -1;
    if (parameter_position(m_ctx[i].node, name, position)) return true;
    if (assignments(child(m_ctx[i].node, m_g.f_body), name)) return true;
    // `for i, r in enumerate(replies): … raise r`, `res, failed = call();
    // raise res`.
    if (bound_by_pattern(child(m_ctx[i].node, m_g.f_body), name)) return true;
  }
  return false;
}

void FileScanner::emit_assert(TSNode n) {
  ThrowSite site;
  site.kind = "assert";
  site.error_class = "AssertionError";
  site.line = line_of(n);
  site.end_line = end_line_of(n);
  site.raised_text = std::string(text(n));
  std::uint32_t at = start_byte(n);
  TSNode cond{}, msg{};
  std::uint32_t count = named_count(n);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode ch = ts_node_named_child(n, i);
    if (kind(ch) == Kind::Comment) continue;
    if (ts_node_is_null(cond)) cond = ch;
    else if (ts_node_is_null(msg)) msg = ch;
  }
  if (!ts_node_is_null(msg)) site.args.push_back(expr_text(text(msg)));
  message_with_choices(site, msg, at);
  site.guards.push_back(make_guard("assert", cond));
  fill_context(site, at);
  m_facts.sites.push_back(std::move(site));
}

bool FileScanner::emit_warn(TSNode call) {
  TSNode fn = child(call, m_g.f_function);
  auto name = text(fn);
  Kind fk = kind(fn);
  if (!((fk == Kind::Identifier && name == "warn") || (fk == Kind::Attribute && name == "warnings.warn")))
    return false;
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList) return false;
  ThrowSite site;
  site.kind = "warn";
  TSNode stmt = call;
  if (m_path.size() >= 2 && kind(m_path[m_path.size() - 2]) == Kind::ExprStatement) stmt = m_path[m_path.size() - 2];
  site.line = line_of(stmt);
  site.end_line = end_line_of(stmt);
  site.raised_text = std::string(text(call));
  TSNode msg{}, category{};
  int positional = 0;
  each_argument(args, site, [&](TSNode a, Kind ak) {
    if (ak == Kind::KeywordArg) {
      auto k = text(child(a, m_g.f_name));
      if (k == "message") msg = child(a, m_g.f_value);
      else if (k == "category") category = child(a, m_g.f_value);
    } else if (ak != Kind::ListSplat && ak != Kind::DictSplat) {
      if (positional == 0) msg = a;
      else if (positional == 1) category = a;
      ++positional;
    }
  });
  site.error_class = ts_node_is_null(category) ? "UserWarning" : python::collapse_ws(text(category));
  std::uint32_t at = start_byte(stmt);
  message_with_choices(site, msg, at);
  // `warnings.warn(PytestCacheWarning(msg), self._config.hook)`: a warning
  // made here is issued as it is, its own class and message; the category
  // is ignored.
  if (TSNode made = unwrap_parens(msg);
      constructs_class(made) && is_dotted_name(python::collapse_ws(text(child(made, m_g.f_function))))) {
    ThrowSite built;
    built.raised_text = site.raised_text;
    read_exception_call(made, built, at);
    resolve_class_display(built, made, at);
    site.error_class = std::move(built.error_class);
    site.message = std::move(built.message);
    site.alternatives = std::move(built.alternatives);
  }
  fill_context(site, at);
  m_facts.sites.push_back(std::move(site));
  return true;
}

}  // namespace errdex::scan::python::detail
