// Error classes a file defines: `class X extends Error`, the entries of a
// code-keyed table (`E('ERR_X', …)`), functions that return an error made
// (factories), and the displays a throw of one of them shows.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scan/javascript/file_scanner.h"
#include "scan/javascript/text.h"
#include "scan/tree_walk.h"

namespace errdex::scan::javascript_detail {

void FileScanner::visit_class(TSNode n) {
  TSNode heritage{};
  std::uint32_t count = named_count(n);
  for (std::uint32_t i = 0; i < count; ++i)
    if (kind(ts_node_named_child(n, i)) == Kind::ClassHeritage) heritage = ts_node_named_child(n, i);
  if (ts_node_is_null(heritage)) return;
  // JavaScript: `extends Base`; TypeScript: an extends_clause with a value.
  TSNode base = ts_node_named_child(heritage, 0);
  if (kind(base) == Kind::ExtendsClause) base = child(base, m_g.f_value);
  if (ts_node_is_null(base) || kind(base) == Kind::Other) return;
  ClassDef c;
  c.name = std::string(text(child(n, m_g.f_name)));
  if (c.name.empty()) {  // `const X = class extends Error {}`
    TSNode parent = ts_node_parent(n);
    if (kind(parent) == Kind::Declarator) c.name = std::string(text(child(parent, m_g.f_name)));
  }
  if (c.name.empty()) return;
  c.bases.push_back(collapse_ws(text(base)));
  c.line = line_of(n);
  c.names_itself = names_itself(n, c.name);
  // The message its constructor gives `super(…)`, when it builds one from
  // its parameters: `super(\`Invalid version: ${v}\`)`.
  TSNode body = child(n, m_g.f_body);
  std::uint32_t members = named_count(body);
  for (std::uint32_t i = 0; i < members; ++i) {
    TSNode m = ts_node_named_child(body, i);
    if (kind(m) != Kind::Method || text(child(m, m_g.f_name)) != "constructor") continue;
    for (auto& p : parameter_names(m)) c.params.push_back({std::move(p), false, {}});
    TSNode ctor_body = child(m, m_g.f_body);
    // `super(\`…\`)`, or `super(); this.message = \`No metadata for "${…}"\``
    // (TypeORM's EntityMetadataNotFoundError): the last text given wins.
    walk(ctor_body, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
      TSNode given{};
      if (kind(x) == Kind::Call && kind(child(x, m_g.f_function)) == Kind::Super)
        given = argument(x, 0);
      else if (kind(x) == Kind::Assign && text(child(x, m_g.f_left)) == "this.message")
        given = child(x, m_g.f_right);
      // `super(msg || \`can't resolve reference ${ref} from id ${baseId}\`)`
      // (ajv's MissingRefError): the parameter when a call passes it, else
      // the text.
      if (!ts_node_is_null(given) && keyed_display(given, start_byte(x), c)) return false;
      std::string_view passed;
      if (TSNode either = unwrap(given); kind(either) == Kind::Binary) {
        const std::string_view op = text(child(either, m_g.f_operator));
        TSNode left = unwrap(child(either, m_g.f_left));
        if ((op == "||" || op == "??") && kind(left) == Kind::Identifier &&
            std::any_of(c.params.begin(), c.params.end(), [&](const model::ClassParam& p) { return p.name == text(left); })) {
          passed = text(left);
          given = child(either, m_g.f_right);
        }
      }
      // `super(options?.code ? \`Forced retry: ${options.code}\` : 'Forced
      // retry')` (ky's ForceRetryError): a text either way, each a display.
      if (TSNode choice = unwrap(given);
          kind(choice) == Kind::Branch && ts_node_type(choice) == std::string_view("ternary_expression")) {
        auto yes = build(unwrap(child(choice, m_g.f_consequence)), start_byte(x), 0);
        auto no = build(unwrap(child(choice, m_g.f_alternative)), start_byte(x), 0);
        if (yes && no && yes->from_literals && no->from_literals) {
          c.display = {std::move(*yes), std::move(*no)};
          return false;
        }
      }
      if (!ts_node_is_null(given)) {
        MessageTemplate t = message_from(given, start_byte(x));
        bool bare = t.parts.size() == 1 && !t.parts[0].literal;
        if (t.style != "none" && !bare && t.from_literals) {
          c.display.clear();
          if (!passed.empty()) {
            MessageTemplate as_passed;  // one part naming the parameter: see offer_display
            as_passed.style = "variable";
            as_passed.from_literals = true;
            as_passed.parts.push_back(interp(std::string(passed)));
            c.display.push_back(std::move(as_passed));
          }
          c.display.push_back(std::move(t));
          for (MessageTemplate& v : m_variants) c.display.push_back(std::move(v));
        }
      }
      return !is_function(kind(x)) || ts_node_eq(x, ctor_body);
    });
  }
  m_facts.classes.push_back(std::move(c));
}

