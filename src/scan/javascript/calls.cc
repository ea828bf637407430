// The call graph's facts of a JavaScript or TypeScript file (see
// calls.h): its functions and their calls as written, its imports and its
// exports, from one walk over the whole tree.
#include "scan/javascript/calls.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>
#include <string>
#include <string_view>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "scan/javascript/file_scanner.h"
#include "scan/javascript/text.h"
#include "scan/tree_walk.h"
#include "util/text.h"

namespace errdex::scan::javascript_detail {
namespace {

// Calls kept per function, once each: past this, the rest are left out.
constexpr std::size_t k_max_targets = 512;
// Members of a callee followed (`a.b.c.d`): past this, the callee is
// opaque.
constexpr int k_max_callee_depth = 8;
// Calls passing a message kept per file (FileFacts::message_calls), and
// the arguments of one call looked at.
constexpr std::size_t k_max_message_calls = 256;
constexpr std::uint32_t k_max_message_args = 8;

enum class K : std::uint8_t {
  Other, Function, Arrow, Method, Class, ClassBody, Heritage, ExtendsClause, Call, New, Member, Identifier,
  This, Super, Declarator, Assign, Pair, Object, Field, Import, ImportClause, NamespaceImport, NamedImports,
  ImportSpecifier, Export, ExportClause, ExportSpecifier, NamespaceExport, String, Paren, Await, Cast,
  ObjectPattern, PairPattern, ShorthandPattern, Shorthand, ImportRequire, Lexical, Comment, Arguments,
  Template, Fragment, Escape, Substitution, Binary,
};

struct Grammar {
  std::vector<K> kinds;
  TSFieldId f_name = 0, f_body = 0, f_function = 0, f_constructor = 0, f_object = 0, f_property = 0, f_value = 0,
            f_left = 0, f_right = 0, f_key = 0, f_source = 0, f_declaration = 0, f_alias = 0, f_arguments = 0,
            f_operator = 0;
};

TSFieldId field(const TSLanguage* l, const char* name) {
  return ts_language_field_id_for_name(l, name, static_cast<std::uint32_t>(std::strlen(name)));
}

Grammar make_grammar(const TSLanguage* lang) {
  static const std::pair<const char*, K> k_names[] = {
      {"function_declaration", K::Function}, {"function_expression", K::Function}, {"function", K::Function},
      {"generator_function_declaration", K::Function}, {"generator_function", K::Function},
      {"arrow_function", K::Arrow}, {"method_definition", K::Method}, {"class_declaration", K::Class},
      {"class", K::Class}, {"abstract_class_declaration", K::Class}, {"class_body", K::ClassBody},
      {"class_heritage", K::Heritage}, {"extends_clause", K::ExtendsClause}, {"call_expression", K::Call},
      {"new_expression", K::New}, {"member_expression", K::Member}, {"identifier", K::Identifier},
      {"this", K::This}, {"super", K::Super}, {"variable_declarator", K::Declarator},
      {"assignment_expression", K::Assign}, {"pair", K::Pair}, {"object", K::Object},
      {"field_definition", K::Field}, {"public_field_definition", K::Field}, {"import_statement", K::Import},
      {"import_clause", K::ImportClause}, {"namespace_import", K::NamespaceImport},
      {"named_imports", K::NamedImports}, {"import_specifier", K::ImportSpecifier},
      {"export_statement", K::Export}, {"export_clause", K::ExportClause},
      {"export_specifier", K::ExportSpecifier}, {"namespace_export", K::NamespaceExport},
      {"string", K::String}, {"parenthesized_expression", K::Paren}, {"await_expression", K::Await},
      {"as_expression", K::Cast}, {"non_null_expression", K::Cast}, {"satisfies_expression", K::Cast},
      {"object_pattern", K::ObjectPattern}, {"pair_pattern", K::PairPattern},
      {"shorthand_property_identifier_pattern", K::ShorthandPattern},
      {"shorthand_property_identifier", K::Shorthand}, {"import_require_clause", K::ImportRequire},
      {"lexical_declaration", K::Lexical}, {"variable_declaration", K::Lexical}, {"comment", K::Comment},
      {"arguments", K::Arguments}, {"template_string", K::Template}, {"string_fragment", K::Fragment},
      {"escape_sequence", K::Escape}, {"template_substitution", K::Substitution},
      {"binary_expression", K::Binary},
  };
  Grammar g;
  g.kinds = kind_table(lang, k_names, K::Other);
  g.f_name = field(lang, "name");
  g.f_body = field(lang, "body");
  g.f_function = field(lang, "function");
  g.f_constructor = field(lang, "constructor");
  g.f_object = field(lang, "object");
  g.f_property = field(lang, "property");
  g.f_value = field(lang, "value");
  g.f_left = field(lang, "left");
  g.f_right = field(lang, "right");
  g.f_key = field(lang, "key");
  g.f_source = field(lang, "source");
  g.f_declaration = field(lang, "declaration");
  g.f_alias = field(lang, "alias");
  g.f_arguments = field(lang, "arguments");
  g.f_operator = field(lang, "operator");
  return g;
}

const Grammar& grammar_of(const TSLanguage* lang) {
  static const Grammar js = make_grammar(language(Dialect::javascript).lang);
  static const Grammar ts = make_grammar(language(Dialect::typescript).lang);
  static const Grammar tsx = make_grammar(language(Dialect::tsx).lang);
  if (lang == language(Dialect::typescript).lang) return ts;
  return lang == language(Dialect::tsx).lang ? tsx : js;
}

class CallReader {
 public:
  CallReader(std::string_view src, const Grammar& g, model::FileFacts& out) : m_src(src), m_g(g), m_out(out) {}

