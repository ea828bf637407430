// What an exception class of the file prints: its `__str__`, the message
// its `__init__` gives its base, or the arguments as Python shows them;
// filled with a raise's arguments, and exported with the class's
// parameters and defaults for the files that raise it (link.cc).
#include "scan/python/file_scanner.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "scan/python/text.h"
#include "util/text.h"

namespace errdex::scan::python::detail {

TSNode FileScanner::class_named(std::string_view name) {
  depends_on_class(name);
  // Module-level classes only (where exception classes are defined), read
  // once per file from the root's statements: far cheaper than the whole
  // walk of index_calls, which every `raise ValueError(...)` would pay.
  if (!m_classes_indexed) {
    m_classes_indexed = true;
    for (TSNode node : named_children(m_root)) {
      if (kind(node) == Kind::DecoratedDef) node = child(node, m_g.f_definition);
      if (kind(node) == Kind::ClassDef) m_classes.emplace(std::string(text(child(node, m_g.f_name))), node);
    }
  }
  auto it = m_classes.find(std::string(name));
  return it == m_classes.end() ? TSNode{} : it->second;
}

bool FileScanner::constructs_class(TSNode call) const {
  if (kind(call) != Kind::Call) return false;
  const std::string callee = python::collapse_ws(text(child(call, m_g.f_function)));
  const std::string_view last = std::string_view(callee).substr(callee.rfind('.') + 1);
  return !last.empty() && std::isupper(static_cast<unsigned char>(last[0]));
}

bool FileScanner::defines_methods(std::string_view cls) {
  depends_on(cls);
  auto [it, added] = m_class_methods.emplace(std::string(cls), false);
  if (added) it->second = python::class_defines_methods(m_original.empty() ? m_src : m_original, cls);
  return it->second;
}

TSNode FileScanner::protocol_method(TSNode def) const {
  if (kind(def) == Kind::FunctionDef) return def;
  if (kind(def) != Kind::DecoratedDef) return TSNode{};
  // sqlalchemy's `@util.preload_module(...) def __init__`: a decorator
  // that wraps the method is still the method Python runs; a property,
  // a static or class method is not the protocol's.
  for (std::uint32_t i = 0, count = named_count(def); i < count; ++i) {
    TSNode d = ts_node_named_child(def, i);
    if (kind(d) != Kind::Decorator) continue;
    std::string_view t = text(d);
    if (t == "@property" || t == "@staticmethod" || t == "@classmethod" || t.ends_with(".setter") ||
        t.ends_with(".getter") || t.ends_with("cached_property") || t.ends_with("abstractmethod"))
      return TSNode{};
  }
  TSNode fn = child(def, m_g.f_definition);
  return kind(fn) == Kind::FunctionDef ? fn : TSNode{};
}

TSNode FileScanner::init_of(TSNode cls) {
  TSNode body = child(cls, m_g.f_body);
  std::uint32_t count = named_count(body);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode def = protocol_method(ts_node_named_child(body, i));
    if (!ts_node_is_null(def) && text(child(def, m_g.f_name)) == "__init__") return def;
  }
  return TSNode{};
}

std::string_view FileScanner::first_base(TSNode cls) {
  TSNode bases = child(cls, m_g.f_superclasses);
  TSNode base = kind(bases) == Kind::ArgumentList ? first_named(bases) : TSNode{};
  return kind(base) == Kind::Identifier ? text(base) : std::string_view();
}

int FileScanner::self_arguments(TSNode base_call) const {
  TSNode object = child(child(base_call, m_g.f_function), m_g.f_object);
  return kind(object) == Kind::Call && text(child(object, m_g.f_function)) == "super" ? 0 : 1;
}

TSNode FileScanner::base_init_call(TSNode init_fn, std::string_view owner_base, std::string_view& callee_class) {
  TSNode found{};
  walk(child(init_fn, m_g.f_body), [&](TSNode node, std::uint32_t d, TSTreeCursor*) {
    if (!ts_node_is_null(found)) return false;
    Kind k = kind(node);
    if (d > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda)) return false;
    if (k == Kind::Call) {
      TSNode fn = child(node, m_g.f_function);
      if (kind(fn) == Kind::Attribute && text(child(fn, m_g.f_attribute)) == "__init__") {
        TSNode object = child(fn, m_g.f_object);
        if (kind(object) == Kind::Call && text(child(object, m_g.f_function)) == "super") callee_class = owner_base;
        else callee_class = kind(object) == Kind::Identifier ? text(object) : std::string_view();
        found = node;
        return false;
      }
    }
    return k != Kind::String;
  });
  return found;
}

int FileScanner::message_argument(std::string_view name, int hops) {
  for (; hops > 0; --hops) {
    TSNode cls = name.empty() ? TSNode{} : class_named(name);
    if (ts_node_is_null(cls)) return 0;
    TSNode init_fn = init_of(cls);
    if (ts_node_is_null(init_fn)) {
      name = first_base(cls);
      continue;
    }
    std::string_view callee;
    TSNode call = base_init_call(init_fn, first_base(cls), callee);
    if (ts_node_is_null(call)) return 0;  // BaseException keeps the arguments: the first is shown
    int inner = message_argument(callee, hops - 1);
    if (inner < 0) return -1;
    TSNode arg = argument_for(call, inner + self_arguments(call), {});
    int position = -1;
    if (kind(arg) != Kind::Identifier || !parameter_position(init_fn, text(arg), position) || position < 1) return -1;
    return position - 1;
  }
  return 0;
}

