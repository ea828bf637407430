// A message read from the names bound before it: which assignments of a
// name reach a site (and what is added to them on the way), and the value
// they build.
#include "scan/python/file_scanner.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace errdex::scan::python::detail {

namespace {
// Lines of `src` that start at the left margin with `name =` (not `==`).
std::size_t count_top_level_assignments(std::string_view src, std::string_view name) {
  std::size_t n = 0;
  for (std::size_t pos = src.find(name); pos != std::string_view::npos; pos = src.find(name, pos + 1)) {
    if (pos > 0 && src[pos - 1] != '\n') continue;
    std::size_t after = pos + name.size();
    while (after < src.size() && (src[after] == ' ' || src[after] == '\t')) ++after;
    n += after + 1 < src.size() && src[after] == '=' && src[after + 1] != '=';
  }
  return n;
}
}  // namespace

bool FileScanner::top_level_assignments_blanked(std::string_view name) {
  if (m_original.empty()) return false;
  depends_on(name);
  if (count_top_level_assignments(m_src, name) == count_top_level_assignments(m_original, name)) return false;
  if (std::find(m_facts.blanked.begin(), m_facts.blanked.end(), name) == m_facts.blanked.end())
    m_facts.blanked.emplace_back(name);
  return true;
}

const std::vector<FileScanner::Assign>* FileScanner::assignments(TSNode scope, std::string_view name) {
  if (ts_node_eq(scope, m_root)) depends_on(name);
  // Not a structured binding: a lambda below captures it (clang 14).
  auto emplaced = m_assignments.try_emplace(scope.id);
  auto it = emplaced.first;
  if (emplaced.second) {
    // One walk per scope (not into nested functions, classes, lambdas) for
    // every assignment to a plain name, with the block that holds it.
    std::vector<TSNode> path;
    walk(scope, [&](TSNode node, std::uint32_t d, TSTreeCursor*) {
      path.resize(d);
      path.push_back(node);
      Kind k = kind(node);
      if (d > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda || k == Kind::DecoratedDef))
        return false;
      if (k == Kind::Call && d >= 2 && kind(path[d - 1]) == Kind::ExprStatement) {
        // `name.append(x)`, `name.extend(x)`, `name.insert(0, x)` as a
        // statement: call <- expression_statement <- block.
        TSNode fn = child(node, m_g.f_function);
        TSNode args = child(node, m_g.f_arguments);
        if (kind(fn) == Kind::Attribute && kind(child(fn, m_g.f_object)) == Kind::Identifier &&
            kind(args) == Kind::ArgumentList) {
          std::vector<TSNode> given;
          std::uint32_t count = named_count(args);
          bool plain = true;
          for (std::uint32_t i = 0; i < count; ++i) {
            TSNode a = ts_node_named_child(args, i);
            Kind ak = kind(a);
            if (ak == Kind::Comment) continue;
            plain &= ak != Kind::KeywordArg && ak != Kind::ListSplat && ak != Kind::DictSplat;
            given.push_back(a);
          }
          std::string_view method = text(child(fn, m_g.f_attribute));
          char how = !plain                                                          ? 0
                     : method == "append" && given.size() == 1                       ? 'a'
                     : method == "extend" && given.size() == 1                       ? 'e'
                     : method == "insert" && given.size() == 2 && text(given[0]) == "0" ? 'p'
                                                                                    : 0;
          if (how)
            it->second[std::string(text(child(fn, m_g.f_object)))].push_back(
                {node, given.back(), path[d - 2], start_byte(node), end_byte(node), how});
        }
        return true;
      }
      if (k != Kind::Assignment && k != Kind::AugAssignment) return k != Kind::String && k != Kind::Comment;
      TSNode left = child(node, m_g.f_left);
      TSNode right = child(node, m_g.f_right);
      bool plain = k == Kind::Assignment;
      if (kind(left) == Kind::Identifier && !ts_node_is_null(right) && (plain || text(child(node, m_g.f_operator)) == "+=")) {
        // assignment <- expression_statement <- block
        TSNode block = d >= 2 ? path[d - 2] : scope;
        it->second[std::string(text(left))].push_back({node, right, block, start_byte(node), end_byte(node), plain ? '=' : '+'});
      }
      return true;  // `a = b = ...`, and walrus inside
    });
  }
  auto found = it->second.find(std::string(name));
  return found == it->second.end() ? nullptr : &found->second;
}

