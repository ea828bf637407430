#include "scan/python_frontend.h"
#include "scan/python_outline.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "scan/python_text.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex::scan {
namespace {

using model::ClassDef;
using model::FileFacts;
using model::Guard;
using model::MessageTemplate;
using model::TemplatePart;
using model::ThrowSite;

// Recursion over expressions (parenthesised `+` operands, a message variable
// whose value is itself built) stops here; deeper input becomes opaque.
constexpr int k_max_depth = 200;
// tree-sitter addresses bytes with 32 bits.
constexpr std::size_t k_max_source = 0xFFFFFFF0u;
// tree-sitter-python's scanner overflows its 1 KiB state buffer (and trips
// an assertion) once its indent stack holds ~380 levels. CPython rejects
// more than 100 levels, so files beyond this are not Python: refuse them.
constexpr std::size_t k_max_indent_levels = 250;

enum class Kind : std::uint8_t {
  Other, Raise, Assert, Call, FunctionDef, ClassDef, DecoratedDef, Decorator,
  If, Elif, Else, While, For, Try, Except, Case, String, ConcatString,
  BinaryOp, Paren, Identifier, Attribute, Interpolation, TypeConversion,
  FormatSpecifier, ArgumentList, KeywordArg, ExprStatement, Assignment,
  AugAssignment, Tuple, Dictionary, Pair, Block, AsPattern, StringStart,
  StringEnd, Lambda, Comment, ListSplat, DictSplat, Parameters, IfClause,
};

struct Language {
  const TSLanguage* lang = nullptr;
  std::vector<Kind> kinds;  // indexed by public symbol id
  TSFieldId f_function = 0, f_arguments = 0, f_cause = 0, f_name = 0, f_parameters = 0,
            f_body = 0, f_superclasses = 0, f_definition = 0, f_condition = 0,
            f_consequence = 0, f_left = 0, f_right = 0, f_operator = 0, f_attribute = 0,
            f_object = 0, f_key = 0, f_value = 0, f_expression = 0, f_type_conversion = 0,
            f_format_specifier = 0, f_guard = 0, f_subject = 0;
};

TSFieldId field(const TSLanguage* l, const char* name) {
  return ts_language_field_id_for_name(l, name, static_cast<std::uint32_t>(std::strlen(name)));
}

Language make_language() {
  Language g;
  g.lang = tree_sitter_python();
  static const std::pair<const char*, Kind> k_names[] = {
      {"raise_statement", Kind::Raise}, {"assert_statement", Kind::Assert},
      {"call", Kind::Call}, {"function_definition", Kind::FunctionDef},
      {"class_definition", Kind::ClassDef}, {"decorated_definition", Kind::DecoratedDef},
      {"decorator", Kind::Decorator}, {"if_statement", Kind::If}, {"elif_clause", Kind::Elif},
      {"else_clause", Kind::Else}, {"while_statement", Kind::While},
      {"for_statement", Kind::For}, {"try_statement", Kind::Try},
      {"except_clause", Kind::Except}, {"except_group_clause", Kind::Except},
      {"case_clause", Kind::Case}, {"string", Kind::String},
      {"concatenated_string", Kind::ConcatString}, {"binary_operator", Kind::BinaryOp},
      {"parenthesized_expression", Kind::Paren}, {"identifier", Kind::Identifier},
      {"attribute", Kind::Attribute}, {"interpolation", Kind::Interpolation},
      {"type_conversion", Kind::TypeConversion}, {"format_specifier", Kind::FormatSpecifier},
      {"argument_list", Kind::ArgumentList}, {"keyword_argument", Kind::KeywordArg},
      {"expression_statement", Kind::ExprStatement}, {"assignment", Kind::Assignment},
      {"augmented_assignment", Kind::AugAssignment}, {"tuple", Kind::Tuple},
      {"dictionary", Kind::Dictionary}, {"pair", Kind::Pair}, {"block", Kind::Block},
      {"as_pattern", Kind::AsPattern}, {"string_start", Kind::StringStart},
      {"string_end", Kind::StringEnd}, {"lambda", Kind::Lambda}, {"comment", Kind::Comment},
      {"list_splat", Kind::ListSplat}, {"dictionary_splat", Kind::DictSplat},
      {"parameters", Kind::Parameters}, {"if_clause", Kind::IfClause},
  };
  std::uint32_t count = ts_language_symbol_count(g.lang);
  g.kinds.assign(count, Kind::Other);
  for (std::uint32_t s = 0; s < count; ++s) {
    if (ts_language_symbol_type(g.lang, static_cast<TSSymbol>(s)) != TSSymbolTypeRegular) continue;
    const char* name = ts_language_symbol_name(g.lang, static_cast<TSSymbol>(s));
    if (!name) continue;
    for (const auto& [n, k] : k_names)
      if (std::strcmp(n, name) == 0) g.kinds[s] = k;
  }
  g.f_function = field(g.lang, "function");
  g.f_arguments = field(g.lang, "arguments");
  g.f_cause = field(g.lang, "cause");
  g.f_name = field(g.lang, "name");
  g.f_parameters = field(g.lang, "parameters");
  g.f_body = field(g.lang, "body");
  g.f_superclasses = field(g.lang, "superclasses");
  g.f_definition = field(g.lang, "definition");
  g.f_condition = field(g.lang, "condition");
  g.f_consequence = field(g.lang, "consequence");
  g.f_left = field(g.lang, "left");
  g.f_right = field(g.lang, "right");
  g.f_operator = field(g.lang, "operator");
  g.f_attribute = field(g.lang, "attribute");
  g.f_object = field(g.lang, "object");
  g.f_key = field(g.lang, "key");
  g.f_value = field(g.lang, "value");
  g.f_expression = field(g.lang, "expression");
  g.f_type_conversion = field(g.lang, "type_conversion");
  g.f_format_specifier = field(g.lang, "format_specifier");
  g.f_guard = field(g.lang, "guard");
  g.f_subject = field(g.lang, "subject");
  return g;
}

const Language& language() {
  static const Language g = make_language();
  return g;
}

// One parser per thread: creating a parser per file costs more than parsing
// a small file.
class ThreadParser {
 public:
  ThreadParser() : m_parser(ts_parser_new()) { ts_parser_set_language(m_parser, language().lang); }
  ~ThreadParser() { ts_parser_delete(m_parser); }
  ThreadParser(const ThreadParser&) = delete;
  ThreadParser& operator=(const ThreadParser&) = delete;
  TSParser* get() { return m_parser; }