// Whether class `cls` gives its instances a `name`: `this.name = …` in its
// body, a `name` field, getter or method, `Name.prototype.name = …` or a
// `defineProperty` of 'name' naming it in the file. Each of these holds
// the text `name`: the body is entered only where it does, and the file's
// `.prototype.name` and `defineProperty` are found once for all classes.
bool FileScanner::names_itself(TSNode cls, std::string_view name) {
  bool found = false;
  TSNode body = child(cls, m_g.f_body);
  const std::vector<std::uint32_t>& names = occurrences("name");
  walk(body, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
    if (found || !holds(names, x)) return false;
    Kind k = kind(x);
    if (k == Kind::Assign) {
      std::string_view left = text(child(x, m_g.f_left));
      found = left == "this.name" || left == "this[\"name\"]" || left == "this['name']";
    } else if (k == Kind::Field || k == Kind::Method) {
      TSNode key = child(x, m_g.f_property);
      if (ts_node_is_null(key)) key = child(x, m_g.f_name);
      found = text(key) == "name" && !text(x).starts_with("static");
    }
    return k != Kind::String && k != Kind::Template && k != Kind::Comment;
  });
  if (found) return true;
  constexpr std::string_view k_prototype = ".prototype.name";
  for (std::uint32_t at : occurrences(k_prototype))
    if (at >= name.size() && m_src.substr(at - name.size(), name.size()) == name) return true;
  for (std::uint32_t at : occurrences("defineProperty")) {
    std::string_view call = m_src.substr(at, 200);
    if (call.find(name) != std::string_view::npos && (call.find("'name'") != std::string_view::npos || call.find("\"name\"") != std::string_view::npos))
      return true;
  }
  return false;
}

// A site raising a class this file defines with a display: the display,
// its parameters filled with the site's arguments, is what it shows
// (offer_display).
void FileScanner::apply_own_displays() {
  for (ThrowSite& site : m_facts.sites)
    for (const ClassDef& c : m_facts.classes)
      if (!c.factory && c.name == site.error_class) {  // a factory's calls were read through (read_helper)
        offer_display(c, site);
        break;
      }
}

