#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scan/javascript/file_scanner.h"
#include "scan/javascript/text.h"

namespace errdex::scan::javascript_detail {

// --- messages --------------------------------------------------------------

MessageTemplate FileScanner::message_from(TSNode expr, std::uint32_t at) {
  m_variants.clear();
  MessageTemplate t;
  expr = unwrap(expr);
  if (ts_node_is_null(expr)) return t;
  if (kind(expr) == Kind::Object) {
    // `new UniqueConstraintError({ message, errors, cause: err })`,
    // `new ValidationError({ message: 'bad input' })`: the options' `message`
    // is the message; options without one say nothing of it.
    for (std::uint32_t i = 0, n = named_count(expr); i < n; ++i) {
      TSNode p = ts_node_named_child(expr, i);
      if (kind(p) == Kind::Shorthand && text(p) == "message") return message_from(p, at);
      if (kind(p) != Kind::Pair) continue;
      std::string_view key = text(child(p, m_g.f_key));
      if (key == "message" || key == "'message'" || key == "\"message\"") return message_from(child(p, m_g.f_value), at);
    }
    return t;
  }
  if (auto built = build(expr, at, 0)) return std::move(*built);
  t.style = "expression";
  t.parts.push_back(interp(collapse_ws(text(expr))));
  return t;
}

bool FileScanner::literal_parts(TSNode n, std::vector<TemplatePart>& parts) const {
  Kind k = kind(n);
  if (k != Kind::String && k != Kind::Template) return false;
  std::uint32_t count = ts_node_child_count(n);
  std::string lit;
  auto flush = [&] {
    append_literal(parts, lit);
    lit.clear();
  };
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode ch = ts_node_child(n, i);
    switch (kind(ch)) {
      case Kind::Fragment: javascript::append_fragment(text(ch), lit); break;
      case Kind::Escape: {
        TSNode next = i + 1 < count ? ts_node_child(n, i + 1) : TSNode{};
        bool consumed = false;
        javascript::decode_escape(text(ch), kind(next) == Kind::Escape ? text(next) : std::string_view{}, lit, consumed);
        if (consumed) ++i;
        break;
      }
      case Kind::Substitution: {
        flush();
        std::string_view inner = text(ch);
        if (inner.starts_with("${")) inner.remove_prefix(2);
        if (inner.ends_with("}")) inner.remove_suffix(1);
        parts.push_back(interp(javascript::expression_text(inner)));
        break;
      }
      default:
        // tree-sitter-javascript leaves a template's plain text unnamed
        // between its named pieces: the bytes between the backticks.
        if (k == Kind::Template && !ts_node_is_named(ch)) {
          std::string_view t = text(ch);
          if (t != "`") javascript::append_fragment(t, lit);
        }
        break;
    }
  }
  flush();
  return true;
}