  void run(TSNode root) {
    walk(root, [&](TSNode n, std::uint32_t depth, TSTreeCursor*) {
      while (!m_frames.empty() && m_frames.back().depth >= depth) m_frames.pop_back();
      m_path.resize(depth);
      m_path.push_back(n);
      switch (kind(n)) {
        case K::Function: case K::Arrow: case K::Method: enter_function(n, depth); break;
        case K::Class: enter_class(n, depth); break;
        case K::Call:
          add_call(child(n, m_g.f_function));
          add_message_call(n);
          break;
        case K::New: add_call(child(n, m_g.f_constructor)); break;
        case K::Declarator: read_declarator(n); break;
        case K::Assign: read_assignment(n); break;
        case K::Import: read_import(n); return false;
        case K::Export: read_export(n); break;
        case K::String: case K::Comment: return false;
        default: break;
      }
      return true;
    });
    m_out.has_exports = !m_out.exports.empty();
    read_module_texts(root);
  }

  // The imports of the top level alone: `import` statements and
  // declarations whose value is a `require`.
  void run_imports(TSNode root) {
    for (TSNode statement : named_children(root)) {
      if (kind(statement) == K::Import) {
        read_import(statement);
        continue;
      }
      for (std::uint32_t j = 0, m = ts_node_named_child_count(statement); j < m; ++j)
        if (TSNode d = ts_node_named_child(statement, j); kind(d) == K::Declarator) read_declarator(d);
    }
  }

 private:
  struct Frame {
    std::uint32_t depth;
    int function = -1;  // index in m_out.functions of the function (top level) whose calls these are
    std::string cls;    // a class's qualname
  };

  K kind(TSNode n) const { return node_kind(m_g.kinds, n, K::Other); }
  // A node's parent, from the walk's path when it is on it (the nodes asked
  // about are near its end): tree-sitter's ts_node_parent walks down from
  // the root, quadratic over deeply nested input.
  TSNode parent_of(TSNode n) const {
    for (std::size_t i = m_path.size(); i-- > 1;)
      if (ts_node_eq(m_path[i], n)) return m_path[i - 1];
    return ts_node_parent(n);
  }
  std::string_view text(TSNode n) const { return node_text(m_src, n); }
  TSNode child(TSNode n, TSFieldId f) const {
    return ts_node_is_null(n) || f == 0 ? TSNode{} : ts_node_child_by_field_id(n, f);
  }
  int line_of(TSNode n) const { return static_cast<int>(ts_node_start_point(n).row) + 1; }
  TSNode unwrap(TSNode n) const {
    for (int i = 0; i < k_max_callee_depth && (kind(n) == K::Paren || kind(n) == K::Await || kind(n) == K::Cast); ++i)
      n = ts_node_named_child(n, 0);
    return n;
  }
  bool has_token(TSNode n, std::string_view token) const {
    for (std::uint32_t i = 0, c = ts_node_child_count(n); i < c; ++i) {
      TSNode x = ts_node_child(n, i);
      if (!ts_node_is_named(x) && ts_node_type(x) == token) return true;
    }
    return false;
  }
  // A string literal's text without its quotes.
  std::string unquote(TSNode s) const {
    std::string_view t = text(s);
    if (kind(s) != K::String || t.size() < 2) return {};
    return std::string(t.substr(1, t.size() - 2));
  }

  // The innermost function frame, or null (module level).
  const Frame* function_frame() const {
    for (std::size_t i = m_frames.size(); i-- > 0;)
      if (m_frames[i].function >= 0) return &m_frames[i];
    return nullptr;
  }
  const Frame* class_frame() const {
    for (std::size_t i = m_frames.size(); i-- > 0;) {
      if (m_frames[i].function >= 0) return nullptr;
      if (!m_frames[i].cls.empty()) return &m_frames[i];
    }
    return nullptr;
  }