// A function of the module returning an error it makes (mocha's errors.js:
// `function createUnsupportedError(message) { var err = new
// Error(message); err.code = …; return err }`), for the files that throw
// what it returns (link.cc): a class definition marked `factory`, its
// bases the error's class, its display the messages with its parameters.
void FileScanner::export_factories() {
  auto offer = [&](std::string_view name, TSNode fn, TSNode at) {
    if (!name.empty() && std::isupper(static_cast<unsigned char>(name[0])) && is_function(kind(fn))) {
      read_constructor_function(name, fn, at);
      return;
    }
    // `makeError`, `_formatError`: lower case after any leading `_`.
    const std::size_t first = name.find_first_not_of('_');
    if (first == std::string_view::npos || !std::islower(static_cast<unsigned char>(name[first])) || !is_function(kind(fn)))
      return;
    // Only a body that makes an error, or hands on another helper's.
    const std::string_view body = text(fn);
    if (body.find("new ") == std::string_view::npos && body.find("rror") == std::string_view::npos) return;
    std::vector<HelperError> made = returned_errors(fn, TSNode{}, 1);
    if (made.empty() || made.front().error_class.empty()) return;
    ClassDef c;
    c.name = std::string(name);
    c.line = line_of(at);
    c.factory = true;
    c.bases.push_back(made.front().error_class);
    for (HelperError& e : made)
      if (c.display.size() < 16) c.display.push_back(std::move(e.message));
    for (auto& p : parameter_names(fn)) c.params.push_back({std::move(p), false, {}});
    m_facts.classes.push_back(std::move(c));
  };
  for (TSNode st : named_children(m_root)) {
    // `export function f`, `export const f = …`: the declaration inside.
    if (std::string_view(ts_node_type(st)) == "export_statement") {
      TSNode declared = child(st, m_g.f_declaration);
      if (ts_node_is_null(declared)) continue;
      st = declared;
    }
    const std::string_view type = ts_node_type(st);
    if (kind(st) == Kind::Function) {
      offer(text(child(st, m_g.f_name)), st, st);
    } else if (kind(st) == Kind::ClassDecl) {
      // postcss's `class Input { error(message, line, column, opts) { …
      // result = new CssSyntaxError(message, …); … return result } }`,
      // thrown by other files as `throw this.input.error('Unclosed
      // block', …)`: a method by its name, as a function is.
      TSNode body = child(st, m_g.f_body);
      for (std::uint32_t k = 0, n = named_count(body); k < n; ++k) {
        TSNode m = ts_node_named_child(body, k);
        if (kind(m) == Kind::Method && text(child(m, m_g.f_name)) != "constructor")
          offer(text(child(m, m_g.f_name)), m, m);
      }
    } else if (type == "lexical_declaration" || type == "variable_declaration") {
      for (std::uint32_t k = 0, n = named_count(st); k < n; ++k) {
        TSNode d = ts_node_named_child(st, k);
        if (kind(d) == Kind::Declarator) offer(text(child(d, m_g.f_name)), unwrap(child(d, m_g.f_value)), d);
      }
    } else if (kind(st) == Kind::Statement) {
      // `exports.createX = function (…) {…}`, `module.exports.createX = …`
      TSNode assign = ts_node_named_child(st, 0);
      if (kind(assign) != Kind::Assign || kind(child(assign, m_g.f_left)) != Kind::Member) continue;
      TSNode left = child(assign, m_g.f_left);
      const std::string_view object = text(child(left, m_g.f_object));
      if (object == "exports" || object == "module.exports") {
        offer(text(child(left, m_g.f_property)), unwrap(child(assign, m_g.f_right)), st);
      } else if (const Kind ok = kind(child(left, m_g.f_object));
                 (ok == Kind::Member || ok == Kind::Identifier) && object.find("prototype") == std::string_view::npos) {
        // `webidl.errors.exception = function (message) {…}`: a namespace's
        // factory, known by its whole name (link_javascript).
        offer(text(left), unwrap(child(assign, m_g.f_right)), st);
      }
    }
  }
}