// `msg || 'Assertion failed'`, `message ?? \`…\``, `message != null ?
// message : 'Unexpected invariant triggered.'` (and `p ? p : …`, `p ==
// null ? … : p`): a parameter of the enclosing function, or a text when
// the call leaves it out: the parameter as the message (its callers' texts
// become alternatives: add_caller_messages), and the text.
std::optional<std::pair<MessageTemplate, MessageTemplate>> FileScanner::parameter_or_default(TSNode n,
                                                                                              std::uint32_t at) {
  n = unwrap(n);
  TSNode param{}, fallback{};
  auto is_nothing = [&](TSNode x) {
    const std::string_view t = text(unwrap(x));
    return t == "null" || t == "undefined" || t == "void 0";
  };
  if (kind(n) == Kind::Binary) {
    const std::string_view op = text(child(n, m_g.f_operator));
    if (op != "||" && op != "??") return std::nullopt;
    param = unwrap(child(n, m_g.f_left));
    fallback = unwrap(child(n, m_g.f_right));
  } else if (kind(n) == Kind::Branch && ts_node_type(n) == std::string_view("ternary_expression")) {
    TSNode cond = unwrap(child(n, m_g.f_condition));
    TSNode yes = unwrap(child(n, m_g.f_consequence)), no = unwrap(child(n, m_g.f_alternative));
    // The name the condition tests, and whether it holds when the name is set.
    std::string_view tested;
    bool set_when_true = true;
    if (kind(cond) == Kind::Identifier) {
      tested = text(cond);
    } else if (kind(cond) == Kind::Binary) {
      const std::string_view op = text(child(cond, m_g.f_operator));
      TSNode l = unwrap(child(cond, m_g.f_left)), r = unwrap(child(cond, m_g.f_right));
      if (op != "!=" && op != "!==" && op != "==" && op != "===") return std::nullopt;
      if (kind(l) == Kind::Identifier && is_nothing(r)) tested = text(l);
      else if (kind(r) == Kind::Identifier && is_nothing(l)) tested = text(r);
      else return std::nullopt;
      set_when_true = op.starts_with("!");
    } else {
      return std::nullopt;
    }
    param = set_when_true ? yes : no;
    fallback = set_when_true ? no : yes;
    if (kind(param) != Kind::Identifier || text(param) != tested) return std::nullopt;
  } else {
    return std::nullopt;
  }
  const Kind fk = kind(fallback);
  if (kind(param) != Kind::Identifier || (fk != Kind::String && fk != Kind::Template && fk != Kind::Binary))
    return std::nullopt;
  TSNode fn = scope_of(at);
  if (ts_node_eq(fn, m_root)) return std::nullopt;
  const std::vector<std::string> params = parameter_names(fn);
  if (std::find(params.begin(), params.end(), text(param)) == params.end()) return std::nullopt;
  std::optional<MessageTemplate> text_given = build(fallback, at, 1);
  if (!text_given || !text_given->from_literals) return std::nullopt;
  MessageTemplate t;
  t.style = "variable";
  t.parts.push_back(interp(std::string(text(param))));
  return std::pair(std::move(t), std::move(*text_given));
}

const std::string* FileScanner::enum_text(std::string_view dotted) {
  if (!m_enums_read) {
    m_enums_read = true;
    auto field = [](TSNode n, std::string_view name) {
      return ts_node_child_by_field_name(n, name.data(), static_cast<std::uint32_t>(name.size()));
    };
    auto type_of = [](TSNode n) { return ts_node_is_null(n) ? std::string_view() : std::string_view(ts_node_type(n)); };
    auto keep = [&](std::string_view e, std::string_view k, TSNode value) {
      if (type_of(value) != "string") return;
      if (std::optional<std::string> v = plain_string(value)) m_enum_texts.try_emplace(std::string(e) + "." + std::string(k), std::move(*v));
    };
    for (TSNode st : named_children(m_root)) {
      if (type_of(st) == "export_statement" && !ts_node_is_null(field(st, "declaration"))) st = field(st, "declaration");
      if (type_of(st) == "enum_declaration") {  // `enum E { K = "text" }`
        const std::string_view e = text(field(st, "name"));
        TSNode body = field(st, "body");
        for (std::uint32_t k = 0, m = named_count(body); k < m; ++k)
          if (TSNode a = ts_node_named_child(body, k); type_of(a) == "enum_assignment")
            keep(e, text(field(a, "name")), unwrap(field(a, "value")));
        continue;
      }
      // `(function (E) { E["K"] = "text"; … })(E || (E = {}))`
      TSNode call = type_of(st) == "expression_statement" ? unwrap(ts_node_named_child(st, 0)) : TSNode{};
      if (type_of(call) != "call_expression") continue;
      TSNode fn = unwrap(field(call, "function"));
      if (type_of(fn) != "function_expression" && type_of(fn) != "function") continue;
      const std::vector<std::string> params = parameter_names(fn);
      TSNode body = field(fn, "body");
      if (params.size() != 1 || type_of(body) != "statement_block") continue;
      for (std::uint32_t k = 0, m = named_count(body); k < m; ++k) {
        TSNode a = unwrap(ts_node_named_child(ts_node_named_child(body, k), 0));
        if (type_of(a) != "assignment_expression") continue;
        TSNode left = field(a, "left");
        if (type_of(left) != "subscript_expression" || text(field(left, "object")) != params[0]) continue;
        TSNode key = unwrap(field(left, "index"));
        if (std::optional<std::string> k_text = type_of(key) == "string" ? plain_string(key) : std::nullopt)
          keep(params[0], *k_text, unwrap(field(a, "right")));
      }
    }
  }
  if (m_enum_texts.empty()) return nullptr;
  std::string key = collapse_ws(dotted);
  if (key.starts_with("exports.")) key.erase(0, 8);
  auto it = m_enum_texts.find(key);
  return it == m_enum_texts.end() ? nullptr : &it->second;
}