namespace {
// `_ERR_MSG`, `MAX_SIZE`: written as a constant (upper case, digits and
// underscores, a letter among them).
bool constant_name(std::string_view name) {
  bool letter = false;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z')
      letter = true;
    else if (c != '_' && !(c >= '0' && c <= '9'))
      return false;
  }
  return letter && !(name.front() >= '0' && name.front() <= '9');
}
}  // namespace

std::vector<FileScanner::Reaching> FileScanner::reaching(std::string_view name, std::uint32_t site_byte) {
  std::vector<Reaching> live;
  TSNode scope = scope_node();
  if (ts_node_is_null(scope)) return live;
  static const std::vector<Assign> k_none;
  const std::vector<Assign>* list = assignments(scope, name);
  for (const Assign& a : list ? *list : k_none) {
    if (a.start >= site_byte) break;  // in source order
    if (a.end > site_byte) continue;
    if (a.how == '=') {
      // Replaces the assignments before it in its own block (and the
      // blocks nested there): every path on from them passes it.
      std::uint32_t b = start_byte(a.block), e = end_byte(a.block);
      std::erase_if(live, [&](const Reaching& r) { return r.at >= b && r.at < e; });
      live.push_back({a.rhs, a.node, a.block, a.start, {}});
    } else {
      // `msg += ...` inside a branch the assignment is not in may not run:
      // the value without it reaches too (a few at most). On a branch
      // the assignment cannot reach (its `if`'s `else`), it never runs
      // after it.
      std::vector<Reaching> skipped;
      for (auto& r : live) {
        if (!may_reach(r.assignment, a.start)) continue;
        if (!ts_node_eq(a.block, r.block) && live.size() + skipped.size() < 8) skipped.push_back(r);
        r.appends.push_back({a.rhs, a.how, a.start});
      }
      live.insert(live.begin(), skipped.begin(), skipped.end());
    }
  }
  if (live.empty() && (list == nullptr || list->empty()) && ts_node_is_null(m_scope)) {
    // A closure's free variable (werkzeug's `def _get_current_object():
    // … raise RuntimeError(unbound_message)` in an `__init__` that sets
    // `unbound_message` first): what the enclosing function binds it to
    // where it defines the closure. Not a name the closure binds itself.
    const std::size_t fi = innermost_function();
    std::size_t outer = std::string::npos;
    for (std::size_t i = fi == std::string::npos ? 0 : fi; i-- > 0;)
      if (m_ctx[i].kind == Kind::FunctionDef) {
        outer = i;
        break;
      }
    bool own = false;
    if (outer != std::string::npos) {
      each_parameter(m_ctx[fi].node, [&](std::string_view p, bool) { return !(own = p == name); });
      own = own || keywords_parameter(m_ctx[fi].node) == name;
    }
    if (outer != std::string::npos && !own) {
      const TSNode body = child(m_ctx[outer].node, m_g.f_body);
      m_scope = body;
      live = reaching(name, start_byte(m_ctx[fi].node));
      m_scope = TSNode{};
      for (Reaching& r : live)
        if (!r.module_constant) r.scope = body;
      if (!live.empty()) return live;
    }
  }
  if (live.empty() && !ts_node_eq(scope, m_root) && constant_name(name)) {
    // `_ERR_MSG.format(name)` with `_ERR_MSG = _ERR_MSG_PREFIX + '{!r}'` at
    // the top of the module: a constant-style name (upper case) the
    // function never assigns, assigned once in the module, reads as that
    // value wherever the module's functions run.
    if (top_level_assignments_blanked(name)) return live;
    const std::vector<Assign>* mod = assignments(m_root, name);
    if (mod && mod->size() == 1 && mod->front().how == '=') {
      const Assign& a = mod->front();
      live.push_back({a.rhs, a.node, a.block, a.start, {}, true});
    }
    return live;
  }
  // The flow checks below climb the tree: only the latest few are weighed.
  constexpr std::size_t k_max_weighed = 64;
  if (live.size() > k_max_weighed) live.erase(live.begin(), live.end() - k_max_weighed);
  if (live.size() > 2) replaced_on_every_branch(live);
  if (live.size() > 1) {
    std::vector<Reaching> kept;
    for (auto& r : live) {
      if (may_reach(r.assignment, site_byte)) kept.push_back(std::move(r));
    }
    if (!kept.empty()) live = std::move(kept);
  }
  return live;
}