namespace {

enum class Display { none, tuple, os_error };

// How a built-in exception class shows two arguments or more.
Display builtin_display(std::string_view name) {
  static const std::unordered_set<std::string_view> os_errors = {
      "OSError", "IOError", "EnvironmentError", "FileNotFoundError", "FileExistsError", "PermissionError",
      "ConnectionError", "ConnectionRefusedError", "ConnectionResetError", "ConnectionAbortedError",
      "BrokenPipeError", "TimeoutError", "IsADirectoryError", "NotADirectoryError", "InterruptedError",
      "BlockingIOError", "ChildProcessError", "ProcessLookupError", "socket.error", "os.error", "select.error"};
  // BaseException's __str__: one argument as it is, more as their tuple.
  static const std::unordered_set<std::string_view> tuples = {
      "Exception", "BaseException", "ValueError", "TypeError", "RuntimeError", "KeyError", "IndexError",
      "LookupError", "ArithmeticError", "ZeroDivisionError", "OverflowError", "FloatingPointError",
      "AssertionError", "NotImplementedError", "RecursionError", "EOFError", "MemoryError", "BufferError",
      "ReferenceError", "SystemError", "AttributeError", "NameError", "UnboundLocalError", "ImportError",
      "ModuleNotFoundError", "StopIteration", "StopAsyncIteration", "UnicodeError"};
  if (os_errors.contains(name)) return Display::os_error;
  if (tuples.contains(name)) return Display::tuple;
  return Display::none;
}

// The subclass OSError's constructor makes for an errno written as its
// constant (`errno.ENOENT`, `_errno.EEXIST`, `ENOENT`; Objects/exceptions.c's
// errnomap): `OSError(errno.ENOENT, …)` prints as a FileNotFoundError.
// Empty for an errno without one, or a value not so written.
std::string_view errno_subclass(std::string_view written) {
  static const std::unordered_map<std::string_view, std::string_view> k_subclass = {
      {"EAGAIN", "BlockingIOError"},        {"EALREADY", "BlockingIOError"},
      {"EINPROGRESS", "BlockingIOError"},   {"EWOULDBLOCK", "BlockingIOError"},
      {"EPIPE", "BrokenPipeError"},         {"ESHUTDOWN", "BrokenPipeError"},
      {"ECHILD", "ChildProcessError"},      {"ECONNABORTED", "ConnectionAbortedError"},
      {"ECONNREFUSED", "ConnectionRefusedError"}, {"ECONNRESET", "ConnectionResetError"},
      {"EEXIST", "FileExistsError"},        {"ENOENT", "FileNotFoundError"},
      {"EISDIR", "IsADirectoryError"},      {"ENOTDIR", "NotADirectoryError"},
      {"EINTR", "InterruptedError"},        {"EACCES", "PermissionError"},
      {"EPERM", "PermissionError"},         {"ENOTCAPABLE", "PermissionError"},
      {"ESRCH", "ProcessLookupError"},      {"ETIMEDOUT", "TimeoutError"}};
  const std::size_t dot = written.rfind('.');
  if (dot != std::string_view::npos && !written.substr(0, dot).ends_with("errno")) return {};
  auto it = k_subclass.find(dot == std::string_view::npos ? written : written.substr(dot + 1));
  return it == k_subclass.end() ? std::string_view{} : it->second;
}

// Python's repr of a str, when it is plain: printable ASCII without a
// backslash, quoted with ' unless it holds one (and no ").
std::optional<std::string> plain_repr(const std::vector<TemplatePart>& parts) {
  bool single = false, dbl = false;
  for (const auto& p : parts) {
    if (!p.literal) continue;
    for (unsigned char c : p.text) {
      if (c < 0x20 || c >= 0x7f || c == '\\') return std::nullopt;
      single |= c == '\'';
      dbl |= c == '"';
    }
  }
  if (single && dbl) return std::nullopt;
  return std::string(single ? "\"" : "'");
}

}  // namespace

bool FileScanner::append_repr(std::vector<TemplatePart>& parts, TSNode arg, std::uint32_t at) {
  TSNode bare = unwrap_parens(arg);
  Kind k = kind(bare);
  if (k == Kind::String || k == Kind::ConcatString || k == Kind::BinaryOp || k == Kind::Call) {
    auto t = build(bare, at, 1, false);
    if (t) {
      // Text: quoted as repr quotes it, when its constant part says how.
      auto quote = plain_repr(t->parts);
      if (!quote) return false;
      append_literal(parts, *quote);
      append_parts(parts, std::move(t->parts));
      append_literal(parts, *quote);
      return true;
    }
    if (k == Kind::String || k == Kind::ConcatString) return false;
  }
  std::string e = expr_text(text(arg));
  parts.push_back(interp(e, e + "!r"));
  return true;
}