 private:
  TSParser* m_parser;
};

// Null-safe accessors: tree-sitter dereferences null nodes, and fields
// are missing wherever the parser recovered from a syntax error.
std::uint32_t named_count(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_named_child_count(n); }
std::uint32_t child_count(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_child_count(n); }
std::uint32_t start_byte(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_start_byte(n); }
std::uint32_t end_byte(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_end_byte(n); }

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

// Expression text for templates and class names: verbatim unless it spans
// lines, then whitespace-collapsed so the brace form stays on one line.
std::string expr_text(std::string_view t) {
  if (t.find_first_of("\n\r") == std::string_view::npos) return std::string(t);
  return python::collapse_ws(t);
}

TemplatePart interp(std::string text, std::string display = {}, char conv = 0) {
  TemplatePart p;
  p.literal = false;
  p.text = std::move(text);
  if (display != p.text) p.display = std::move(display);
  p.printf_conv = conv;
  return p;
}

void append_literal(std::vector<TemplatePart>& parts, std::string_view text) {
  if (text.empty()) return;
  if (parts.empty() || !parts.back().literal) parts.push_back(TemplatePart{});
  parts.back().text += text;
}

void append_parts(std::vector<TemplatePart>& parts, std::vector<TemplatePart> more) {
  for (auto& p : more) {
    if (p.literal)
      append_literal(parts, p.text);
    else
      parts.push_back(std::move(p));
  }
}

bool all_literal(const std::vector<TemplatePart>& parts) {
  return std::all_of(parts.begin(), parts.end(), [](const TemplatePart& p) { return p.literal; });
}

std::string joined_literal(const std::vector<TemplatePart>& parts) {
  std::string s;
  for (const auto& p : parts) s += p.text;
  return s;
}

class FileScanner {
 public:
  FileScanner(std::string_view src, TSNode root) : m_src(src), m_root(root), m_g(language()) {}

  FileFacts run();