std::string FileScanner::prototype_base(std::string_view name) const {
  auto word_at = [&](std::size_t at) {
    std::size_t end = at;
    while (end < m_src.size() && (std::isalnum(static_cast<unsigned char>(m_src[end])) || m_src[end] == '_' || m_src[end] == '$'))
      ++end;
    return std::string(m_src.substr(at, end - at));
  };
  auto skip_space = [&](std::size_t at) {
    while (at < m_src.size() && (m_src[at] == ' ' || m_src[at] == '\n' || m_src[at] == '\t')) ++at;
    return at;
  };
  const std::string prototype = std::string(name) + ".prototype";
  for (std::size_t at = m_src.find(prototype); at != std::string_view::npos; at = m_src.find(prototype, at + 1)) {
    // `Name.prototype = new Base()`, `Name.prototype = Object.create(Base.prototype)`.
    std::size_t k = skip_space(at + prototype.size());
    if (k < m_src.size() && m_src[k] == '=' && (k + 1 >= m_src.size() || m_src[k + 1] != '=')) {
      k = skip_space(k + 1);
      if (m_src.substr(k, 4) == "new ") return word_at(skip_space(k + 4));
      if (m_src.substr(k, 14) == "Object.create(") return word_at(skip_space(k + 14));
    }
    // `Object.setPrototypeOf(Name.prototype, Base.prototype)`.
    if (at >= 22 && m_src.substr(at - 22, 22) == "Object.setPrototypeOf(") {
      k = skip_space(at + prototype.size());
      if (k < m_src.size() && m_src[k] == ',') return word_at(skip_space(k + 1));
    }
  }
  // `util.inherits(Name, Base)`, `inherits(Name, Base)`.
  const std::string inherits = "inherits(" + std::string(name);
  for (std::size_t at = m_src.find(inherits); at != std::string_view::npos; at = m_src.find(inherits, at + 1)) {
    std::size_t k = skip_space(at + inherits.size());
    if (k < m_src.size() && m_src[k] == ',') return word_at(skip_space(k + 1));
  }
  return {};
}

namespace {

// What interpolation `text` of a constructor function's message shows of
// its parameters (`params`; `kept`: `this.index` set from `index`): a kept
// attribute is its parameter; `(Array.isArray(actual) ? '[' + … + ']' :
// actual)`, a choice one of whose sides is a parameter, shows that
// parameter as it is; `this.relation || '!='` shows the parameter, with
// that text as its default when a call leaves it out (ClassParam::
// default_text). Anything else as it is.
std::string shown_parameter(std::string_view text, const std::vector<std::pair<std::string, std::string>>& kept,
                            std::vector<model::ClassParam>& params) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '(')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == ')')) s.remove_suffix(1);
    return s;
  };
  auto parameter = [&](std::string_view s) -> model::ClassParam* {
    s = trim(s);
    for (const auto& [attribute, param] : kept)
      if (s == attribute) s = param;
    for (model::ClassParam& p : params)
      if (p.name == s) return &p;
    return nullptr;
  };
  if (model::ClassParam* p = parameter(text)) return p->name;
  for (std::string_view op : {" || ", " ?? "}) {
    const std::size_t at = text.find(op);
    if (at == std::string_view::npos) continue;
    model::ClassParam* p = parameter(text.substr(0, at));
    std::string_view fallback = trim(text.substr(at + op.size()));
    if (!p || fallback.size() < 2 || (fallback.front() != '\'' && fallback.front() != '"') || fallback.back() != fallback.front() ||
        fallback.substr(1, fallback.size() - 2).find_first_of("'\"\\") != std::string_view::npos)
      continue;
    if (p->default_text.empty()) p->default_text = std::string(fallback.substr(1, fallback.size() - 2));
    return p->name;
  }
  // `c ? a : b` at the top level: the last `:` after the `?`.
  const std::size_t question = text.find(" ? "), colon = text.rfind(" : ");
  if (question != std::string_view::npos && colon != std::string_view::npos && colon > question) {
    if (model::ClassParam* p = parameter(text.substr(colon + 3))) return p->name;
    if (model::ClassParam* p = parameter(text.substr(question + 3, colon - question - 3))) return p->name;
  }
  return std::string(text);
}

}  // namespace

