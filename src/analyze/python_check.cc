#include "analyze/python_check.h"

#include <unordered_map>

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex::analyze {
namespace {

// Snippets are a few lines; anything nested deeper is not worth walking.
constexpr int k_max_depth = 400;
// tree-sitter addresses bytes with 32 bits; snippets are far smaller.
constexpr std::size_t k_max_code = 1u << 20;

class ThreadParser {
 public:
  ThreadParser() : m_parser(ts_parser_new()) { ts_parser_set_language(m_parser, tree_sitter_python()); }
  ~ThreadParser() { ts_parser_delete(m_parser); }
  ThreadParser(const ThreadParser&) = delete;
  ThreadParser& operator=(const ThreadParser&) = delete;
  TSParser* get() { return m_parser; }

 private:
  TSParser* m_parser;
};

struct Tree {
  TSTree* tree = nullptr;
  explicit Tree(std::string_view code) {
    if (code.size() > k_max_code) return;
    thread_local ThreadParser parser;
    tree = ts_parser_parse_string(parser.get(), nullptr, code.data(), static_cast<std::uint32_t>(code.size()));
  }
  ~Tree() {
    if (tree) ts_tree_delete(tree);
  }
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;
  bool ok() const { return tree && !ts_node_has_error(ts_tree_root_node(tree)) && indented(ts_tree_root_node(tree)); }

  // Where Python says "expected an indented block", tree-sitter may give
  // `class B:` an empty block, or take a statement at its column as the
  // body: a block holds a statement, and one on a later line than its
  // owner starts to the right of it.
  static bool indented(TSNode root) {
    TSTreeCursor c = ts_tree_cursor_new(root);
    bool ok = true;
    for (bool more = true; more && ok;) {
      TSNode n = ts_tree_cursor_current_node(&c);
      if (std::strcmp(ts_node_type(n), "block") == 0) {
        // Its first statement: a comment may sit at any column.
        TSNode first{};
        for (std::uint32_t i = 0; i < ts_node_named_child_count(n) && ts_node_is_null(first); ++i)
          if (TSNode k = ts_node_named_child(n, i); std::strcmp(ts_node_type(k), "comment") != 0) first = k;
        TSNode owner = ts_node_parent(n);
        if (ts_node_is_null(first)) ok = false;  // `class B(object):` and nothing under it
        else if (!ts_node_is_null(owner)) {
          const TSPoint at = ts_node_start_point(first), top = ts_node_start_point(owner);
          if (at.row > top.row && at.column <= top.column) ok = false;
        }
      }
      if (ts_tree_cursor_goto_first_child(&c)) continue;
      while (!ts_tree_cursor_goto_next_sibling(&c))
        if (!ts_tree_cursor_goto_parent(&c)) {
          more = false;
          break;
        }
    }
    ts_tree_cursor_delete(&c);
    return ok;
  }
};

bool is_blank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

bool type_is(TSNode n, const char* t) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), t) == 0; }

std::string node_text(TSNode n, std::string_view code) {
  std::uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (e > code.size() || b > e) return {};
  return std::string(code.substr(b, e - b));
}

void add_unique(std::vector<std::string>& v, std::string s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(std::move(s));
}

// Identifiers a target binds: `a`, `a, b`, `(a, [b, *c])`; not `a.b`, `a[i]`.
void target_names(TSNode n, std::string_view code, std::vector<std::string>& out, int depth = 0) {
  if (ts_node_is_null(n) || depth > k_max_depth) return;
  if (type_is(n, "identifier")) return add_unique(out, node_text(n, code));
  if (type_is(n, "attribute") || type_is(n, "subscript")) return;
  std::uint32_t c = ts_node_named_child_count(n);
  for (std::uint32_t i = 0; i < c; ++i) target_names(ts_node_named_child(n, i), code, out, depth + 1);
}