std::optional<MessageTemplate> FileScanner::build(TSNode n, std::uint32_t at, int depth) {
  if (depth > k_max_depth) return std::nullopt;
  n = unwrap(n);
  MessageTemplate t;
  switch (kind(n)) {
    case Kind::String: case Kind::Template:
      t.style = kind(n) == Kind::String ? "string" : "fstring";
      t.from_literals = true;
      literal_parts(n, t.parts);
      if (kind(n) == Kind::Template) inline_conditional_locals(t.parts, at);
      return t;
    case Kind::Binary: {
      if (text(child(n, m_g.f_operator)) != "+") return std::nullopt;
      bool lit = false;
      auto left = operand(child(n, m_g.f_left), at, depth, lit);
      auto right = operand(child(n, m_g.f_right), at, depth, lit);
      if (!lit) return std::nullopt;  // `a + b`: a sum, not text
      t.style = "concat";
      t.from_literals = true;
      append_parts(t.parts, std::move(left));
      append_parts(t.parts, std::move(right));
      return t;
    }
    case Kind::Member:
      if (const std::string* e = enum_text(text(n))) {
        t.style = "string";
        t.from_literals = true;
        t.parts.push_back(TemplatePart{true, *e, {}, 0});
        return t;
      }
      // `exports.NOT_FOUND = 'Not found'` at the top of the module
      // (TypeScript's CommonJS output of `export const`), read as the
      // name it is.
      if (const std::string_view object = text(child(n, m_g.f_object)); object != "exports" && object != "module.exports")
        return table_entry(n, at, depth);
      [[fallthrough]];
    case Kind::Identifier:
    case Kind::Shorthand: {  // `{ message }`: the name's value
      if (m_hops >= k_max_variable_hops) return std::nullopt;
      struct Hop {
        int& hops;
        explicit Hop(int& h) : hops(++h) {}
        ~Hop() { --hops; }
      } hop(m_hops);
      const Assign* last = nullptr;
      const std::vector<Assign>& assigns = assignments_reaching(text(n), at, last);
      // Its value (a parameter's is the parameter), then the text appended
      // after it (`m += \`: ${x}\``). Appends on a branch the throw is not
      // on may not run: the message without them is a variant too.
      bool lit = false;
      t.style = "variable";
      t.parts = last ? operand(last->value, last->at, depth, lit) : std::vector<TemplatePart>{interp(std::string(text(n)))};
      MessageTemplate always = t;
      struct Append {
        std::vector<TemplatePart> parts;
        std::uint32_t branch;  // 0: on every path to the throw
      };
      std::vector<Append> appends;
      std::unordered_map<std::uint32_t, int> per_branch;
      for (const Assign& a : assigns) {
        if (!a.append || (last && a.at <= last->at) || a.at >= at || a.name != text(n)) continue;
        Append ap{operand(a.value, a.at, depth + 1, lit), branch_of(a.node, at)};
        if (ap.branch) ++per_branch[ap.branch];
        appends.push_back(std::move(ap));
      }
      // A branch appending once shows its text (the variant without it
      // covers the other path); a branch appending in several places (an
      // if/else chain) is one interpolation named after the variable.
      bool branched = false, appended = !appends.empty();
      std::uint32_t shown = 0;
      for (Append& ap : appends) {
        if (ap.branch == 0) append_parts(always.parts, std::vector<TemplatePart>(ap.parts));
        branched = branched || ap.branch != 0;
        if (ap.branch == 0 || per_branch[ap.branch] == 1) {
          append_parts(t.parts, std::move(ap.parts));
        } else if (ap.branch != shown) {
          t.parts.push_back(interp(std::string(text(n))));
        }
        shown = ap.branch;
      }
      if (!lit || (!last && !appended)) return std::nullopt;
      t.from_literals = always.from_literals = true;
      if (branched && depth == 0 && m_variants.size() < 8) m_variants.push_back(std::move(always));
      return t;
    }
    case Kind::Call: {
      // `'a'.concat(x, 'b')`: how Babel writes a template literal. With
      // core-js (`@babel/runtime-corejs3`) it calls the method through a
      // helper on the receiver, bound to a temporary: `(0,
      // _concat["default"])(_context = 'a'.concat(x, 'b')).call(_context,
      // y)`, `_concatInstanceProperty(_context = …).call(_context, y)`.
      TSNode fn = child(n, m_g.f_function);
      TSNode receiver = corejs_concat_receiver(fn);
      if (!ts_node_is_null(receiver) ||
          (kind(fn) == Kind::Member && text(child(fn, m_g.f_property)) == "concat")) {
        auto head = build(ts_node_is_null(receiver) ? child(fn, m_g.f_object) : receiver, at, depth + 1);
        if (!head || !head->from_literals) return std::nullopt;
        t.style = "concat";
        t.from_literals = true;
        t.parts = std::move(head->parts);
        bool lit = true;
        TSNode args = child(n, m_g.f_arguments);
        // `.call(_context, …)`'s first argument is the receiver again.
        for (std::uint32_t k = ts_node_is_null(receiver) ? 0 : 1, count = named_count(args); k < count; ++k) {
          TSNode a = ts_node_named_child(args, k);
          if (kind(a) != Kind::Comment) append_parts(t.parts, operand(a, at, depth, lit));
        }
        inline_conditional_locals(t.parts, at);  // as in the template literal it was
        return t;
      }
      // util.format('…%s…', a): Node's printf.
      std::string_view callee = text(fn);
      if (callee != "util.format" && callee != "format") return build_text_helper(n, at, depth);
      TSNode fmt = argument(n, 0);
      if (kind(fmt) != Kind::String) return std::nullopt;
      std::vector<TemplatePart> lit;
      literal_parts(fmt, lit);
      std::vector<std::string> args = argument_texts(n);
      args.erase(args.begin());
      t.style = "percent";
      t.from_literals = true;
      t.parts = javascript::format_parts(lit.empty() ? std::string_view{} : std::string_view(lit[0].text), args);
      return t;
    }
    default:
      if (std::string_view(ts_node_type(n)) == "subscript_expression") return table_entries(n, at, depth);
      return std::nullopt;
  }
}