void FileScanner::read_constructor_function(std::string_view name, TSNode fn, TSNode at) {
  // Only a body that sets the message; a base named like an error, or a
  // name that is one.
  if (text(fn).find("this.message") == std::string_view::npos) return;
  std::string base = prototype_base(name);
  const auto error_like = [](std::string_view n) { return n.ends_with("Error") || n.ends_with("Exception"); };
  if (base.empty() && error_like(name)) base = "Error";
  if (!error_like(base)) return;
  ClassDef c;
  c.name = std::string(name);
  c.line = line_of(at);
  c.bases.push_back(std::move(base));
  for (auto& p : parameter_names(fn)) c.params.push_back({std::move(p), false, {}});
  c.names_itself = names_itself(fn, c.name);
  TSNode body = child(fn, m_g.f_body);
  // `this.index = index`: the parameter, as the display names it.
  std::vector<std::pair<std::string, std::string>> kept;
  walk(body, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
    if (kind(x) == Kind::Assign) {
      std::string_view left = text(child(x, m_g.f_left));
      TSNode right = unwrap(child(x, m_g.f_right));
      if (left.starts_with("this.") && kind(right) == Kind::Identifier &&
          std::any_of(c.params.begin(), c.params.end(), [&](const model::ClassParam& p) { return p.name == text(right); }))
        kept.emplace_back(std::string(left), std::string(text(right)));
    }
    return !is_function(kind(x)) || ts_node_eq(x, body);
  });
  // Each text set as `this.message` (IndexError's three, one per branch),
  // in order: the first the message, the others alternatives.
  walk(body, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
    if (kind(x) == Kind::Assign && text(child(x, m_g.f_left)) == "this.message" && c.display.size() < 8) {
      if (c.display.empty() && keyed_display(child(x, m_g.f_right), start_byte(x), c)) return false;
      MessageTemplate t = message_from(child(x, m_g.f_right), start_byte(x));
      const bool bare = t.parts.size() == 1 && !t.parts[0].literal;
      if (t.style != "none" && !bare && t.from_literals) {
        for (TemplatePart& p : t.parts)
          if (!p.literal) p.text = shown_parameter(p.text, kept, c.params);
        c.display.push_back(std::move(t));
      }
    }
    return !is_function(kind(x)) || ts_node_eq(x, body);
  });
  m_facts.classes.push_back(std::move(c));
}

bool FileScanner::keyed_display(TSNode given, std::uint32_t at, ClassDef& c) {
  given = unwrap(given);
  // `TABLE[code] || code`: the key itself when the table has no entry.
  if (kind(given) == Kind::Binary) {
    const std::string_view op = text(child(given, m_g.f_operator));
    if (op != "||" && op != "??") return false;
    TSNode left = unwrap(child(given, m_g.f_left)), right = unwrap(child(given, m_g.f_right));
    if (std::string_view(ts_node_type(left)) != "subscript_expression" || kind(right) != Kind::Identifier) return false;
    TSNode index = unwrap(ts_node_child_by_field_name(left, "index", 5));
    if (text(index) != text(right)) return false;
    given = left;
  }
  if (std::string_view(ts_node_type(given)) != "subscript_expression") return false;
  TSNode index = unwrap(ts_node_child_by_field_name(given, "index", 5));
  if (kind(index) != Kind::Identifier) return false;
  auto param = std::find_if(c.params.begin(), c.params.end(), [&](const model::ClassParam& p) { return p.name == text(index); });
  TSNode table = message_table(unwrap(child(given, m_g.f_object)), at);
  if (param == c.params.end() || ts_node_is_null(table)) return false;
  std::vector<std::pair<std::string, std::string>> texts;
  for (std::uint32_t i = 0, n = named_count(table); i < n && texts.size() < 256; ++i) {
    TSNode p = ts_node_named_child(table, i);
    if (kind(p) != Kind::Pair) continue;
    std::optional<std::string> value = plain_string(unwrap(child(p, m_g.f_value)));
    std::string_view key = text(child(p, m_g.f_key));
    if (key.size() >= 2 && (key.front() == '\'' || key.front() == '"') && key.back() == key.front()) key = key.substr(1, key.size() - 2);
    if (value && !key.empty()) texts.emplace_back(std::string(key), std::move(*value));
  }
  if (texts.empty()) return false;
  param->texts = std::move(texts);
  MessageTemplate shown;
  shown.style = "variable";
  shown.from_literals = true;
  shown.parts.push_back(interp(param->name));
  c.display.assign(1, std::move(shown));
  return true;
}