void FileScanner::resolve_args_display(ThrowSite& site, TSNode call, std::uint32_t at) {
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList) return;
  std::vector<TSNode> positional;
  std::uint32_t na = named_count(args);
  for (std::uint32_t i = 0; i < na; ++i) {
    TSNode a = ts_node_named_child(args, i);
    Kind ak = kind(a);
    if (ak == Kind::Comment || ak == Kind::KeywordArg) continue;
    if (ak == Kind::ListSplat || ak == Kind::DictSplat) return;  // how many is not known
    positional.push_back(a);
  }
  if (positional.size() < 2 || positional.size() > 8) return;
  // A class of this file shows as the built-in class it derives from,
  // unless one on the way formats its own message.
  TSNode callee = child(call, m_g.f_function);
  Kind ck = kind(callee);
  if (ck != Kind::Identifier && ck != Kind::Attribute) return;
  std::string name = python::collapse_ws(text(callee));
  bool local = ck == Kind::Identifier && ts_node_is_null(m_scope);
  Display display = Display::none;
  for (int hops = 0; hops < 5 && !name.empty(); ++hops) {
    TSNode cls = local ? class_named(name) : TSNode{};
    if (ts_node_is_null(cls)) {
      display = builtin_display(name);
      break;
    }
    TSNode body = child(cls, m_g.f_body);
    std::uint32_t count = named_count(body);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode def = ts_node_named_child(body, i);
      if (kind(def) == Kind::DecoratedDef) def = child(def, m_g.f_definition);
      std::string_view fname = kind(def) == Kind::FunctionDef ? text(child(def, m_g.f_name)) : std::string_view();
      if (fname == "__init__" || fname == "__str__" || fname == "__new__") return;
      // `__str__ = __repr__` and the like.
      if (kind(def) == Kind::ExprStatement && text(def).starts_with("__str__")) return;
    }
    name = std::string(first_base(cls));
  }
  MessageTemplate t;
  t.from_literals = true;
  if (display == Display::os_error) {
    if (positional.size() > 5) return;
    if (kind(unwrap_parens(positional[0])) == Kind::String) return;  // not an errno
    auto strerror = build(positional[1], at, 1, true);
    if (strerror) {
      append_parts(t.parts, std::move(strerror->parts));
    } else {
      std::string e = expr_text(text(positional[1]));
      t.parts.push_back(interp(e));
    }
    // BlockingIOError's third is the characters written, never shown.
    if (positional.size() >= 3 && !name.ends_with("BlockingIOError")) {
      append_literal(t.parts, ": ");
      if (!append_repr(t.parts, positional[2], at)) return;
    }
    if (positional.size() == 5) {
      append_literal(t.parts, " -> ");
      if (!append_repr(t.parts, positional[4], at)) return;
    }
    t.style = "os_error";
    // OSError itself (not a subclass, nor a class of this file deriving
    // from it) becomes the errno's subclass.
    static const std::unordered_set<std::string_view> k_os_error = {"OSError",   "IOError",  "EnvironmentError",
                                                                    "socket.error", "os.error", "select.error"};
    if (k_os_error.contains(site.error_class))
      if (std::string_view sub = errno_subclass(python::collapse_ws(text(unwrap_parens(positional[0])))); !sub.empty())
        site.error_class = std::string(sub);
    // `raise OSError(errno.EBADF, "write() on read-only file")`: the
    // first argument, an errno, is no message; Python prints
    // "[Errno 9] write() on read-only file".
    // Not with a Windows error code (a fourth argument), which prints as
    // "[WinError N]" there.
    if (!has_words(site.message) && (positional.size() < 4 || text(positional[3]) == "None")) {
      MessageTemplate printed;
      printed.style = "os_error";
      printed.from_literals = true;
      append_literal(printed.parts, "[Errno ");
      TSNode code = unwrap_parens(positional[0]);
      if (std::string_view(ts_node_type(code)) == "integer")
        append_literal(printed.parts, std::string(text(code)) + "] ");
      else {
        printed.parts.push_back(interp(expr_text(text(positional[0]))));
        append_literal(printed.parts, "] ");
      }
      append_parts(printed.parts, std::vector<TemplatePart>(t.parts));
      site.message = std::move(printed);
    }
  } else if (display == Display::tuple) {
    append_literal(t.parts, "(");
    for (std::size_t i = 0; i < positional.size(); ++i) {
      if (i > 0) append_literal(t.parts, ", ");
      if (!append_repr(t.parts, positional[i], at)) return;
    }
    append_literal(t.parts, ")");
    t.style = "args";
  } else {
    return;
  }
  push_alternative(site, std::move(t));
}