 private:
  struct Ctx {
    Kind kind;
    TSNode node;
    std::uint32_t depth;
  };
  struct FunctionInfo {
    std::string name, params, doc;
    std::vector<std::string> decorators;
    int line = 0;
  };

  Kind kind(TSNode n) const {
    if (ts_node_is_null(n)) return Kind::Other;
    TSSymbol s = ts_node_symbol(n);
    return s < m_g.kinds.size() ? m_g.kinds[s] : Kind::Other;
  }
  std::string_view text(TSNode n) const {
    if (ts_node_is_null(n)) return {};
    std::uint32_t b = start_byte(n), e = end_byte(n);
    if (b > m_src.size() || e > m_src.size() || e < b) return {};
    return m_src.substr(b, e - b);
  }
  std::string_view span(std::uint32_t b, std::uint32_t e) const {
    if (b > m_src.size() || e > m_src.size() || e < b) return {};
    return m_src.substr(b, e - b);
  }
  static int line_of(TSNode n) {
    return ts_node_is_null(n) ? 0 : static_cast<int>(ts_node_start_point(n).row) + 1;
  }
  static int end_line_of(TSNode n) {
    return ts_node_is_null(n) ? 0 : static_cast<int>(ts_node_end_point(n).row) + 1;
  }
  TSNode child(TSNode n, TSFieldId f) const {
    return ts_node_is_null(n) ? TSNode{} : ts_node_child_by_field_id(n, f);
  }
  // First named child that is not a comment, or null.
  TSNode first_named(TSNode n) const {
    std::uint32_t c = named_count(n);
    for (std::uint32_t i = 0; i < c; ++i) {
      TSNode ch = ts_node_named_child(n, i);
      if (kind(ch) != Kind::Comment) return ch;
    }
    return TSNode{};
  }
  TSNode unwrap_parens(TSNode n) const {
    while (kind(n) == Kind::Paren) {
      TSNode inner = first_named(n);
      if (ts_node_is_null(inner) || named_count(n) != 1) break;
      n = inner;
    }
    return n;
  }
  bool subtree_has_keyword(TSNode n) const {
    std::uint32_t b = start_byte(n), e = end_byte(n);
    auto it = std::lower_bound(m_keywords.begin(), m_keywords.end(), b);
    return it != m_keywords.end() && *it < e;
  }

  void find_keywords();
  void visit_class(TSNode n);
  void emit_raise(TSNode n);
  void emit_assert(TSNode n);
  bool emit_warn(TSNode call);
  void fill_context(ThrowSite& site, std::uint32_t site_byte);
  std::vector<Guard> guards(std::uint32_t site_byte) const;
  Guard make_guard(const char* kind, TSNode cond) const;
  std::vector<std::string> read_names(TSNode n) const;
  std::string caught_text(TSNode except_clause) const;
  FunctionInfo function_info(std::size_t ctx_index) const;
  std::string docstring(TSNode body) const;

  // The scope a message variable is looked up in: the innermost function's
  // body, else the module.
  TSNode scope_node() const;
  MessageTemplate message_from(TSNode expr, std::uint32_t site_byte);
  std::optional<MessageTemplate> build(TSNode n, std::uint32_t site_byte, int depth, bool allow_var);
  bool string_parts(TSNode n, std::vector<TemplatePart>& parts, bool& is_f) const;
  bool literal_parts(TSNode n, std::vector<TemplatePart>& parts, bool& is_f) const;
  std::optional<MessageTemplate> build_concat(TSNode n, std::uint32_t site_byte, int depth);
  std::optional<std::string> format_string(TSNode n, std::uint32_t site_byte, int depth, bool allow_var);
  std::optional<MessageTemplate> build_percent(TSNode n, std::uint32_t site_byte, int depth, bool allow_var);
  std::optional<MessageTemplate> build_format(TSNode call, std::uint32_t site_byte, int depth, bool allow_var);
  std::optional<MessageTemplate> build_variable(std::string_view name, std::uint32_t site_byte, int depth);