void walk(TSNode n, const char* field, TSNode parent, std::string_view code, CodeNames& out, int depth) {
  if (ts_node_is_null(n) || depth > k_max_depth) return;
  const char* t = ts_node_type(n);
  if (std::strcmp(t, "identifier") == 0) {
    bool attribute_name = type_is(parent, "attribute") && field && std::strcmp(field, "attribute") == 0;
    bool keyword_name = type_is(parent, "keyword_argument") && field && std::strcmp(field, "name") == 0;
    if (!attribute_name && !keyword_name) add_unique(out.used, node_text(n, code));
    return;
  }
  auto named = [&](const char* f) { return ts_node_child_by_field_name(n, f, static_cast<std::uint32_t>(std::strlen(f))); };
  if (std::strcmp(t, "assignment") == 0 || std::strcmp(t, "augmented_assignment") == 0 ||
      std::strcmp(t, "for_statement") == 0 || std::strcmp(t, "for_in_clause") == 0) {
    target_names(named("left"), code, out.bound);
  } else if (std::strcmp(t, "as_pattern") == 0) {
    target_names(named("alias"), code, out.bound);
  } else if (std::strcmp(t, "named_expression") == 0) {
    target_names(named("name"), code, out.bound);
  } else if (std::strcmp(t, "function_definition") == 0 || std::strcmp(t, "class_definition") == 0) {
    target_names(named("name"), code, out.bound);
  } else if (std::strcmp(t, "parameters") == 0 || std::strcmp(t, "lambda_parameters") == 0) {
    std::uint32_t c = ts_node_named_child_count(n);
    for (std::uint32_t i = 0; i < c; ++i) {
      TSNode p = ts_node_named_child(n, i);
      if (type_is(p, "identifier")) add_unique(out.bound, node_text(p, code));
      else if (type_is(p, "default_parameter") || type_is(p, "typed_default_parameter"))
        target_names(ts_node_child_by_field_name(p, "name", 4), code, out.bound);
      else if (ts_node_named_child_count(p) > 0)
        target_names(ts_node_named_child(p, 0), code, out.bound);
    }
  } else if (std::strcmp(t, "import_statement") == 0 || std::strcmp(t, "import_from_statement") == 0) {
    std::uint32_t c = ts_node_named_child_count(n);
    for (std::uint32_t i = 0; i < c; ++i) {
      TSNode p = ts_node_named_child(n, i);
      if (std::strcmp(t, "import_from_statement") == 0 && i == 0) continue;  // the module
      if (type_is(p, "aliased_import")) target_names(ts_node_child_by_field_name(p, "alias", 5), code, out.bound);
      else if (type_is(p, "dotted_name") && ts_node_named_child_count(p) > 0)
        add_unique(out.bound, node_text(ts_node_named_child(p, 0), code));
    }
  }
  TSTreeCursor cur = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cur)) {
    do {
      TSNode ch = ts_tree_cursor_current_node(&cur);
      if (ts_node_is_named(ch)) walk(ch, ts_tree_cursor_current_field_name(&cur), n, code, out, depth + 1);
    } while (ts_tree_cursor_goto_next_sibling(&cur));
  }
  ts_tree_cursor_delete(&cur);
}

void identifiers(TSNode n, std::string_view code, std::vector<std::string>& out, int depth) {
  if (ts_node_is_null(n) || depth > k_max_depth) return;
  if (type_is(n, "identifier")) return add_unique(out, node_text(n, code));
  std::uint32_t c = ts_node_named_child_count(n);
  for (std::uint32_t i = 0; i < c; ++i) identifiers(ts_node_named_child(n, i), code, out, depth + 1);
}