void FileScanner::replaced_on_every_branch(std::vector<Reaching>& live) const {
  // For each `if` holding an assignment directly in a branch: the branches
  // that assign, and whether that is all of them, `else` included.
  struct Branches {
    TSNode stmt;
    std::vector<std::uint32_t> assigned;  // start bytes of branch nodes
  };
  std::vector<Branches> ifs;
  for (const auto& r : live) {
    TSNode block = r.block;
    TSNode owner = ts_node_parent(block);
    TSNode stmt = owner, branch = block;
    if (kind(owner) == Kind::Elif || kind(owner) == Kind::Else) {
      stmt = ts_node_parent(owner);
      branch = owner;
    }
    if (kind(stmt) != Kind::If) continue;
    auto it = std::find_if(ifs.begin(), ifs.end(), [&](const Branches& b) { return ts_node_eq(b.stmt, stmt); });
    if (it == ifs.end()) it = ifs.insert(ifs.end(), Branches{stmt, {}});
    if (std::find(it->assigned.begin(), it->assigned.end(), start_byte(branch)) == it->assigned.end())
      it->assigned.push_back(start_byte(branch));
  }
  for (const auto& b : ifs) {
    std::size_t branches = 1;
    bool has_else = false;
    std::uint32_t count = named_count(b.stmt);
    for (std::uint32_t i = 0; i < count; ++i) {
      Kind k = kind(ts_node_named_child(b.stmt, i));
      branches += k == Kind::Elif || k == Kind::Else;
      has_else |= k == Kind::Else;
    }
    if (!has_else || b.assigned.size() != branches) continue;
    // Every path through the `if` assigns: what came before it in an
    // enclosing block does not get past it.
    TSNode block = ts_node_parent(b.stmt);
    std::uint32_t from = start_byte(block), to = start_byte(b.stmt);
    std::erase_if(live, [&](const Reaching& r) { return r.at >= from && r.at < to; });
  }
}

bool FileScanner::may_reach(TSNode assignment, std::uint32_t site_byte) const {
  // The lowest node holding both; if it is an `if` (or a `try`'s handlers)
  // whose different branches hold them, the assignment cannot reach.
  // A block left by `raise`, `return`, `break` or `continue` after the
  // assignment does not flow on to the site either.
  TSNode prev = assignment;
  for (TSNode cur = ts_node_parent(assignment); !ts_node_is_null(cur); prev = cur, cur = ts_node_parent(cur)) {
    if (!(start_byte(cur) <= site_byte && site_byte < end_byte(cur))) {
      if (kind(cur) != Kind::Block) continue;
      std::uint32_t count = named_count(cur);
      for (std::uint32_t i = 0; i < count; ++i) {
        TSNode st = ts_node_named_child(cur, i);
        if (start_byte(st) < end_byte(prev)) continue;
        std::string_view type = ts_node_type(st);
        if (type == "raise_statement" || type == "return_statement" || type == "break_statement" ||
            type == "continue_statement")
          return false;
      }
      continue;
    }
    Kind k = kind(cur);
    if (k == Kind::If) return ts_node_eq(prev, child(cur, m_g.f_condition));
    if (k == Kind::Try) return kind(prev) != Kind::Except;
    return true;
  }
  return true;
}