// An entry of a code-keyed message table, as Node's lib/internal/errors.js
// writes them: `E('ERR_X', 'Cannot call %s after …', Error)` or `E('ERR_X',
// (name, actual) => \`The "${name}" argument …\`, TypeError, RangeError)`
// defines class ERR_X, thrown as `new ERR_X(…)`: a ClassDef with the code,
// its first base and the message (link_javascript fills it per site). The
// call is any function given a code (capitals, digits and `_`, one `_` at
// least), a string, template or function, and a class named like an error;
// or, as @fastify/error's `createError('FST_ERR_X', 'Not Found', 404,
// TypeError)` is called, a status code before the class; without a class
// the base is Error.
bool FileScanner::read_code_entry(TSNode call) {
  TSNode code = argument(call, 0), message = unwrap(argument(call, 1)), base = argument(call, 2);
  if (kind(code) != Kind::String) return false;
  if (kind(base) == Kind::Number) base = argument(call, 3);
  std::string_view base_name = ts_node_is_null(base) ? "Error" : kind(base) == Kind::Identifier ? text(base) : "";
  if (!base_name.ends_with("Error") && !base_name.ends_with("Exception")) return false;
  std::string_view quoted = text(code);
  if (quoted.size() < 5) return false;
  std::string_view name = quoted.substr(1, quoted.size() - 2);
  if (name.find('_') == std::string_view::npos || !(name[0] >= 'A' && name[0] <= 'Z')) return false;
  for (char c : name)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  ClassDef c;
  c.name = std::string(name);
  c.code = c.name;
  c.bases.push_back(std::string(base_name));
  c.line = line_of(call);
  Kind mk = kind(message);
  if (mk == Kind::String || mk == Kind::Template) {
    // util.format's template as written: the raising call's arguments fill it.
    MessageTemplate t;
    t.style = mk == Kind::String ? "percent" : "fstring";
    t.from_literals = true;
    literal_parts(message, t.parts);
    if (mk == Kind::Template && !(t.parts.size() == 1 && t.parts[0].literal)) return false;
    t.style = "percent";
    if (t.parts.empty()) t.parts.push_back(TemplatePart{});
    c.display.push_back(std::move(t));
  } else if (is_function(mk)) {
    // A function of the call's arguments: each text it returns.
    for (auto& p : parameter_names(message)) c.params.push_back({std::move(p), false, {}});
    TSNode body = child(message, m_g.f_body);
    auto add = [&](TSNode value, std::uint32_t at) {
      MessageTemplate t = message_from(value, at);
      std::vector<MessageTemplate> variants = std::move(m_variants);
      if (t.style == "none" || !t.from_literals || c.display.size() >= 16) return;
      c.display.push_back(std::move(t));
      for (MessageTemplate& v : variants)
        if (c.display.size() < 16) c.display.push_back(std::move(v));
    };
    if (kind(body) == Kind::Block) {
      walk(body, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
        if (kind(x) == Kind::Return && named_count(x) > 0) add(ts_node_named_child(x, 0), start_byte(x));
        return !is_function(kind(x)) || ts_node_eq(x, body);
      });
    } else if (!ts_node_is_null(body)) {
      add(body, start_byte(body));  // `(a) => \`…${a}\``
    }
  } else {
    return false;
  }
  m_facts.classes.push_back(std::move(c));
  return true;
}

}  // namespace errdex::scan::javascript_detail