  // A callee as written: `f`, `this.m`, `ns.f`, `a.b.c`, `super`; `?.m`
  // when its receiver is an expression (`f().m`); "" when nothing names it.
  std::string callee(TSNode n, int depth = 0) const {
    n = unwrap(n);
    if (depth > k_max_callee_depth) return {};
    switch (kind(n)) {
      case K::Identifier: return std::string(text(n));
      case K::This: return "this";
      case K::Super: return "super";
      case K::Member: {
        std::string_view prop = text(child(n, m_g.f_property));
        if (prop.empty()) return {};
        std::string object = callee(child(n, m_g.f_object), depth + 1);
        return (object.empty() || object.starts_with("?") ? std::string("?") : object) + '.' + std::string(prop);
      }
      default: return {};
    }
  }

  void add_call(TSNode fn) {
    const Frame* f = function_frame();
    if (!f) return;
    std::string c = callee(fn);
    if (c.empty() || c == "require") return;
    auto& targets = m_out.functions[f->function].targets;
    if (targets.size() >= k_max_targets) return;
    if (m_seen[f->function].insert(c).second) targets.push_back(std::move(c));
  }

  // `devAssert(config.name, 'Must provide name.')`: a call of a function
  // by name (`f`, `ns.f`, `this.f`) passing text that reads as a message (a string,
  // a template or a concatenation of them with two words or more of
  // text), for a throw of a parameter in another file
  // (link_javascript_caller_messages).
  void add_message_call(TSNode call) {
    if (m_out.message_calls.size() >= k_max_message_calls) return;
    TSNode fn = unwrap(child(call, m_g.f_function));
    if (kind(fn) != K::Identifier && kind(fn) != K::Member) return;
    TSNode args = child(call, m_g.f_arguments);
    if (kind(args) != K::Arguments) return;
    std::string name;
    std::uint32_t position = 0;
    for (std::uint32_t i = 0, n = ts_node_named_child_count(args); i < n && position < k_max_message_args; ++i) {
      TSNode a = unwrap(ts_node_named_child(args, i));
      if (kind(a) == K::Comment) continue;
      model::MessageTemplate t;
      const K k = kind(a);
      if ((k == K::String || k == K::Template || k == K::Binary) && message_parts(a, t.parts, 0) && reads_as_message(t)) {
        if (name.empty()) name = callee(fn);
        // `this.raise(…)` only as `this.name`: a method of another file
        // extending the same object (link_javascript_caller_messages).
        const bool own = name.starts_with("this.") && name.find('.', 5) == std::string::npos;
        if (name.empty() || name.find('?') != std::string::npos || (name.starts_with("this.") && !own) ||
            name.starts_with("super"))
          return;
        t.style = k == K::String ? "string" : "fstring";
        t.from_literals = true;
        std::string plain;
        for (const auto& p : t.parts) plain += p.literal ? p.text : "{" + p.text + "}";
        m_out.message_calls.push_back({name, static_cast<int>(position), {}, std::move(plain), std::move(t)});
        if (m_out.message_calls.size() >= k_max_message_calls) return;
      }
      ++position;
    }
  }

  // Two words of text at least (runs of letters and digits with a letter,
  // in its literal parts).
  static bool reads_as_message(const model::MessageTemplate& t) {
    int words = 0;
    for (const auto& p : t.parts) {
      if (!p.literal) continue;
      bool in_word = false, letter = false;
      for (unsigned char c : p.text + ' ') {
        if (std::isalnum(c) || c >= 0x80) {
          in_word = true;
          letter = letter || std::isalpha(c) || c >= 0x80;
        } else if (in_word) {
          words += letter;
          in_word = letter = false;
        }
      }
    }
    return words >= 2;
  }