TSNode FileScanner::self_method(TSNode value, const std::vector<std::string_view>& chain) {
  // `self.name()`, without arguments.
  if (kind(value) != Kind::Call || named_count(child(value, m_g.f_arguments)) != 0) return TSNode{};
  TSNode fn = child(value, m_g.f_function);
  if (kind(fn) != Kind::Attribute || text(child(fn, m_g.f_object)) != "self") return TSNode{};
  std::string_view name = text(child(fn, m_g.f_attribute));
  if (name.starts_with("__")) return TSNode{};
  for (std::string_view c : chain) {
    TSNode body = child(class_named(c), m_g.f_body);
    std::uint32_t count = named_count(body);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode def = ts_node_named_child(body, i);
      if (kind(def) == Kind::FunctionDef && text(child(def, m_g.f_name)) == name) return def;
    }
  }
  // Not among the classes' methods here but defined in the file: the
  // outline blanked it (a blanked definition leaves no header). Kept
  // next time.
  depends_on(name);
  if (!m_original.empty() && m_original.size() != m_src.size() &&
      m_original.find("def " + std::string(name) + "(") != std::string_view::npos &&
      std::find(m_facts.blanked.begin(), m_facts.blanked.end(), name) == m_facts.blanked.end())
    m_facts.blanked.emplace_back(name);
  return TSNode{};
}

void FileScanner::returns_of(TSNode fn, std::vector<MessageTemplate>& shown, const std::vector<std::string_view>* chain) {
  TSNode body = child(fn, m_g.f_body);
  std::vector<TSNode> returns;
  walk(body, [&](TSNode node, std::uint32_t depth, TSTreeCursor*) {
    Kind k = kind(node);
    if (depth > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda)) return false;
    if (k == Kind::Return && returns.size() < 8) returns.push_back(node);
    return k != Kind::String && k != Kind::Return;
  });
  // pyparsing's `try: return self.formatted_message() except Exception as
  // ex: return f"{type(self).__name__}: {self.msg} (… while formatting
  // message)"`: what a handler returns is shown only when the method fails,
  // so it is offered before the others (the last display with text wins).
  std::stable_partition(returns.begin(), returns.end(), [&](TSNode r) { return under_except(r, body); });
  TSNode saved = m_scope;
  m_scope = body;
  for (TSNode r : returns) {
    TSNode value = first_named(r);
    if (ts_node_is_null(value)) continue;
    // `return str(self.detail)` (Django REST framework's APIException):
    // what `str` is given is the text.
    if (TSNode args = child(value, m_g.f_arguments);
        kind(value) == Kind::Call && text(child(value, m_g.f_function)) == "str" && kind(args) == Kind::ArgumentList &&
        named_count(args) == 1 && kind(ts_node_named_child(args, 0)) == Kind::Attribute)
      value = ts_node_named_child(args, 0);
    // `return self.formatted_message()`: what that method of the class
    // (or of a base defined here) returns is what the instance shows.
    if (chain) {
      if (TSNode method = self_method(value, *chain); !ts_node_is_null(method)) {
        returns_of(method, shown, nullptr);
        continue;
      }
    }
    if (auto t = build(value, start_byte(r), 1, true)) {
      shown.push_back(std::move(*t));
    } else if (std::string held = python::collapse_ws(text(value));
               held.starts_with("self.") && (kind(value) == Kind::Attribute || std::string_view(ts_node_type(value)) == "subscript")) {
      // `return self.message`, `return self.args[1]`: what `__init__` kept
      // there, which the raise's arguments fill.
      MessageTemplate t;
      t.style = "expression";
      t.parts.push_back(interp(std::move(held)));
      shown.push_back(std::move(t));
    }
  }
  m_scope = saved;
}

bool FileScanner::under_except(TSNode n, TSNode body) const {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, body); p = ts_node_parent(p))
    if (kind(p) == Kind::Except) return true;
  return false;
}

bool FileScanner::under_if(TSNode n, TSNode body) const {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, body); p = ts_node_parent(p))
    if (kind(p) == Kind::If) return true;
  return false;
}

std::optional<std::string> FileScanner::plain_text(TSNode value) const {
  bool is_f = false;
  std::vector<TemplatePart> parts;
  const Kind k = kind(value);
  if ((k == Kind::String || k == Kind::ConcatString) && literal_parts(value, parts, is_f) && all_literal(parts))
    return joined_literal(parts);
  return std::nullopt;
}

void FileScanner::read_kept_properties(const std::vector<std::string_view>& chain, ClassDisplay& d) {
  // jinja's `@property def message(self): return self.args[0] if self.args
  // else None`, read as `self.message` in `__str__`: what `self.args[0]`
  // stands for. A property of one `return` of what `__init__` kept.
  // Every base defined here: the property is often the base class's.
  std::string_view name = chain.empty() ? std::string_view() : chain.front();
  for (int hops = 0; hops < 6 && !name.empty(); ++hops) {
    TSNode cls = class_named(name);
    if (ts_node_is_null(cls)) break;
    name = first_base(cls);
    TSNode body = child(cls, m_g.f_body);
    for (std::uint32_t i = 0, count = named_count(body); i < count; ++i) {
      TSNode def = ts_node_named_child(body, i);
      if (kind(def) != Kind::DecoratedDef || text(first_named(def)) != "@property") continue;
      TSNode fn = child(def, m_g.f_definition);
      TSNode fn_body = child(fn, m_g.f_body);
      TSNode returned{};
      int statements = 0;
      for (std::uint32_t k = 0, n = named_count(fn_body); k < n; ++k) {
        TSNode st = ts_node_named_child(fn_body, k);
        if (kind(st) == Kind::Comment) continue;
        if (kind(st) == Kind::ExprStatement && kind(first_named(st)) == Kind::String) continue;  // docstring
        ++statements;
        if (kind(st) == Kind::Return) returned = first_named(st);
      }
      if (statements != 1 || ts_node_is_null(returned)) continue;
      returned = unwrap_cast(returned);
      if (std::string_view(ts_node_type(returned)) == "conditional_expression" && named_count(returned) == 3 &&
          text(ts_node_named_child(returned, 2)) == "None")
        returned = unwrap_cast(ts_node_named_child(returned, 0));
      auto it = d.kept.find(python::collapse_ws(text(returned)));
      if (it != d.kept.end()) d.kept.try_emplace("self." + std::string(text(child(fn, m_g.f_name))), it->second);
    }
  }
}