  std::string_view m_src;
  TSNode m_root;
  const Language& m_g;
  std::vector<std::uint32_t> m_keywords;  // sorted byte offsets
  std::vector<TSNode> m_path;             // ancestors of the current node, by depth
  std::vector<Ctx> m_ctx;                 // enclosing scopes and branches
  FileFacts m_facts;
};

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

FileFacts FileScanner::run() {
  m_facts.had_syntax_errors = ts_node_has_error(m_root);
  find_keywords();
  if (m_keywords.empty()) return std::move(m_facts);
  // Iterative pre-order walk: nesting depth is input-controlled. Subtrees
  // without any keyword byte are skipped whole.
  TSTreeCursor cur = ts_tree_cursor_new(m_root);
  std::uint32_t depth = 0;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
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
    if (descend && subtree_has_keyword(n) && ts_tree_cursor_goto_first_child(&cur)) {
      ++depth;
      continue;
    }
    while (depth > 0 && !ts_tree_cursor_goto_next_sibling(&cur)) {
      ts_tree_cursor_goto_parent(&cur);
      --depth;
    }
    if (depth == 0) break;
  }
  ts_tree_cursor_delete(&cur);
  return std::move(m_facts);
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
  m_facts.classes.push_back(std::move(c));
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
  TSTreeCursor cur = ts_tree_cursor_new(n);
  std::uint32_t depth = 0;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cur);
    TSFieldId fid = depth > 0 ? ts_tree_cursor_current_field_id(&cur) : 0;
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
    if (descend && ts_tree_cursor_goto_first_child(&cur)) {
      ++depth;
      continue;
    }
    while (depth > 0 && !ts_tree_cursor_goto_next_sibling(&cur)) {
      ts_tree_cursor_goto_parent(&cur);
      --depth;
    }
    if (depth == 0) break;
  }
  ts_tree_cursor_delete(&cur);
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
  // innermost (latest) first.
  auto earlier_branches = [&](TSNode if_node, TSNode stop) {
    std::vector<Guard> prior;
    prior.push_back(make_guard("else", child(if_node, m_g.f_condition)));
    std::uint32_t count = named_count(if_node);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode ch = ts_node_named_child(if_node, i);
      if (ts_node_eq(ch, stop)) break;
      if (kind(ch) == Kind::Elif) prior.push_back(make_guard("else", child(ch, m_g.f_condition)));
    }
    for (auto it = prior.rbegin(); it != prior.rend(); ++it) out.push_back(std::move(*it));
  };
  TSNode skip{};  // an if/while whose branch was already accounted for
  for (std::size_t i = m_ctx.size(); i-- > 0;) {
    const Ctx& c = m_ctx[i];
    if (c.kind == Kind::FunctionDef || c.kind == Kind::ClassDef) break;
    if (!ts_node_is_null(skip) && ts_node_eq(c.node, skip)) continue;
    TSNode parent = c.depth > 0 ? m_path[c.depth - 1] : TSNode{};
    switch (c.kind) {
      case Kind::If:
        if (inside(child(c.node, m_g.f_consequence))) out.push_back(make_guard("if", child(c.node, m_g.f_condition)));
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

TSNode FileScanner::scope_node() const {
  for (std::size_t i = m_ctx.size(); i-- > 0;)
    if (m_ctx[i].kind == Kind::FunctionDef) return child(m_ctx[i].node, m_g.f_body);
  return m_root;
}

void FileScanner::emit_raise(TSNode n) {
  ThrowSite site;
  site.kind = "raise";
  site.line = line_of(n);
  site.end_line = end_line_of(n);
  std::uint32_t at = start_byte(n);
  TSNode cause = child(n, m_g.f_cause);
  site.cause = expr_text(text(cause));
  TSNode expr{};
  std::uint32_t count = named_count(n);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode ch = ts_node_named_child(n, i);
    if (kind(ch) == Kind::Comment || (!ts_node_is_null(cause) && ts_node_eq(ch, cause))) continue;
    expr = ch;
    break;
  }
  if (ts_node_is_null(expr)) {
    site.reraise = true;
    for (std::size_t i = m_ctx.size(); i-- > 0;) {
      const Ctx& c = m_ctx[i];
      if (c.kind == Kind::FunctionDef || c.kind == Kind::ClassDef) break;
      if (c.kind != Kind::Except) continue;
      std::string caught = caught_text(c.node);
      if (is_dotted_name(caught)) site.error_class = std::move(caught);
      break;
    }
  } else {
    site.raised_text = std::string(text(expr));
    if (kind(expr) == Kind::Call) {
      site.error_class = python::collapse_ws(text(child(expr, m_g.f_function)));
      TSNode args = child(expr, m_g.f_arguments);
      TSNode first{};
      TSNode keyword_msg{};
      if (kind(args) == Kind::ArgumentList) {
        std::uint32_t na = named_count(args);
        for (std::uint32_t i = 0; i < na; ++i) {
          TSNode a = ts_node_named_child(args, i);
          Kind ak = kind(a);
          if (ak == Kind::Comment) continue;
          site.args.push_back(expr_text(text(a)));
          if (ak == Kind::KeywordArg) {
            auto name = text(child(a, m_g.f_name));
            if (ts_node_is_null(keyword_msg) && (name == "message" || name == "msg"))
              keyword_msg = child(a, m_g.f_value);
          } else if (ts_node_is_null(first) && ak != Kind::ListSplat && ak != Kind::DictSplat) {
            first = a;
          }
        }
      } else if (!ts_node_is_null(args)) {
        site.args.push_back(expr_text(text(args)));
        first = args;
      }
      site.message = message_from(ts_node_is_null(first) ? keyword_msg : first, at);
    } else {
      site.error_class = python::collapse_ws(text(expr));
    }
  }
  fill_context(site, at);
  m_facts.sites.push_back(std::move(site));
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
  site.message = message_from(msg, at);
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
  std::uint32_t na = named_count(args);
  for (std::uint32_t i = 0; i < na; ++i) {
    TSNode a = ts_node_named_child(args, i);
    Kind ak = kind(a);
    if (ak == Kind::Comment) continue;
    site.args.push_back(expr_text(text(a)));
    if (ak == Kind::KeywordArg) {
      auto k = text(child(a, m_g.f_name));
      if (k == "message") msg = child(a, m_g.f_value);
      else if (k == "category") category = child(a, m_g.f_value);
    } else if (ak != Kind::ListSplat && ak != Kind::DictSplat) {
      if (positional == 0) msg = a;
      else if (positional == 1) category = a;
      ++positional;
    }
  }
  site.error_class = ts_node_is_null(category) ? "UserWarning" : python::collapse_ws(text(category));
  std::uint32_t at = start_byte(stmt);
  site.message = message_from(msg, at);
  fill_context(site, at);
  m_facts.sites.push_back(std::move(site));
  return true;
}

MessageTemplate FileScanner::message_from(TSNode expr, std::uint32_t site_byte) {
  MessageTemplate t;
  if (ts_node_is_null(expr)) return t;
  if (auto built = build(expr, site_byte, 0, true)) {
    built->from_literals = true;
    return std::move(*built);
  }
  t.style = "expression";
  t.parts.push_back(interp(expr_text(text(expr))));
  t.from_literals = false;
  return t;
}

bool FileScanner::string_parts(TSNode n, std::vector<TemplatePart>& parts, bool& is_f) const {
  std::uint32_t count = child_count(n);
  if (count == 0) return false;
  TSNode start = ts_node_child(n, 0);
  if (kind(start) != Kind::StringStart) return false;
  python::StringPrefix prefix = python::parse_prefix(text(start));
  if (prefix.fstring) is_f = true;
  std::uint32_t pos = end_byte(start);
  std::uint32_t end = end_byte(n);
  for (std::uint32_t i = 1; i < count; ++i) {
    TSNode ch = ts_node_child(n, i);
    Kind ck = kind(ch);
    if (ck == Kind::StringEnd) {
      end = start_byte(ch);
      break;
    }
    if (ck != Kind::Interpolation) continue;
    is_f = true;
    python::decode_literal(span(pos, start_byte(ch)), prefix, parts);
    pos = end_byte(ch);
    TSNode expr = child(ch, m_g.f_expression);
    std::string etext = expr_text(text(expr));
    auto conv = text(child(ch, m_g.f_type_conversion));
    auto spec = text(child(ch, m_g.f_format_specifier));
    bool self_doc = false;
    std::uint32_t eq_end = 0;
    std::uint32_t nc = child_count(ch);
    for (std::uint32_t k = 0; k < nc; ++k) {
      TSNode t = ts_node_child(ch, k);
      if (!ts_node_is_named(t) && text(t) == "=") {
        self_doc = true;
        eq_end = end_byte(t);
      }
    }
    std::string display = etext;
    if (self_doc) {
      // `{x=}` prints the expression text as written, then its repr.
      append_literal(parts, span(start_byte(ch) + 1, eq_end));
      display += !conv.empty() ? std::string(conv) : !spec.empty() ? std::string(spec) : std::string("!r");
    } else {
      display += conv;
      display += spec;
    }
    char pc = 0;
    if (conv.empty() && spec.size() > 1) pc = python::spec_conversion(spec.substr(1));
    parts.push_back(interp(std::move(etext), std::move(display), pc));
  }
  python::decode_literal(span(pos, std::max(pos, end)), prefix, parts);
  return true;
}

bool FileScanner::literal_parts(TSNode n, std::vector<TemplatePart>& parts, bool& is_f) const {
  n = unwrap_parens(n);
  Kind k = kind(n);
  if (k == Kind::String) return string_parts(n, parts, is_f);
  if (k != Kind::ConcatString) return false;
  std::uint32_t count = named_count(n);
  bool any = false;
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode s = ts_node_named_child(n, i);
    if (kind(s) != Kind::String) continue;
    if (!string_parts(s, parts, is_f)) return false;
    any = true;
  }
  return any;
}