// The object literal `name` is bound to once, where `at` reads it (a
// table, not a value chosen on the way; a binding of an enclosing scope
// is found only when it is the one there), or null.
TSNode FileScanner::message_table(TSNode name, std::uint32_t at) {
  if (kind(name) != Kind::Identifier) return TSNode{};
  const Assign* last = nullptr;
  const std::vector<Assign>& assigns = assignments_reaching(text(name), at, last);
  if (!last || kind(unwrap(last->value)) != Kind::Object) return TSNode{};
  const bool own_scope = !assigns.empty() && last >= assigns.data() && last < assigns.data() + assigns.size();
  if (own_scope && std::count_if(assigns.begin(), assigns.end(), [&](const Assign& a) { return a.name == text(name); }) != 1)
    return TSNode{};
  return unwrap(last->value);
}

// `errors[type]` of a table of texts (punycode's `const errors = {
// 'overflow': 'Overflow: input needs wider integers to process', … }`,
// thrown as `new RangeError(errors[type])`): the entry a written key
// names; for a key only known when it runs, each entry, the first the
// message and the others its variants.
std::optional<MessageTemplate> FileScanner::table_entries(TSNode subscript, std::uint32_t at, int depth) {
  TSNode table = message_table(unwrap(child(subscript, m_g.f_object)), at);
  TSNode index = unwrap(ts_node_child_by_field_name(subscript, "index", 5));
  if (ts_node_is_null(table) || ts_node_is_null(index)) return std::nullopt;
  if (kind(index) == Kind::String) {
    std::string_view key = text(index);
    TSNode entry = key.size() >= 2 ? unwrap(object_property(table, key.substr(1, key.size() - 2))) : TSNode{};
    if (kind(entry) != Kind::String) return std::nullopt;
    auto t = build(entry, at, depth + 1);
    if (t) t->style = "variable";
    return t;
  }
  // In a constructor (multer's `this.message = errorMessages[code]`) the key
  // is each raise's own argument: the first entry would name the wrong one.
  for (TSNode up = ts_node_parent(subscript); !ts_node_is_null(up); up = ts_node_parent(up))
    if (kind(up) == Kind::Method || kind(up) == Kind::Function) {
      const std::string_view fn = text(child(up, m_g.f_name));
      if (fn == "constructor" || (!fn.empty() && std::isupper(static_cast<unsigned char>(fn[0])))) return std::nullopt;
      break;
    }
  std::optional<MessageTemplate> first;
  for (std::uint32_t i = 0, n = named_count(table); i < n; ++i) {
    TSNode p = ts_node_named_child(table, i);
    if (kind(p) != Kind::Pair || kind(unwrap(child(p, m_g.f_value))) != Kind::String) continue;
    auto t = build(unwrap(child(p, m_g.f_value)), at, depth + 1);
    if (!t) continue;
    t->style = "variable";
    if (!first) first = std::move(t);
    else if (depth == 0 && m_variants.size() < 32) m_variants.push_back(std::move(*t));
  }
  return first;
}