  // A message argument's parts: a string's value, a template's text and
  // `${…}` interpolations, the operands of `+` in order (an operand that
  // is no text is an interpolation). False for anything else at the top.
  bool message_parts(TSNode n, std::vector<model::TemplatePart>& out, int depth) const {
    n = unwrap(n);
    auto literal = [&](std::string text) {
      if (text.empty()) return;
      if (!out.empty() && out.back().literal) out.back().text += text;
      else {
        model::TemplatePart p;
        p.text = std::move(text);
        out.push_back(std::move(p));
      }
    };
    auto interpolation = [&](TSNode e) {
      model::TemplatePart p;
      p.literal = false;
      p.text = util::collapse_ws(text(e));
      out.push_back(std::move(p));
    };
    switch (kind(n)) {
      case K::String: case K::Template: {
        std::string run;
        for (std::uint32_t i = 0, c = ts_node_named_child_count(n); i < c; ++i) {
          TSNode part = ts_node_named_child(n, i);
          switch (kind(part)) {
            case K::Fragment: javascript::append_fragment(text(part), run); break;
            case K::Escape: {
              TSNode next = i + 1 < c ? ts_node_named_child(n, i + 1) : TSNode{};
              bool joined = false;
              javascript::decode_escape(text(part), kind(next) == K::Escape ? text(next) : std::string_view(), run, joined);
              if (joined) ++i;
              break;
            }
            case K::Substitution:
              literal(std::exchange(run, {}));
              interpolation(ts_node_named_child(part, 0));
              break;
            default: return false;  // what the grammar does not say
          }
        }
        literal(std::move(run));
        return true;
      }
      case K::Binary: {
        if (depth > k_max_callee_depth || text(child(n, m_g.f_operator)) != "+") return false;
        TSNode l = child(n, m_g.f_left), r = child(n, m_g.f_right);
        for (TSNode side : {l, r}) {
          const K k = kind(unwrap(side));
          if (k == K::String || k == K::Template || k == K::Binary) {
            if (!message_parts(side, out, depth + 1)) return false;
          } else {
            interpolation(side);
          }
        }
        return true;
      }
      default: return false;
    }
  }

  // The name of an object literal's owner: `const api = {…}` → "api",
  // `module.exports = {…}` → "" (its methods are the module's exports),
  // `export default {…}` → "default"; nullopt for an object of no name.
  std::optional<std::string> object_owner(TSNode object) const {
    TSNode parent = parent_of(object);
    while (kind(parent) == K::Paren || kind(parent) == K::Cast) parent = parent_of(parent);
    switch (kind(parent)) {
      case K::Declarator: return std::string(text(child(parent, m_g.f_name)));
      case K::Assign: {
        std::string left = callee(child(parent, m_g.f_left));
        if (left == "module.exports" || left == "exports") return std::string();
        if (left.starts_with("module.exports.")) return left.substr(15);
        if (left.starts_with("exports.")) return left.substr(8);
        if (left.find('?') != std::string::npos || left.empty()) return std::nullopt;
        return left;
      }
      case K::Export: return std::string("default");
      case K::Arguments: {
        // `const GraphQLInt = new GraphQLScalarType({serialize() {…}})`:
        // the first argument's methods are the instance's (`GraphQLInt.
        // serialize`), as a class made from its config keeps them.
        TSNode made = parent_of(parent);
        if ((kind(made) != K::New && kind(made) != K::Call) || !ts_node_eq(ts_node_named_child(parent, 0), object))
          return std::nullopt;
        TSNode bound = parent_of(made);
        if (kind(bound) != K::Declarator) return std::nullopt;
        return std::string(text(child(bound, m_g.f_name)));
      }
      case K::Pair: {
        auto outer = object_owner(parent_of(parent));
        if (!outer) return std::nullopt;
        std::string key(text(child(parent, m_g.f_key)));
        return outer->empty() ? key : *outer + '.' + key;
      }
      default: return std::nullopt;
    }
  }

  // The qualname a function is known by, as V8 names it, with the class or
  // object it belongs to; "" for a function of no name (a callback).
  std::string function_qualname(TSNode fn) const {
    TSNode parent = parent_of(fn);
    std::string own(text(child(fn, m_g.f_name)));
    if (kind(fn) == K::Method) {
      if (kind(parent) == K::ClassBody) {
        const Frame* c = class_frame();
        return c ? c->cls + '.' + own : std::string();
      }
      if (kind(parent) == K::Object) {
        auto owner = object_owner(parent);
        if (!owner) return {};
        return owner->empty() ? own : *owner + '.' + own;
      }
      return {};
    }
    // `function f() {}`, `export default function f() {}`: its own name.
    if (!own.empty() && kind(parent) != K::Declarator && kind(parent) != K::Assign && kind(parent) != K::Pair &&
        kind(parent) != K::Field)
      return own;
    while (kind(parent) == K::Paren || kind(parent) == K::Cast) parent = parent_of(parent);
    switch (kind(parent)) {
      case K::Declarator: return std::string(text(child(parent, m_g.f_name)));
      case K::Assign: {
        std::string left = callee(child(parent, m_g.f_left));
        if (left == "module.exports" || left == "exports") return own.empty() ? "default" : own;
        if (left.starts_with("module.exports.")) return left.substr(15);
        if (left.starts_with("exports.")) return left.substr(8);
        if (left.empty() || left.find('?') != std::string::npos || left.starts_with("this.")) return {};
        // `X.prototype.f = function …`: a method of X.
        if (auto p = left.find(".prototype."); p != std::string::npos) return left.substr(0, p) + left.substr(p + 10);
        return left;
      }
      case K::Pair: {
        auto owner = object_owner(parent_of(parent));
        if (!owner) return {};
        std::string key(text(child(parent, m_g.f_key)));
        return owner->empty() ? key : *owner + '.' + key;
      }
      case K::Field: {
        const Frame* c = class_frame();
        std::string_view key = text(child(parent, m_g.f_property));
        if (key.empty()) key = text(child(parent, m_g.f_name));
        return c && !key.empty() ? c->cls + '.' + std::string(key) : std::string();
      }
      case K::Export: return own.empty() ? "default" : own;
      default: return own;
    }
  }