void FileScanner::keep_through_bases(TSNode init_fn, TSNode init_owner, ClassDisplay& d) {
  // The nearest `__init__`'s parameter each parameter of the one reached
  // holds, by name.
  std::unordered_map<std::string, std::string> nearest;
  TSNode from = init_fn, owner = init_owner;
  for (int hops = 0; hops < 3; ++hops) {
    std::string_view base_class;
    TSNode call = base_init_call(from, first_base(owner), base_class);
    if (ts_node_is_null(call)) return;
    // The base's own `__init__`, or the first of its bases defined here.
    TSNode base_init{}, base_owner = base_class.empty() ? TSNode{} : class_named(base_class);
    for (int up = 0; up < 3 && !ts_node_is_null(base_owner); ++up) {
      base_init = init_of(base_owner);
      if (!ts_node_is_null(base_init)) break;
      std::string_view next = first_base(base_owner);
      base_owner = next.empty() ? TSNode{} : class_named(next);
    }
    if (ts_node_is_null(base_init)) return;
    std::unordered_map<std::string, std::string> reached;
    const int skip = self_arguments(call);
    each_parameter(base_init, [&](std::string_view param, bool) {
      int position = -1;
      if (!parameter_position(base_init, param, position) || position == 0) return true;
      TSNode given = argument_for(call, position < 0 ? -1 : position - 1 + skip, param);
      int at = -1;
      if (kind(given) != Kind::Identifier || !parameter_position(from, text(given), at) || at == 0) return true;
      std::string name(text(given));
      if (hops > 0) {
        auto it = nearest.find(name);
        if (it == nearest.end()) return true;
        name = it->second;
      }
      reached.emplace(std::string(param), std::move(name));
      return true;
    });
    ClassDisplay base;
    read_init_assignments(base_init, base);
    for (auto& [attribute, param] : base.kept)
      if (auto it = reached.find(param); it != reached.end()) d.kept.try_emplace(attribute, it->second);
    nearest = std::move(reached);
    from = base_init;
    owner = base_owner;
  }
}

bool FileScanner::set_only_under_if(TSNode init_fn, std::string_view param, const std::vector<Reaching>& found) const {
  int position = -1;
  if (found.empty() || !parameter_position(init_fn, param, position) || position <= 0) return false;
  TSNode body = child(init_fn, m_g.f_body);
  return std::all_of(found.begin(), found.end(), [&](const Reaching& r) {
    for (TSNode up = ts_node_parent(r.assignment); !ts_node_is_null(up) && !ts_node_eq(up, body); up = ts_node_parent(up))
      if (kind(up) == Kind::If && util::contains_word(text(child(up, m_g.f_condition)), param)) return true;
    return false;
  });
}