std::optional<MessageTemplate> FileScanner::table_entry(TSNode member, std::uint32_t at, int depth) {
  // Not an entry the function sets itself (`MESSAGES.x = …`).
  const Assign* set = nullptr;
  assignments_reaching(text(member), at, set);
  TSNode table = set ? TSNode{} : message_table(unwrap(child(member, m_g.f_object)), at);
  TSNode entry = unwrap(object_property(table, text(child(member, m_g.f_property))));
  if (kind(entry) != Kind::String) return std::nullopt;
  auto t = build(entry, at, depth + 1);
  if (t) t->style = "variable";
  return t;
}

TSNode FileScanner::corejs_concat_receiver(TSNode fn) const {
  // `HELPER(RECEIVER).call`, HELPER naming Babel's binding of core-js's
  // `instance/concat` (`_concat`, `_concat2`, `_concatInstanceProperty`),
  // called as `(0, _concat["default"])`, `_concat.default` or by name.
  if (kind(fn) != Kind::Member || text(child(fn, m_g.f_property)) != "call") return TSNode{};
  TSNode inner = unwrap(child(fn, m_g.f_object));
  if (kind(inner) != Kind::Call || named_count(child(inner, m_g.f_arguments)) != 1) return TSNode{};
  std::string_view callee = text(child(inner, m_g.f_function));
  const auto at = callee.find("_concat");
  if (at == std::string_view::npos || (at > 0 && (std::isalnum(static_cast<unsigned char>(callee[at - 1])) || callee[at - 1] == '_' || callee[at - 1] == '$')))
    return TSNode{};
  std::string_view rest = callee.substr(at + 7);
  if (rest.starts_with("InstanceProperty")) rest.remove_prefix(16);
  while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
  if (!(rest.empty() || rest.starts_with("[") || rest.starts_with(".default") || rest.starts_with(")"))) return TSNode{};
  TSNode receiver = unwrap(ts_node_named_child(child(inner, m_g.f_arguments), 0));
  if (kind(receiver) == Kind::Assign) receiver = unwrap(child(receiver, m_g.f_right));
  return receiver;
}

void FileScanner::inline_conditional_locals(std::vector<TemplatePart>& parts, std::uint32_t at) {
  for (TemplatePart& p : parts) {
    if (p.literal || p.text.empty() ||
        !std::all_of(p.text.begin(), p.text.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '$'; }))
      continue;
    const Assign* last = nullptr;
    const std::vector<Assign>& assigns = assignments_reaching(p.text, at, last);
    if (!last || branch_of(last->node, at) != 0) continue;
    // Changed after it (`plural += …`, a later branch's `plural = …`): not its one value.
    if (std::any_of(assigns.begin(), assigns.end(), [&](const Assign& a) { return a.name == p.text && a.at > last->at && a.at < at; }))
      continue;
    // Each branch a text, or a conditional of texts (not `code ?? '???'`,
    // nor `n === 1 ? '' : count`: the value is what it shows).
    auto texts_only = [&](auto& self, TSNode b, int depth) -> bool {
      b = unwrap(b);
      if (kind(b) == Kind::String || kind(b) == Kind::Template) return true;
      return depth < 4 && kind(b) == Kind::Branch && ts_node_type(b) == std::string_view("ternary_expression") &&
             self(self, child(b, m_g.f_consequence), depth + 1) && self(self, child(b, m_g.f_alternative), depth + 1);
    };
    TSNode value = unwrap(last->value);
    if (kind(value) != Kind::Branch || !texts_only(texts_only, value, 0)) continue;
    p.text = collapse_ws(text(value));
  }
}