  void enter_function(TSNode fn, std::uint32_t depth) {
    const Frame* outer = function_frame();
    std::string qualname = function_qualname(fn);
    model::FunctionCalls f;
    f.line = line_of(fn);
    std::string_view own = text(child(fn, m_g.f_name));
    if (outer) {
      // A closure: its calls are the enclosing function's.
      const auto& around = m_out.functions[outer->function];
      f.nested = true;
      f.name = std::string(own);
      f.qualname = around.qualname + '.' + (qualname.empty() ? std::string("<anonymous>") : qualname);
      m_out.functions.push_back(std::move(f));
      return;
    }
    // An anonymous function at the top level (a module wrapper, an IIFE,
    // a callback given at load time): its functions are the module's.
    if (qualname.empty()) return;
    f.qualname = std::move(qualname);
    auto dot = f.qualname.rfind('.');
    f.name = dot == std::string::npos ? f.qualname : f.qualname.substr(dot + 1);
    if (kind(fn) == K::Method && (has_token(fn, "get") || has_token(fn, "set")))
      f.property = has_token(fn, "get") ? "getter" : "setter";
    m_frames.push_back({depth, static_cast<int>(m_out.functions.size()), {}});
    m_out.functions.push_back(std::move(f));
  }

  void enter_class(TSNode n, std::uint32_t depth) {
    if (function_frame()) return;  // a class made in a function: the function's
    std::string name(text(child(n, m_g.f_name)));
    if (name.empty()) {
      TSNode parent = parent_of(n);
      if (kind(parent) == K::Declarator) name = std::string(text(child(parent, m_g.f_name)));
      else if (kind(parent) == K::Export) name = "default";
      else if (kind(parent) == K::Assign) {
        std::string left = callee(child(parent, m_g.f_left));
        if (left == "module.exports") name = "default";
        else if (left.starts_with("exports.")) name = left.substr(8);
        else if (left.starts_with("module.exports.")) name = left.substr(15);
      }
    }
    if (name.empty()) return;
    model::ClassBases c;
    c.qualname = name;
    for (std::uint32_t i = 0, count = ts_node_named_child_count(n); i < count; ++i) {
      TSNode h = ts_node_named_child(n, i);
      if (kind(h) != K::Heritage) continue;
      TSNode base = ts_node_named_child(h, 0);
      if (kind(base) == K::ExtendsClause) base = child(base, m_g.f_value);
      std::string b = callee(base);
      if (!b.empty() && b.find('?') == std::string::npos) c.bases.push_back(std::move(b));
    }
    m_out.class_bases.push_back(std::move(c));
    m_frames.push_back({depth, -1, std::move(name)});
  }

  // `x = new Cls(…)` in a function (or at the top level): {"x", "Cls"},
  // `this.x = …` likewise, as the graph reads a receiver's class.
  void bind(std::string name, TSNode value) {
    value = unwrap(value);
    if (kind(value) != K::New || name.empty()) return;
    std::string cls = callee(child(value, m_g.f_constructor));
    if (cls.empty() || cls.find('?') != std::string::npos) return;
    if (const Frame* f = function_frame()) m_out.functions[f->function].assigned.emplace_back(std::move(name), std::move(cls));
    else if (!name.starts_with("this.")) m_out.assigned.emplace_back(std::move(name), std::move(cls));
  }