std::optional<FileScanner::ClassDisplay> FileScanner::class_display(std::string_view name, bool ask_outline) {
  if (ts_node_is_null(class_named(name))) return std::nullopt;
  // `self.fmt` in the methods read below is this class's attribute.
  struct Restore {
    std::string_view& ref;
    std::string_view old;
    ~Restore() { ref = old; }
  } restore{m_display_class, m_display_class};
  m_display_class = name;
  // The class and its bases defined here, nearest first: the first
  // `__str__` and the first `__init__` found are the ones Python runs.
  TSNode str_fn{}, init_fn{}, init_owner{};
  std::string_view cls_name = name;
  std::vector<std::string_view> chain;
  for (int hops = 0; hops < 4 && (ts_node_is_null(str_fn) || ts_node_is_null(init_fn)); ++hops) {
    TSNode cls = class_named(cls_name);
    if (ts_node_is_null(cls)) break;
    chain.push_back(cls_name);
    TSNode body = child(cls, m_g.f_body);
    std::uint32_t count = named_count(body);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode def = protocol_method(ts_node_named_child(body, i));
      if (ts_node_is_null(def)) continue;
      std::string_view fname = text(child(def, m_g.f_name));
      if (fname == "__str__" && ts_node_is_null(str_fn)) str_fn = def;
      if (fname == "__init__" && ts_node_is_null(init_fn)) {
        init_fn = def;
        init_owner = cls;
      }
    }
    cls_name = first_base(cls);
    if (cls_name.empty()) break;
  }
  if (ts_node_is_null(str_fn) && ts_node_is_null(init_fn)) {
    // The outline may have blanked the methods: keep them next time.
    if (ask_outline && !m_original.empty() && m_original.size() != m_src.size() &&
        std::find(m_facts.blanked.begin(), m_facts.blanked.end(), "__init__") == m_facts.blanked.end() &&
        std::any_of(chain.begin(), chain.end(), [&](std::string_view c) { return defines_methods(c); })) {
      m_facts.blanked.emplace_back("__init__");
      m_facts.blanked.emplace_back("__str__");
    }
    return std::nullopt;
  }
  ClassDisplay d;
  d.init_fn = init_fn;
  read_class_attributes(chain, d);
  read_init_assignments(init_fn, d);
  if (!ts_node_is_null(str_fn)) keep_through_bases(init_fn, init_owner, d);
  // `super().__init__(code, message)` keeps its arguments as `self.args`: a
  // `__str__` returning `self.args[1]` (aiohttp's WebSocketError) shows
  // what the raise gives for `message`.
  if (!ts_node_is_null(init_fn) && !ts_node_is_null(str_fn)) {
    std::string_view base_class;
    TSNode base_call = base_init_call(init_fn, first_base(init_owner), base_class);
    const int skip = self_arguments(base_call);
    for (int k = 0;; ++k) {
      TSNode a = argument_for(base_call, k + skip, {});
      if (ts_node_is_null(a)) break;
      int position = -1;
      if (kind(a) == Kind::Identifier && parameter_position(init_fn, text(a), position))
        d.kept.emplace("self.args[" + std::to_string(k) + "]", std::string(text(a)));
    }
  }
  if (!ts_node_is_null(str_fn)) read_kept_properties(chain, d);
  TSNode saved = m_scope;
  if (!ts_node_is_null(str_fn)) {
    returns_of(str_fn, d.shown, &chain);
    if (d.shown.empty()) return std::nullopt;
    // A `__str__` returning `self.message` kept from the `message` that the
    // class's own `__init__` sets only under `if message is None:` (click's
    // NoSuchOption): those texts first, the parameter as a call gives it
    // last.
    if (d.shown.size() == 1 && d.shown[0].parts.size() == 1 && !d.shown[0].parts[0].literal && !ts_node_is_null(init_fn)) {
      auto kept = d.kept.find(d.shown[0].parts[0].text);
      if (kept != d.kept.end()) {
        TSNode body = child(init_fn, m_g.f_body);
        std::string_view base_class;
        TSNode base_call = base_init_call(init_fn, first_base(init_owner), base_class);
        m_scope = body;
        auto found = reaching(kept->second, ts_node_is_null(base_call) ? end_byte(body) : start_byte(base_call));
        std::vector<MessageTemplate> defaults;
        if (set_only_under_if(init_fn, kept->second, found))
          for (const Reaching& r : found)
            if (auto t = build_reaching(r, 1)) defaults.push_back(std::move(*t));
        m_scope = saved;
        if (!defaults.empty()) d.shown[0].style = k_as_given;
        d.shown.insert(d.shown.begin(), std::make_move_iterator(defaults.begin()), std::make_move_iterator(defaults.end()));
      }
    }
    return d;
  }
  // `super().__init__(msg, ...)`, `super(Cls, self).__init__(msg)`,
  // `Base.__init__(self, msg)`: the message is what the base is given, in
  // the place the base prints (`Base.__init__(self, option, section, msg)`
  // when the base hands its third on as the message).
  TSNode body = child(init_fn, m_g.f_body);
  std::string_view base_class;
  TSNode base_call = base_init_call(init_fn, first_base(init_owner), base_class);
  if (ts_node_is_null(base_call)) return std::nullopt;
  TSNode msg{};
  {
    TSNode args = child(base_call, m_g.f_arguments);
    if (kind(args) != Kind::ArgumentList) return std::nullopt;
    int shown = message_argument(base_class, 4);
    std::uint32_t skip = static_cast<std::uint32_t>(self_arguments(base_call) + std::max(shown, 0));
    std::uint32_t seen = 0, count = named_count(args);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode a = ts_node_named_child(args, i);
      Kind ak = kind(a);
      if (ak == Kind::Comment) continue;
      if (ak == Kind::KeywordArg || ak == Kind::ListSplat || ak == Kind::DictSplat) break;
      if (seen++ == skip) {
        msg = a;
        break;
      }
    }
  }
  if (ts_node_is_null(msg)) return std::nullopt;
  // `super().__init__(message or self.message)`: the class's text when the
  // call leaves the parameter out, the parameter as given otherwise.
  std::string_view or_param;
  if (TSNode fallback = parameter_or_default(msg, init_fn, or_param); !ts_node_is_null(fallback)) msg = fallback;
  m_scope = body;
  // Each text a choice in it gives (mako's `message + _format_filepos(…)`,
  // whose helper returns one text without a file name and one with).
  std::vector<MessageTemplate> built = each_choice([&] { return build(msg, start_byte(msg), 1, true); });
  std::optional<MessageTemplate> t;
  if (!built.empty()) t = std::move(built.front());
  for (std::size_t i = 1; i < built.size(); ++i)
    if (!same_parts(built[i], *t)) d.shown.push_back(std::move(built[i]));
  // A message variable with several values reaching the call (boto3's
  // ResourceNotExistsError appends a hint under an `if`): each is a text
  // the class may show, the latest first.
  bool given_when_set = false;
  if (t && kind(msg) == Kind::Identifier) {
    auto found = reaching(text(msg), start_byte(msg));
    for (std::size_t i = found.size(); i-- > 1;)
      if (auto other = build_reaching(found[i - 1], 1); other && !same_parts(*other, *t)) d.shown.push_back(std::move(*other));
    // click's `if message is None: message = f"No such option: {name}"`:
    // the parameter is the message when a call passes it (offered last:
    // the last display with text wins, and one the call leaves to `None`
    // has none).
    given_when_set = set_only_under_if(init_fn, text(msg), found);
  }
  m_scope = saved;
  std::string_view as_given_name = text(msg);
  if (t && !or_param.empty()) {
    given_when_set = true;
    as_given_name = or_param;
  }
  // A parameter handed on as it is: the call's argument, or the default
  // when the call leaves it out (`def __init__(self, message="Invalid
  // file")` raised as `InvalidFileException()`).
  int position = -1;
  if (!t && kind(msg) == Kind::Identifier && parameter_position(init_fn, text(msg), position) && position > 0) {
    t.emplace();
    t->parts.push_back(interp(std::string(text(msg))));
  }
  // `self.message = message or self.message` then `super().__init__(
  // self.message)`: what the instance holds, filled per call.
  if (const std::string held(text(msg));
      !t && kind(msg) == Kind::Attribute && (d.kept.contains(held) || d.attributes.contains(held))) {
    t.emplace();
    t->parts.push_back(interp(held));
  }
  if (!t) return std::nullopt;
  d.shown.insert(d.shown.begin(), std::move(*t));
  if (given_when_set) {
    MessageTemplate as_given;
    as_given.style = k_as_given;
    as_given.parts.push_back(interp(std::string(as_given_name)));
    d.shown.push_back(std::move(as_given));
  }
  return d;
}