// A verdict by snippet, shared by the process's threads: the sites of one
// function share their call and guard snippets, and a scan of many
// revisions meets an unchanged function's snippets again in every revision
// whose file changed elsewhere; a parse costs far more than a lookup. Both
// checks are pure, so a verdict never goes stale; the table is emptied when
// it grows past `k_max_entries` (memory stays bounded on any input).
class Verdicts {
 public:
  template <class Check>
  bool get(std::string_view code, Check&& check) {
    std::string key(code);
    {
      std::lock_guard lock(m_mutex);
      if (auto it = m_map.find(key); it != m_map.end()) return it->second;
    }
    bool ok = check();
    std::lock_guard lock(m_mutex);
    if (m_map.size() >= k_max_entries) m_map.clear();
    m_map.emplace(std::move(key), ok);
    return ok;
  }

 private:
  static constexpr std::size_t k_max_entries = 1u << 17;
  std::mutex m_mutex;
  std::unordered_map<std::string, bool> m_map;
};

}  // namespace

bool parses_as_python(std::string_view code) {
  if (is_blank(code)) return false;
  static Verdicts verdicts;
  return verdicts.get(code, [&] { return Tree(code).ok(); });
}

bool parses_as_expression(std::string_view expr) {
  if (is_blank(expr) || expr.find('\n') != std::string_view::npos) return false;
  static Verdicts verdicts;
  return verdicts.get(expr, [&] {
    // Parenthesised, a statement can't pass for an expression.
    std::string wrapped = "(" + std::string(expr) + ")\n";
    Tree t(wrapped);
    if (!t.ok()) return false;
    TSNode root = ts_tree_root_node(t.tree);
    if (ts_node_named_child_count(root) != 1) return false;
    return type_is(ts_node_named_child(root, 0), "expression_statement");
  });
}

CodeNames code_names(std::string_view code) {
  CodeNames out;
  Tree t(code);
  if (!t.ok()) return out;
  walk(ts_tree_root_node(t.tree), nullptr, TSNode{}, code, out, 0);
  return out;
}

std::vector<std::string> all_identifiers(std::string_view code) {
  std::vector<std::string> out;
  Tree t(code);
  if (!t.tree) return out;
  identifiers(ts_tree_root_node(t.tree), code, out, 0);
  return out;
}

bool is_python_builtin(std::string_view name) {
  static const std::set<std::string_view> k_names = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
      "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
      "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "match", "case", "type",
      "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes",
      "callable", "chr", "classmethod", "compile", "complex", "delattr", "dict", "dir", "divmod", "enumerate",
      "eval", "exec", "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help",
      "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len", "list", "locals", "map", "max",
      "memoryview", "min", "next", "object", "oct", "open", "ord", "pow", "print", "property", "range", "repr",
      "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple",
      "vars", "zip", "__import__", "__name__", "__file__", "self", "cls", "Ellipsis", "NotImplemented",
      "BaseException", "Exception", "ArithmeticError", "AssertionError", "AttributeError", "BlockingIOError",
      "BrokenPipeError", "BufferError", "ChildProcessError", "ConnectionAbortedError", "ConnectionError",
      "ConnectionRefusedError", "ConnectionResetError", "EOFError", "EnvironmentError", "FileExistsError",
      "FileNotFoundError", "FloatingPointError", "GeneratorExit", "IOError", "ImportError", "IndentationError",
      "IndexError", "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError",
      "MemoryError", "ModuleNotFoundError", "NameError", "NotADirectoryError", "NotImplementedError", "OSError",
      "OverflowError", "PermissionError", "ProcessLookupError", "RecursionError", "ReferenceError", "RuntimeError",
      "StopAsyncIteration", "StopIteration", "SyntaxError", "SystemError", "SystemExit", "TabError",
      "TimeoutError", "TypeError", "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError",
      "UnicodeError", "UnicodeTranslateError", "ValueError", "ZeroDivisionError", "Warning", "UserWarning",
      "DeprecationWarning", "PendingDeprecationWarning", "RuntimeWarning", "SyntaxWarning", "FutureWarning",
      "ImportWarning", "ResourceWarning"};
  return k_names.count(name) > 0;
}

}  // namespace errdex::analyze