std::optional<MessageTemplate> FileScanner::build(TSNode n, std::uint32_t site_byte, int depth, bool allow_var) {
  if (depth > k_max_depth) return std::nullopt;
  n = unwrap_parens(n);
  switch (kind(n)) {
    case Kind::String:
    case Kind::ConcatString: {
      MessageTemplate t;
      bool is_f = false;
      if (!literal_parts(n, t.parts, is_f)) return std::nullopt;
      t.style = is_f ? "fstring" : "string";
      return t;
    }
    case Kind::BinaryOp: {
      auto op = text(child(n, m_g.f_operator));
      if (op == "+") return build_concat(n, site_byte, depth);
      if (op == "%") return build_percent(n, site_byte, depth, allow_var);
      return std::nullopt;
    }
    case Kind::Call: return build_format(n, site_byte, depth, allow_var);
    case Kind::Identifier:
      if (!allow_var) return std::nullopt;
      return build_variable(text(n), site_byte, depth);
    default: return std::nullopt;
  }
}

std::optional<MessageTemplate> FileScanner::build_concat(TSNode n, std::uint32_t site_byte, int depth) {
  // `a + b + c` nests to the left; flatten without recursion.
  std::vector<TSNode> operands;
  TSNode cur = n;
  while (kind(cur) == Kind::BinaryOp && text(child(cur, m_g.f_operator)) == "+") {
    operands.push_back(child(cur, m_g.f_right));
    cur = child(cur, m_g.f_left);
  }
  operands.push_back(cur);
  std::reverse(operands.begin(), operands.end());
  MessageTemplate t;
  t.style = "concat";
  bool any_string = false;
  for (TSNode op : operands) {
    if (ts_node_is_null(op)) return std::nullopt;
    std::optional<MessageTemplate> sub;
    if (kind(unwrap_parens(op)) != Kind::Identifier) sub = build(op, site_byte, depth + 1, false);
    if (sub) {
      any_string = true;
      append_parts(t.parts, std::move(sub->parts));
    } else {
      t.parts.push_back(interp(expr_text(text(op))));
    }
  }
  if (!any_string) return std::nullopt;
  return t;
}