void FileScanner::resolve_class_display(ThrowSite& site, TSNode call, std::uint32_t at) {
  if (!ts_node_is_null(m_scope)) return;
  bool given = false;
  std::vector<MessageTemplate> shown = class_display_texts(call, at, &given);
  if (given && shown.size() == 1) {
    // What Python prints is that argument, whatever the first one is.
    site.message = std::move(shown.front());
    site.alternatives.clear();
    return;
  }
  if (!shown.empty()) offer_class_displays(site, std::move(shown));
}

std::vector<MessageTemplate> FileScanner::class_display_texts(TSNode call, std::uint32_t at, bool* given) {
  std::vector<MessageTemplate> shown;
  TSNode callee = child(call, m_g.f_function);
  if (kind(callee) != Kind::Identifier) return shown;
  std::string_view name = text(callee);
  if (name.empty() || !std::isupper(static_cast<unsigned char>(name[0]))) return shown;
  auto d = class_display(name, true);
  if (!d) return shown;
  // A parameter (or what `__init__` kept of one) in the message stands for
  // what this call passes.
  // Parameters the call leaves to their `None` default.
  std::vector<std::string> left_none;
  auto substitute = [&](MessageTemplate t) {
    // `%s` shows a string argument as it is.
    MessageTemplate out = with_arguments(std::move(t), at, true, [&](const TemplatePart& p) {
      auto it = d->kept.find(p.text);
      // What the class sets for `self.x` in its body, where nothing else does.
      auto attribute = [&] {
        auto a = d->attributes.find(it != d->kept.end() ? it->first : p.text);
        return a == d->attributes.end() ? TSNode{} : a->second;
      };
      if (ts_node_is_null(d->init_fn)) return attribute();
      std::string_view param = it != d->kept.end() ? std::string_view(it->second) : std::string_view(p.text);
      int position = -1;
      if (!parameter_position(d->init_fn, param, position)) {
        // `def __init__(self, **kwargs): msg = self.fmt.format(**kwargs)`:
        // a field the call passes by name.
        if (keywords_parameter(d->init_fn).empty()) return it == d->kept.end() ? attribute() : TSNode{};
        return argument_for(call, -1, param);
      }
      if (position == 0) return TSNode{};
      TSNode given = argument_for(call, position < 0 ? -1 : position - 1, param);
      // Not passed: `def __init__(self, message="Invalid file")` shows its
      // default; `description=None` leaves the class's own.
      if (!ts_node_is_null(given) || passes_splat(call)) return given;
      TSNode fallback = parameter_default(d->init_fn, param);
      Kind fk = kind(fallback);
      if (text(fallback) == "None") left_none.push_back(p.text);
      return fk == Kind::String || fk == Kind::ConcatString ? fallback : it != d->kept.end() ? attribute() : TSNode{};
    });
    out.from_literals = true;
    return out;
  };
  // Whether the call passes the parameter behind `{name}` (what `__init__`
  // kept of it, or itself).
  auto passes = [&](std::string_view name) {
    if (ts_node_is_null(d->init_fn)) return false;
    auto it = d->kept.find(std::string(name));
    std::string_view param = it != d->kept.end() ? std::string_view(it->second) : name;
    int position = -1;
    return parameter_position(d->init_fn, param, position) && position > 0 &&
           !ts_node_is_null(argument_for(call, position < 0 ? -1 : position - 1, param));
  };
  for (MessageTemplate& t : d->shown) {
    // A parameter given a default text when left out: what the call
    // passes is the message, and the only one; left out, the defaults are.
    const bool as_given = t.style == k_as_given && t.parts.size() == 1;
    if (as_given && !passes(t.parts[0].text)) continue;
    left_none.clear();
    MessageTemplate filled = substitute(std::move(t));
    drop_none_lines(filled, left_none);
    if (as_given) {
      filled.style = "variable";
      shown.assign(1, std::move(filled));
      if (given != nullptr) *given = true;
      break;
    }
    shown.push_back(std::move(filled));
  }
  return shown;
}