  // `require('./x')`, the module it names, or "". So does a namespace
  // import as tsc and Babel compile it to CommonJS, the `require` wrapped
  // in their interop helper (`const ERROR_MSGS =
  // __importStar(require("../constants/error_msgs"))`, `(0,
  // tslib_1.__importStar)(…)`, `_interopRequireWildcard(…)`): its members
  // are the module's exports, as `ns.X` of `import * as ns` reads them.
  std::string required(TSNode call, int depth = 0) const {
    if (kind(call) != K::Call) return {};
    const std::string_view fn = text(child(call, m_g.f_function));
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
    if (fn == "require") return unquote(ts_node_named_child(args, 0));
    const bool wrapper = fn.ends_with("__importStar") || fn.ends_with("__importStar)") ||
                         fn.ends_with("_interopRequireWildcard") || fn.ends_with("_interopRequireWildcard)");
    if (!wrapper || depth > 0 || ts_node_named_child_count(args) != 1) return {};
    return required(unwrap(ts_node_named_child(args, 0)), depth + 1);
  }

  // The text a top-level binding's value writes when it is a plain string
  // literal or a `+` of them (tsc keeps a long text split over lines:
  // `exports.X = 'Invalid Container constructor argument. ' + 'Container
  // options must be an object.'`), as one literal; "" when it is not, or
  // a piece holds an escape.
  std::string written_text(TSNode value, int depth = 0) const {
    value = unwrap(value);
    if (kind(value) == K::String) {
      const std::string_view t = text(value);
      return depth == 0 || t.find('\\') == std::string_view::npos ? std::string(t) : std::string();
    }
    if (kind(value) != K::Binary || depth > 32 || text(child(value, m_g.f_operator)) != "+") return {};
    const std::string left = written_text(child(value, m_g.f_left), depth + 1);
    const std::string right = written_text(child(value, m_g.f_right), depth + 1);
    if (left.size() < 2 || right.size() < 2) return {};
    return '\'' + left.substr(1, left.size() - 2) + right.substr(1, right.size() - 2) + '\'';
  }

  void read_declarator(TSNode d) {
    TSNode name = child(d, m_g.f_name), value = unwrap(child(d, m_g.f_value));
    if (kind(name) == K::Identifier) bind(std::string(text(name)), value);
    // `require('./x')`, `require('./x').y`, destructured.
    std::string module = required(value), member;
    if (module.empty() && kind(value) == K::Member) {
      module = required(unwrap(child(value, m_g.f_object)));
      member = std::string(text(child(value, m_g.f_property)));
    }
    if (module.empty()) return;
    if (kind(name) == K::Identifier) {
      m_out.imports.push_back({module, member, std::string(text(name)), 0});
    } else if (kind(name) == K::ObjectPattern && member.empty()) {
      for (std::uint32_t i = 0, c = ts_node_named_child_count(name); i < c; ++i) {
        TSNode p = ts_node_named_child(name, i);
        if (kind(p) == K::ShorthandPattern) {
          m_out.imports.push_back({module, std::string(text(p)), {}, 0});
        } else if (kind(p) == K::PairPattern) {
          TSNode v = child(p, m_g.f_value);
          if (kind(v) == K::Identifier) m_out.imports.push_back({module, std::string(text(child(p, m_g.f_key))), std::string(text(v)), 0});
        }
      }
    }
  }