std::optional<std::string> FileScanner::format_string(TSNode n, std::uint32_t site_byte, int depth, bool allow_var) {
  n = unwrap_parens(n);
  std::vector<TemplatePart> parts;
  if (kind(n) == Kind::Identifier) {
    if (!allow_var) return std::nullopt;
    auto var = build_variable(text(n), site_byte, depth + 1);
    if (!var) return std::nullopt;
    parts = std::move(var->parts);
  } else {
    bool is_f = false;
    if (!literal_parts(n, parts, is_f)) return std::nullopt;
  }
  if (!all_literal(parts)) return std::nullopt;
  return joined_literal(parts);
}

std::optional<MessageTemplate> FileScanner::build_percent(TSNode n, std::uint32_t site_byte, int depth, bool allow_var) {
  auto fmt = format_string(child(n, m_g.f_left), site_byte, depth, allow_var);
  if (!fmt) return std::nullopt;
  auto pieces = python::parse_printf(*fmt);
  if (!pieces) return std::nullopt;
  TSNode right = unwrap_parens(child(n, m_g.f_right));
  Kind rk = kind(right);
  std::vector<TSNode> values;
  std::unordered_map<std::string, TSNode> by_key;
  if (rk == Kind::Tuple) {
    std::uint32_t count = named_count(right);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode v = ts_node_named_child(right, i);
      if (kind(v) != Kind::Comment) values.push_back(v);
    }
  } else if (rk == Kind::Dictionary) {
    std::uint32_t count = named_count(right);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode p = ts_node_named_child(right, i);
      if (kind(p) != Kind::Pair) continue;
      std::vector<TemplatePart> key;
      bool is_f = false;
      if (literal_parts(child(p, m_g.f_key), key, is_f) && all_literal(key))
        by_key.emplace(joined_literal(key), child(p, m_g.f_value));
    }
  }
  int consumed = 0;
  for (const auto& p : *pieces)
    if (!p.literal) consumed += 1 + p.star_args;
  std::string right_text = expr_text(text(right));
  MessageTemplate t;
  t.style = "percent";
  int index = 0;
  for (auto& p : *pieces) {
    if (p.literal) {
      append_literal(t.parts, p.text);
      continue;
    }
    std::string value;
    if (!p.key.empty()) {
      auto it = by_key.find(p.key);
      value = it != by_key.end() ? expr_text(text(it->second)) : p.key;
    } else {
      index += p.star_args;
      if (rk == Kind::Tuple) {
        if (index >= static_cast<int>(values.size())) return std::nullopt;
        value = expr_text(text(values[static_cast<std::size_t>(index)]));
      } else if (consumed == 1) {
        value = right_text;
      } else {
        value = right_text + "[" + std::to_string(index) + "]";
      }
      ++index;
    }
    // Padding or sign flags change the digits' surroundings: only a plain
    // conversion narrows the group.
    char conv = p.conv;
    if (!p.plain && conv != 'r' && conv != 'a') conv = 's';
    t.parts.push_back(interp(std::move(value), {}, conv));
  }
  return t;
}