bool FileScanner::exception_like(std::string_view name, int hops) {
  if (auto dot = name.rfind('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
  if (name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Warning")) return true;
  TSNode cls = hops < 6 && !name.empty() ? class_named(name) : TSNode{};
  if (ts_node_is_null(cls)) return false;
  // Any base: pydantic's `class PydanticUserError(PydanticErrorMixin,
  // RuntimeError)` takes its `__str__` from the mixin.
  TSNode bases = child(cls, m_g.f_superclasses);
  if (kind(bases) != Kind::ArgumentList) return false;
  for (std::uint32_t i = 0, count = named_count(bases); i < count && i < 4; ++i) {
    TSNode base = ts_node_named_child(bases, i);
    const Kind bk = kind(base);
    if ((bk == Kind::Identifier || bk == Kind::Attribute) && exception_like(text(base), hops + 1)) return true;
  }
  return false;
}

bool FileScanner::derives_from(std::string_view name, std::string_view base) {
  for (int hops = 0; hops < 4; ++hops) {
    TSNode cls = class_named(name);
    if (ts_node_is_null(cls)) return false;
    name = first_base(cls);
    if (name.empty()) return false;
    if (name == base) return true;
  }
  return false;
}

void FileScanner::export_displays() {
  for (ClassDef& c : m_facts.classes) {
    TSNode node = class_named(c.name);
    if (ts_node_is_null(node) || line_of(node) != c.line) continue;  // module-level classes only
    // An exception class whose methods the outline blanked asks for them:
    // the file is read again, once, keeping them.
    auto d = class_display(c.name, exception_like(c.name));
    if (!d) continue;
    // The constructor's parameters after `self`, and the text defaults.
    if (!ts_node_is_null(d->init_fn)) {
      bool first = true;
      each_parameter(d->init_fn, [&](std::string_view pname, bool keyword_only) {
        if (std::exchange(first, false)) return true;  // self
        model::ClassParam cp;
        cp.name = std::string(pname);
        cp.keyword_only = keyword_only;
        TSNode def = parameter_default(d->init_fn, pname);
        // `description=None` kept as `self.description`: the class's own text.
        if (const Kind dk = kind(def); dk != Kind::String && dk != Kind::ConcatString)
          for (const auto& [attr, param] : d->kept)
            if (param == pname && d->attributes.count(attr)) def = d->attributes.at(attr);
        if (std::optional<std::string> t = plain_text(def)) cp.default_text = std::move(*t);
        cp.defaults_to_none = text(def) == "None";
        c.params.push_back(std::move(cp));
        return true;
      });
      // `**kwargs`: fields the raising call names fill the message's
      // interpolations of those names (link.cc).
      if (std::string_view keywords = keywords_parameter(d->init_fn); !keywords.empty())
        c.params.push_back({"**" + std::string(keywords), true, {}});
    }
    for (MessageTemplate& t : d->shown) {
      // Parameters as the names the call fills: `self.reason` -> `reason`;
      // what only the class's body sets, its text.
      MessageTemplate filled = t;
      filled.parts.clear();
      for (TemplatePart& p : t.parts) {
        auto a = p.literal || d->kept.count(p.text) ? d->attributes.end() : d->attributes.find(p.text);
        std::optional<std::string> own = a == d->attributes.end() || !p.display.empty() ? std::nullopt : plain_text(a->second);
        if (own) append_literal(filled.parts, *own);
        else filled.parts.push_back(std::move(p));
      }
      t = std::move(filled);
      for (TemplatePart& p : t.parts) {
        if (p.literal) continue;
        auto it = d->kept.find(p.text);
        if (it == d->kept.end()) continue;
        if (p.display.rfind(p.text, 0) == 0) p.display = it->second + p.display.substr(p.text.size());
        p.text = it->second;
      }
      t.from_literals = true;
      c.display.push_back(std::move(t));
    }
  }
}

}  // namespace errdex::scan::python::detail