  // The top level's `const NAME = 'text'` (exported or not), `exports.NAME
  // = 'text'` (or a `+` of texts) and each text of `const NAME = { key:
  // 'text' }` (as `NAME.key`), as module bindings whose value is the literal as written
  // (link_javascript_imported_constants); a name bound twice is left to
  // the reader, which counts them.
  void read_module_texts(TSNode root) {
    // Entries of message tables kept per file: a table of thousands (a
    // locale's) is data, not messages.
    constexpr std::size_t k_max_table_entries = 512;
    std::size_t table_entries = 0;
    auto keep = [&](std::string_view name, TSNode value, TSNode at) {
      value = unwrap(value);
      if (!name.empty() && kind(value) == K::Object) {
        // A message table, `const MESSAGES = { badInput: 'The input …' }`:
        // each text under `MESSAGES.badInput`.
        for (std::uint32_t k = 0, c = ts_node_named_child_count(value); k < c && table_entries < k_max_table_entries; ++k) {
          TSNode pair = ts_node_named_child(value, k);
          if (kind(pair) != K::Pair) continue;
          TSNode key = child(pair, m_g.f_key), v = unwrap(child(pair, m_g.f_value));
          if (std::string_view(ts_node_type(key)) != "property_identifier" || kind(v) != K::String) continue;
          model::Binding b;
          b.name = std::string(name) + "." + std::string(text(key));
          b.line = static_cast<int>(ts_node_start_point(pair).row) + 1;
          b.value = std::string(text(v));
          m_out.module_bindings.push_back(std::move(b));
          ++table_entries;
        }
        return;
      }
      std::string written = written_text(value);
      if (name.empty() || written.empty()) return;
      model::Binding b;
      b.name = std::string(name);
      b.line = static_cast<int>(ts_node_start_point(at).row) + 1;
      b.value = std::move(written);
      m_out.module_bindings.push_back(std::move(b));
    };
    for (TSNode st : named_children(root)) {
      if (kind(st) == K::Export && !ts_node_is_null(child(st, m_g.f_declaration))) st = child(st, m_g.f_declaration);
      if (kind(st) == K::Lexical) {
        if (!text(st).starts_with("const")) continue;  // `let`, `var`: may be bound again
        for (std::uint32_t k = 0, c = ts_node_named_child_count(st); k < c; ++k)
          if (TSNode d = ts_node_named_child(st, k); kind(d) == K::Declarator && kind(child(d, m_g.f_name)) == K::Identifier)
            keep(text(child(d, m_g.f_name)), child(d, m_g.f_value), st);
      } else if (TSNode a = ts_node_named_child(st, 0); std::string_view(ts_node_type(st)) == "expression_statement" &&
                                                        kind(a) == K::Assign) {
        const std::string left = callee(child(a, m_g.f_left));
        if (left.starts_with("exports.") && left.find('.', 8) == std::string::npos) keep(left.substr(8), child(a, m_g.f_right), st);
        // `pp.raiseRecoverable = pp.raise`: a method's other name on the
        // same object, kept as its binding (link_javascript_caller_messages
        // gives calls of either to the method's sites).
        TSNode right = unwrap(child(a, m_g.f_right));
        const std::size_t dot = left.find('.');
        if (kind(right) == K::Member && dot != std::string::npos && dot > 0 && left.find('.', dot + 1) == std::string::npos &&
            left != "module.exports") {
          const std::string value = callee(right);
          if (value.size() > dot + 1 && value.compare(0, dot + 1, left, 0, dot + 1) == 0 &&
              value.find('.', dot + 1) == std::string::npos && value != left) {
            model::Binding b;
            b.name = left;
            b.line = static_cast<int>(ts_node_start_point(st).row) + 1;
            b.value = value;
            m_out.module_bindings.push_back(std::move(b));
          }
        }
      }
    }
  }

  // Adds "name", or "exported=local" when they differ.
  void add_export(std::string_view exported, std::string_view local) {
    if (exported.empty() || local.empty()) return;
    m_out.exports.push_back(exported == local ? std::string(exported) : std::string(exported) + '=' + std::string(local));
  }

  void read_assignment(TSNode a) {
    std::string left = callee(child(a, m_g.f_left));
    TSNode right = unwrap(child(a, m_g.f_right));
    if (left.starts_with("this.")) bind(left, right);
    if (function_frame()) return;
    std::string exported;
    if (left == "module.exports" || left == "exports") exported = "default";
    else if (left.starts_with("module.exports.")) exported = left.substr(15);
    else if (left.starts_with("exports.")) exported = left.substr(8);
    else return;
    if (exported.find('.') != std::string::npos) return;
    switch (kind(right)) {
      case K::Identifier: add_export(exported, text(right)); break;
      case K::Function: case K::Arrow: case K::Class: {
        std::string_view own = text(child(right, m_g.f_name));
        add_export(exported, exported == "default" && !own.empty() ? own : std::string_view(exported));
        break;
      }
      case K::Object:
        if (exported != "default") {
          add_export(exported, exported);
          break;
        }
        // `module.exports = {a, b: c, m() {…}}`: each key.
        for (std::uint32_t i = 0, c = ts_node_named_child_count(right); i < c; ++i) {
          TSNode p = ts_node_named_child(right, i);
          if (kind(p) == K::Shorthand) add_export(text(p), text(p));
          else if (kind(p) == K::Method) add_export(text(child(p, m_g.f_name)), text(child(p, m_g.f_name)));
          else if (kind(p) == K::Pair) {
            std::string_view key = text(child(p, m_g.f_key));
            TSNode v = unwrap(child(p, m_g.f_value));
            add_export(key, kind(v) == K::Identifier ? text(v) : key);
          }
        }
        break;
      default:
        if (std::string module = required(right); !module.empty() && exported == "default")
          m_out.imports.push_back({module, "*", {}, 0});
        else
          add_export(exported, exported);
        break;
    }
  }