// One side of a `+` (or what `+=` appends): its template when it builds
// one (`literal` then turns true when it came from literals), a number's
// digits, else the expression as one interpolation.
std::vector<TemplatePart> FileScanner::operand(TSNode s, std::uint32_t at, int depth, bool& literal) {
  s = unwrap(s);
  if (kind(s) == Kind::Number) return std::vector<TemplatePart>{TemplatePart{true, std::string(text(s)), {}, 0}};
  if (auto b = build(s, at, depth + 1)) {
    literal = literal || b->from_literals;
    return std::move(b->parts);
  }
  return std::vector<TemplatePart>{interp(javascript::expression_text(text(s)))};
}

// Where statement `n` runs only on some paths to byte `at`: the start
// (+1) of the outermost branch, loop, `case` or `try` of the function that
// holds it but not `at`; 0 when it runs on every path.
std::uint32_t FileScanner::branch_of(TSNode n, std::uint32_t at) const {
  std::uint32_t outer = 0;
  for (int i = 0; i < k_max_depth && !ts_node_is_null(n); ++i) {
    Kind k = kind(n);
    if (is_function(k)) break;
    if ((k == Kind::If || k == Kind::Else || k == Kind::While || k == Kind::Catch || k == Kind::Branch) &&
        !(at >= start_byte(n) && at < end_byte(n)))
      outer = start_byte(n) + 1;
    n = ts_node_parent(n);
  }
  return outer;
}

// The assignments of the scope that binds `name` for code at byte `at`,
// and in `last` the one whose value the name holds there: the latest
// before `at` in the function around it, else, when neither that function
// nor one enclosing it binds the name (assignment or parameter), the one
// assignment of an enclosing scope (`const invalidSchemaMessage = '…'` at
// the top of the module, read in a method).
const std::vector<FileScanner::Assign>& FileScanner::assignments_reaching(std::string_view name, std::uint32_t at,
                                                                          const Assign*& last) {
  last = nullptr;
  TSNode scope = scope_of(at);
  const std::vector<Assign>& own = assignments(scope);
  for (const Assign& a : own)
    if (a.at < at && !a.append && a.name == name) last = &a;
  if (last) return own;
  for (int hops = 0; hops < 16 && !ts_node_eq(scope, m_root); ++hops) {
    for (const Assign& a : assignments(scope))
      if (a.name == name) return own;
    const std::vector<std::string> params = parameter_names(scope);
    if (std::find(params.begin(), params.end(), name) != params.end()) return own;
    // The function enclosing this one, else the file.
    scope = outer_function(scope);
    const Assign* only = nullptr;
    int count = 0;
    for (const Assign& a : assignments(scope))
      if (a.name == name && !declares_only(a.value)) {
        only = &a;
        count += 1 + a.append;
      }
    if (count == 0) continue;
    if (count == 1) last = only;
    return own;
  }
  return own;
}

// `void 0` or `undefined`: what TypeScript's CommonJS output assigns each
// export first (`exports.A = exports.B = void 0;`), before its value.
bool FileScanner::declares_only(TSNode value) const {
  value = unwrap(value);
  for (int i = 0; i < 64 && kind(value) == Kind::Assign; ++i) value = unwrap(child(value, m_g.f_right));
  const std::string_view v = text(value);
  return v == "void 0" || v == "undefined";
}

// scope_of and outer_function read an index of the file's functions made
// once, not the tree up from a node: tree-sitter's ts_node_parent walks
// down from the root itself, so going up n levels costs n² (a chain of 400
// `else if`s each throwing took 20 s).
const std::vector<FileScanner::FunctionSpan>& FileScanner::function_spans() const {
  if (!m_function_spans_made) {
    m_function_spans_made = true;
    std::vector<int> open;  // the functions around the walk's node
    walk(m_root, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
      const std::uint32_t b = start_byte(x);
      while (!open.empty() && m_function_spans[static_cast<std::size_t>(open.back())].end <= b) open.pop_back();
      if (is_function(kind(x))) {
        m_function_spans.push_back({b, end_byte(x), x, open.empty() ? -1 : open.back()});
        open.push_back(static_cast<int>(m_function_spans.size() - 1));
      }
      return true;
    });
  }
  return m_function_spans;
}