std::optional<MessageTemplate> FileScanner::build_format(TSNode call, std::uint32_t site_byte, int depth, bool allow_var) {
  TSNode fn = child(call, m_g.f_function);
  if (kind(fn) != Kind::Attribute || text(child(fn, m_g.f_attribute)) != "format") return std::nullopt;
  auto fmt = format_string(child(fn, m_g.f_object), site_byte, depth, allow_var);
  if (!fmt) return std::nullopt;
  auto pieces = python::parse_format(*fmt);
  if (!pieces) return std::nullopt;
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList) return std::nullopt;
  std::vector<TSNode> positional;
  std::unordered_map<std::string, TSNode> keyword;
  std::uint32_t count = named_count(args);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode a = ts_node_named_child(args, i);
    Kind ak = kind(a);
    if (ak == Kind::KeywordArg)
      keyword.emplace(std::string(text(child(a, m_g.f_name))), child(a, m_g.f_value));
    else if (ak != Kind::Comment && ak != Kind::ListSplat && ak != Kind::DictSplat)
      positional.push_back(a);
  }
  MessageTemplate t;
  t.style = "format";
  std::size_t auto_index = 0;
  for (auto& p : *pieces) {
    if (p.literal) {
      append_literal(t.parts, p.text);
      continue;
    }
    std::string base;
    bool numeric = !p.arg.empty() && p.arg.size() < 9 &&
                   std::all_of(p.arg.begin(), p.arg.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (p.arg.empty() || numeric) {
      std::size_t idx = p.arg.empty() ? auto_index++ : static_cast<std::size_t>(std::stoul(p.arg));
      base = idx < positional.size() ? expr_text(text(positional[idx])) : std::to_string(idx);
    } else {
      auto it = keyword.find(p.arg);
      base = it != keyword.end() ? expr_text(text(it->second)) : p.arg;
    }
    std::string value = base + p.rest;
    std::string display = value;
    if (!p.conversion.empty()) display += "!" + p.conversion;
    if (!p.spec.empty()) display += ":" + p.spec;
    char pc = p.conversion.empty() ? python::spec_conversion(p.spec) : 0;
    t.parts.push_back(interp(std::move(value), std::move(display), pc));
  }
  return t;
}