std::optional<MessageTemplate> FileScanner::build_reaching(const Reaching& r, int depth) {
  // The value is built as it was where it was assigned: a name it reads
  // (`msg = msg.format(...)`) is looked up before that line, a few names
  // deep at most (input decides how long a chain is).
  if (m_variable_hops >= k_max_variable_hops) return std::nullopt;
  ++m_variable_hops;
  // A module constant is built where it stands: the names it reads are the
  // module's too, not the raising function's.
  TSNode saved = m_scope;
  if (r.module_constant) m_scope = m_root;
  else if (!ts_node_is_null(r.scope)) m_scope = r.scope;
  auto t = build(r.rhs, r.at, depth + 1, true);
  m_scope = saved;
  --m_variable_hops;
  if (!t) return std::nullopt;
  for (const Added& a : r.appends) {
    if (a.how != '+') return std::nullopt;  // a list's call: not text
    auto more = build(a.value, r.at, depth + 1, false);
    if (more)
      append_parts(t->parts, std::move(more->parts));
    else
      t->parts.push_back(interp(expr_text(text(a.value))));
  }
  t->style = "variable";
  return t;
}

bool FileScanner::texts_only(TSNode n, int depth) const {
  n = unwrap_parens(n);
  const Kind k = kind(n);
  if (k == Kind::String || k == Kind::ConcatString) return true;
  if (depth > 3 || std::string_view(ts_node_type(n)) != "conditional_expression") return false;
  std::uint32_t at = 0;
  for (std::uint32_t i = 0, all = named_count(n); i < all; ++i) {
    TSNode part = ts_node_named_child(n, i);
    if (kind(part) == Kind::Comment) continue;
    if ((at == 0 || at == 2) && !texts_only(part, depth + 1)) return false;
    ++at;
  }
  return at == 3;
}

std::string FileScanner::conditional_local(std::string_view name, std::uint32_t site_byte) {
  auto found = reaching(name, site_byte);
  // One value, assigned in a block around the site (not on one branch of
  // it, where a parameter's or an earlier value may reach as well).
  if (found.size() != 1 || !found[0].appends.empty() || found[0].module_constant) return {};
  const Reaching& r = found[0];
  if (!(start_byte(r.block) <= site_byte && site_byte < end_byte(r.block))) return {};
  TSNode value = unwrap_parens(r.rhs);
  if (std::string_view(ts_node_type(value)) != "conditional_expression" || !texts_only(value, 0)) return {};
  return expr_text(text(value));
}

void FileScanner::inline_conditional_locals(std::vector<TemplatePart>& parts, std::uint32_t site_byte) {
  for (TemplatePart& p : parts) {
    // `{plural!r}`, `{n:>3}` and `%d` show the value otherwise than as its text.
    if (p.literal || !(p.display.empty() || p.display == p.text) || (p.printf_conv != 0 && p.printf_conv != 's') ||
        !is_dotted_name(p.text) || p.text.find('.') != std::string::npos)
      continue;
    if (std::string inline_text = conditional_local(p.text, site_byte); !inline_text.empty()) {
      p.text = std::move(inline_text);
      p.display.clear();
      ++m_inlined;
    }
  }
}

std::optional<MessageTemplate> FileScanner::build_variable(std::string_view name, std::uint32_t site_byte, int depth) {
  auto found = reaching(name, site_byte);
  if (found.empty()) return std::nullopt;
  return build_reaching(found.back(), depth);
}

}  // namespace errdex::scan::python::detail