// The index of the last function starting at or before `at`, -1 if none.
int FileScanner::last_function_from(std::uint32_t at) const {
  const std::vector<FunctionSpan>& spans = function_spans();
  auto after = std::upper_bound(spans.begin(), spans.end(), at,
                                [](std::uint32_t b, const FunctionSpan& f) { return b < f.start; });
  return static_cast<int>(after - spans.begin()) - 1;
}

TSNode FileScanner::scope_of(std::uint32_t at) const {
  const std::vector<FunctionSpan>& spans = function_spans();
  // The last function starting at or before `at`, then out through the
  // ones around it until one holds `at`.
  int k = last_function_from(at);
  while (k >= 0 && spans[static_cast<std::size_t>(k)].end <= at) k = spans[static_cast<std::size_t>(k)].outer;
  return k >= 0 ? spans[static_cast<std::size_t>(k)].node : m_root;
}

TSNode FileScanner::outer_function(TSNode fn) const {
  const std::vector<FunctionSpan>& spans = function_spans();
  for (int k = last_function_from(start_byte(fn)); k >= 0 && spans[static_cast<std::size_t>(k)].start == start_byte(fn); --k) {
    const FunctionSpan& f = spans[static_cast<std::size_t>(k)];
    if (ts_node_eq(f.node, fn)) return f.outer >= 0 ? spans[static_cast<std::size_t>(f.outer)].node : m_root;
  }
  return m_root;  // not a function of this tree: the file
}

const std::vector<FileScanner::Assign>& FileScanner::assignments(TSNode scope) {
  auto [it, added] = m_assigns.try_emplace(start_byte(scope));
  if (!added) return it->second;
  std::vector<Assign>& out = it->second;
  walk(scope, [&](TSNode x, std::uint32_t depth, TSTreeCursor*) {
    Kind k = kind(x);
    if (depth > 0 && is_function(k)) return false;
    if (k == Kind::Declarator) {
      TSNode v = child(x, m_g.f_value);
      if (!ts_node_is_null(v)) out.push_back({text(child(x, m_g.f_name)), v, start_byte(x), false, x});
    } else if (k == Kind::Assign) {
      out.push_back({text(child(x, m_g.f_left)), child(x, m_g.f_right), start_byte(x), false, x});
    } else if (k == Kind::AugAssign && text(child(x, m_g.f_operator)) == "+=") {
      out.push_back({text(child(x, m_g.f_left)), child(x, m_g.f_right), start_byte(x), true, x});
    }
    return true;
  });
  return out;
}

// The first in the tree of the functions of this file named `name`
// (declared, or the value of a declarator) outside strings and templates.
// Found from the name's occurrences in the text rather than by walking the
// whole tree: only those placed like a declaration's name are looked up.
TSNode FileScanner::function_named(std::string_view name) {
  auto [it, added] = m_functions.try_emplace(name);
  if (!added || name.empty()) return it->second;
  for (std::size_t at = m_src.find(name); at != std::string_view::npos; at = m_src.find(name, at + 1)) {
    if (!javascript::may_declare_name(m_src, at, name.size())) continue;
    TSNode fn = function_declared_at(static_cast<std::uint32_t>(at), name);
    if (!ts_node_is_null(fn)) return it->second = fn;
  }
  return it->second;
}

// The function whose name `name` starts at byte `at`: a function's own
// name, or a declarator's whose value is a function. Null when the name
// there is not one, or lies in a string, template or comment.
TSNode FileScanner::function_declared_at(std::uint32_t at, std::string_view name) const {
  TSTreeCursor cur = ts_tree_cursor_new(m_root);
  TSNode found{};
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    Kind k = kind(n);
    if (k == Kind::String || k == Kind::Template || k == Kind::Comment) break;
    if (k == Kind::Function || k == Kind::Declarator) {
      TSNode id = child(n, m_g.f_name);
      if (!ts_node_is_null(id) && start_byte(id) == at && text(id) == name) {
        TSNode v = k == Kind::Function ? n : child(n, m_g.f_value);
        if (is_function(kind(v))) found = v;
        break;
      }
    }
    if (ts_tree_cursor_goto_first_child_for_byte(&cur, at) < 0 || start_byte(ts_tree_cursor_current_node(&cur)) > at)
      break;
  }
  ts_tree_cursor_delete(&cur);
  return found;
}

}  // namespace errdex::scan::javascript_detail