std::optional<MessageTemplate> FileScanner::build_variable(std::string_view name, std::uint32_t site_byte, int depth) {
  TSNode scope = scope_node();
  if (ts_node_is_null(scope)) return std::nullopt;
  TSNode best{};
  std::vector<TSNode> appends;  // `name += ...` after `best`, in order
  TSTreeCursor cur = ts_tree_cursor_new(scope);
  std::uint32_t d = 0;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cur);
    bool descend = start_byte(node) < site_byte;
    Kind k = kind(node);
    if (d > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda || k == Kind::DecoratedDef))
      descend = false;
    if (descend && (k == Kind::Assignment || k == Kind::AugAssignment) && end_byte(node) <= site_byte) {
      TSNode left = child(node, m_g.f_left);
      TSNode right = child(node, m_g.f_right);
      if (kind(left) == Kind::Identifier && text(left) == name && !ts_node_is_null(right)) {
        if (k == Kind::Assignment) {
          best = right;
          appends.clear();
        } else if (text(child(node, m_g.f_operator)) == "+=" && !ts_node_is_null(best)) {
          appends.push_back(right);
        }
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&cur)) {
      ++d;
      continue;
    }
    while (d > 0 && !ts_tree_cursor_goto_next_sibling(&cur)) {
      ts_tree_cursor_goto_parent(&cur);
      --d;
    }
    if (d == 0) break;
  }
  ts_tree_cursor_delete(&cur);
  if (ts_node_is_null(best)) return std::nullopt;
  auto t = build(best, site_byte, depth + 1, false);
  if (!t) return std::nullopt;
  for (TSNode a : appends) {
    auto more = build(a, site_byte, depth + 1, false);
    if (more)
      append_parts(t->parts, std::move(more->parts));
    else
      t->parts.push_back(interp(expr_text(text(a))));
  }
  t->style = "variable";
  return t;
}

// An over-estimate of the scanner's indent stack depth: lines inside
// brackets count too.
bool too_deeply_indented(std::string_view src) {
  std::vector<std::uint32_t> stack{0};
  std::size_t i = 0;
  while (i < src.size()) {
    std::uint32_t width = 0;
    while (i < src.size() && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f')) {
      width = src[i] == '\t' ? (width / 8 + 1) * 8 : width + 1;
      ++i;
    }
    bool blank = i >= src.size() || src[i] == '\n' || src[i] == '\r' || src[i] == '#';
    if (!blank) {
      while (stack.back() > width) stack.pop_back();
      if (width > stack.back()) {
        stack.push_back(width);
        if (stack.size() > k_max_indent_levels) return true;
      }
    }
    std::size_t nl = src.find('\n', i);
    i = nl == std::string_view::npos ? src.size() : nl + 1;
  }
  return false;
}

}  // namespace

model::FileFacts scan_python(std::string_view source) {
  if (source.size() <= k_max_source) {
    if (auto outline = blank_unreachable(source)) return scan_python_whole(*outline);
  }
  return scan_python_whole(source);
}

model::FileFacts scan_python_whole(std::string_view source) {
  if (source.size() > k_max_source || too_deeply_indented(source)) {
    model::FileFacts facts;
    facts.had_syntax_errors = true;
    return facts;
  }
  thread_local ThreadParser parser;
  TSTree* tree = ts_parser_parse_string(parser.get(), nullptr, source.data(),
                                        static_cast<std::uint32_t>(source.size()));
  if (!tree) {
    ts_parser_reset(parser.get());
    model::FileFacts facts;
    facts.had_syntax_errors = true;
    return facts;
  }
  model::FileFacts facts = FileScanner(source, ts_tree_root_node(tree)).run();
  ts_tree_delete(tree);
  return facts;
}

bool may_have_sites(std::string_view source) {
  return source.find("raise") != std::string_view::npos || source.find("warn") != std::string_view::npos ||
         source.find("assert") != std::string_view::npos;
}

}  // namespace errdex::scan