  void read_import(TSNode n) {
    std::string module = unquote(child(n, m_g.f_source));
    for (std::uint32_t i = 0, c = ts_node_named_child_count(n); i < c; ++i) {
      TSNode x = ts_node_named_child(n, i);
      if (kind(x) == K::ImportRequire) {  // TypeScript's `import x = require('./x')`
        std::string m = unquote(child(x, m_g.f_source));
        TSNode id = ts_node_named_child(x, 0);
        if (!m.empty() && kind(id) == K::Identifier) m_out.imports.push_back({m, {}, std::string(text(id)), 0});
      }
      if (kind(x) != K::ImportClause || module.empty()) continue;
      for (std::uint32_t k = 0, ck = ts_node_named_child_count(x); k < ck; ++k) {
        TSNode y = ts_node_named_child(x, k);
        if (kind(y) == K::Identifier) {
          m_out.imports.push_back({module, "default", std::string(text(y)), 0});
        } else if (kind(y) == K::NamespaceImport) {
          m_out.imports.push_back({module, {}, std::string(text(ts_node_named_child(y, 0))), 0});
        } else if (kind(y) == K::NamedImports) {
          for (std::uint32_t s = 0, cs = ts_node_named_child_count(y); s < cs; ++s) {
            TSNode spec = ts_node_named_child(y, s);
            if (kind(spec) != K::ImportSpecifier) continue;
            std::string name(text(child(spec, m_g.f_name))), alias(text(child(spec, m_g.f_alias)));
            if (alias == name) alias.clear();
            m_out.imports.push_back({module, std::move(name), std::move(alias), 0});
          }
        }
      }
    }
  }

  void read_export(TSNode n) {
    std::string module = unquote(child(n, m_g.f_source));
    const bool is_default = has_token(n, "default");
    TSNode declared = child(n, m_g.f_declaration);
    if (!ts_node_is_null(declared)) {
      if (kind(declared) == K::Lexical) {
        for (std::uint32_t i = 0, c = ts_node_named_child_count(declared); i < c; ++i) {
          TSNode d = ts_node_named_child(declared, i);
          if (kind(d) == K::Declarator && kind(child(d, m_g.f_name)) == K::Identifier) {
            std::string_view name = text(child(d, m_g.f_name));
            add_export(name, name);
          }
        }
      } else {
        std::string_view name = text(child(declared, m_g.f_name));
        add_export(is_default ? "default" : name, name.empty() ? "default" : name);
      }
      return;
    }
    if (is_default) {
      TSNode value = unwrap(child(n, m_g.f_value));
      if (ts_node_is_null(value))  // TypeScript reads `export default x` so
        for (std::uint32_t i = 0, c = ts_node_named_child_count(n); i < c && ts_node_is_null(value); ++i)
          if (kind(ts_node_named_child(n, i)) != K::Comment) value = ts_node_named_child(n, i);
      std::string_view own = kind(value) == K::Identifier ? text(value) : text(child(value, m_g.f_name));
      add_export("default", own.empty() ? "default" : own);
      return;
    }
    bool clause = false;
    for (std::uint32_t i = 0, c = ts_node_named_child_count(n); i < c; ++i) {
      TSNode x = ts_node_named_child(n, i);
      if (kind(x) == K::NamespaceExport) {  // `export * as ns from './x'`
        clause = true;
        std::string_view ns = text(ts_node_named_child(x, 0));
        if (!module.empty() && !ns.empty()) {
          m_out.imports.push_back({module, {}, std::string(ns), 0});
          add_export(ns, ns);
        }
      }
      if (kind(x) != K::ExportClause) continue;
      clause = true;
      for (std::uint32_t s = 0, cs = ts_node_named_child_count(x); s < cs; ++s) {
        TSNode spec = ts_node_named_child(x, s);
        if (kind(spec) != K::ExportSpecifier) continue;
        std::string name(text(child(spec, m_g.f_name))), alias(text(child(spec, m_g.f_alias)));
        if (alias.empty()) alias = name;
        if (module.empty()) {
          add_export(alias, name);
        } else {
          // A re-export binds the name as an import does.
          m_out.imports.push_back({module, name, alias == name ? std::string() : alias, 0});
          add_export(alias, alias);
        }
      }
    }
    if (!clause && !module.empty()) m_out.imports.push_back({module, "*", {}, 0});  // `export * from './x'`
  }

  std::string_view m_src;
  const Grammar& m_g;
  model::FileFacts& m_out;
  std::vector<Frame> m_frames;
  std::vector<TSNode> m_path;  // the walk's current node and its ancestors
  std::unordered_map<int, std::unordered_set<std::string>> m_seen;  // by m_out.functions index
};

}  // namespace

void read_calls(std::string_view src, const TSLanguage* lang, TSNode root, model::FileFacts& out) {
  CallReader(src, grammar_of(lang), out).run(root);
}

void read_imports(std::string_view src, const TSLanguage* lang, TSNode root, model::FileFacts& out) {
  CallReader(src, grammar_of(lang), out).run_imports(root);
}

}  // namespace errdex::scan::javascript_detail
