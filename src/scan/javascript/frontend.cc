#include "scan/javascript/frontend.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scan/javascript/calls.h"
#include "scan/javascript/file_scanner.h"
#include "scan/javascript/text.h"
#include "scan/tree_walk.h"
#include "util/text.h"

extern "C" const TSLanguage* tree_sitter_javascript(void);
extern "C" const TSLanguage* tree_sitter_typescript(void);
extern "C" const TSLanguage* tree_sitter_tsx(void);

namespace errdex::scan {
namespace javascript_detail {
namespace {

TSFieldId field(const TSLanguage* l, const char* name) {
  return ts_language_field_id_for_name(l, name, static_cast<std::uint32_t>(std::strlen(name)));
}

Language make_language(const TSLanguage* lang) {
  Language g;
  g.lang = lang;
  static const std::pair<const char*, Kind> k_names[] = {
      {"throw_statement", Kind::Throw}, {"call_expression", Kind::Call},
      {"new_expression", Kind::New}, {"function_declaration", Kind::Function},
      {"function_expression", Kind::Function}, {"function", Kind::Function},
      {"generator_function_declaration", Kind::Function}, {"generator_function", Kind::Function},
      {"arrow_function", Kind::Arrow}, {"method_definition", Kind::Method},
      {"class_declaration", Kind::ClassDecl}, {"class", Kind::ClassDecl},
      {"abstract_class_declaration", Kind::ClassDecl}, {"class_heritage", Kind::ClassHeritage},
      {"extends_clause", Kind::ExtendsClause}, {"if_statement", Kind::If},
      {"else_clause", Kind::Else}, {"catch_clause", Kind::Catch}, {"while_statement", Kind::While},
      {"string", Kind::String}, {"template_string", Kind::Template},
      {"template_substitution", Kind::Substitution}, {"string_fragment", Kind::Fragment},
      {"escape_sequence", Kind::Escape}, {"binary_expression", Kind::Binary},
      {"parenthesized_expression", Kind::Paren}, {"identifier", Kind::Identifier},
      {"member_expression", Kind::Member}, {"variable_declarator", Kind::Declarator},
      {"assignment_expression", Kind::Assign}, {"arguments", Kind::Arguments},
      {"number", Kind::Number}, {"comment", Kind::Comment}, {"html_comment", Kind::Comment},
      {"return_statement", Kind::Return}, {"pair", Kind::Pair},
      {"object", Kind::Object}, {"shorthand_property_identifier", Kind::Shorthand},
      {"field_definition", Kind::Field}, {"public_field_definition", Kind::Field},
      {"regex", Kind::Regex}, {"as_expression", Kind::Cast}, {"non_null_expression", Kind::Cast},
      {"satisfies_expression", Kind::Cast}, {"type_assertion", Kind::TypeAssertion},
      {"await_expression", Kind::Await}, {"super", Kind::Super},
      {"formal_parameters", Kind::Parameters}, {"expression_statement", Kind::Statement},
      {"augmented_assignment_expression", Kind::AugAssign}, {"for_statement", Kind::Branch},
      {"for_in_statement", Kind::Branch}, {"do_statement", Kind::Branch}, {"switch_case", Kind::Branch},
      {"ternary_expression", Kind::Branch}, {"try_statement", Kind::Branch}, {"statement_block", Kind::Block},
  };
  g.kinds = kind_table(g.lang, k_names, Kind::Other);
  g.f_function = field(lang, "function");
  g.f_arguments = field(lang, "arguments");
  g.f_constructor = field(lang, "constructor");
  g.f_name = field(lang, "name");
  g.f_body = field(lang, "body");
  g.f_parameters = field(lang, "parameters");
  g.f_parameter = field(lang, "parameter");
  g.f_condition = field(lang, "condition");
  g.f_consequence = field(lang, "consequence");
  g.f_alternative = field(lang, "alternative");
  g.f_left = field(lang, "left");
  g.f_right = field(lang, "right");
  g.f_operator = field(lang, "operator");
  g.f_value = field(lang, "value");
  g.f_object = field(lang, "object");
  g.f_property = field(lang, "property");
  g.f_declaration = field(lang, "declaration");
  g.f_key = field(lang, "key");
  g.f_pattern = field(lang, "pattern");
  return g;
}

}  // namespace

const Language& language(Dialect d) {
  static const Language js = make_language(tree_sitter_javascript());
  static const Language ts = make_language(tree_sitter_typescript());
  static const Language tsx = make_language(tree_sitter_tsx());
  return d == Dialect::typescript ? ts : d == Dialect::tsx ? tsx : js;
}

// One parser per thread and dialect (scan and the code-field check share
// them): creating one per file costs more than parsing a small file.
TsParser& parser_for(Dialect d) {
  thread_local TsParser js(language(Dialect::javascript).lang), ts(language(Dialect::typescript).lang),
      tsx(language(Dialect::tsx).lang);
  return d == Dialect::typescript ? ts : d == Dialect::tsx ? tsx : js;
}



TSNode FileScanner::unwrap(TSNode n) const {
  for (int i = 0; i < k_max_depth && !ts_node_is_null(n); ++i) {
    Kind k = kind(n);
    if (k == Kind::TypeAssertion) {  // `<T>x`: the value comes last
      n = ts_node_named_child(n, named_count(n) - 1);
      continue;
    }
    if (k != Kind::Paren && k != Kind::Cast && k != Kind::Await) break;
    n = ts_node_named_child(n, 0);
  }
  return n;
}


using javascript::names_class;

TSNode FileScanner::argument(TSNode call, std::uint32_t i) const {
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::Arguments) return TSNode{};
  std::uint32_t seen = 0, count = named_count(args);
  for (std::uint32_t k = 0; k < count; ++k) {
    TSNode a = ts_node_named_child(args, k);
    if (kind(a) == Kind::Comment) continue;
    if (seen++ == i) return a;
  }
  return TSNode{};
}

std::vector<std::string> FileScanner::argument_texts(TSNode call) const {
  std::vector<std::string> out;
  TSNode args = child(call, m_g.f_arguments);
  std::uint32_t count = named_count(args);
  for (std::uint32_t k = 0; k < count; ++k) {
    TSNode a = ts_node_named_child(args, k);
    if (kind(a) != Kind::Comment) out.push_back(collapse_ws(text(a)));
  }
  return out;
}

void FileScanner::find_keywords() {
  // Every site and class definition holds one of these: `throw`, `reject`,
  // `emit` (`emit('error', …)`, `process.emitWarning`), `extends`; the `new`
  // of an error handed on as a call's first argument (`cb(new X(…))`); the
  // code string of a code table's entry (`E('ERR_X', msg, Error)`). The
  // walk enters only subtrees that hold one.
  static constexpr std::string_view k_words[] = {"throw", "reject", "extends", "emit"};
  for (auto w : k_words)
    for (std::size_t at = m_src.find(w); at != std::string_view::npos; at = m_src.find(w, at + w.size()))
      m_keywords.push_back(static_cast<std::uint32_t>(at));
  // A `new` opening an argument, the first or a later one (`errorOrDestroy(stream, new ERR_X())`).
  for (std::size_t at = m_src.find("new"); at != std::string_view::npos; at = m_src.find("new", at + 3))
    if (const std::size_t before = m_src.find_last_not_of(" \t", at == 0 ? 0 : at - 1);
        javascript::may_open_argument(m_src, at, 3) || (at > 0 && before != std::string_view::npos && m_src[before] == ','))
      m_keywords.push_back(static_cast<std::uint32_t>(at));
  // A name bound to one and handed on later (`const err = new Error(…);
  // … callback(err)`): the call.
  for (std::string_view name : javascript::names_bound_to_new(m_src))
    for (std::size_t at = m_src.find(name); at != std::string_view::npos; at = m_src.find(name, at + name.size()))
      if (javascript::may_be_argument(m_src, at, name.size())) m_keywords.push_back(static_cast<std::uint32_t>(at));
  // A helper's error handed on (`callback(this._formatError('Empty
  // message'))`): the helpers export_factories found, called as an argument.
  for (const model::ClassDef& c : m_facts.classes) {
    if (!c.factory) continue;
    for (std::size_t at = m_src.find(c.name); at != std::string_view::npos; at = m_src.find(c.name, at + c.name.size())) {
      std::size_t from = at;
      if (from >= 5 && m_src.substr(from - 5, 5) == "this.") from -= 5;
      if (javascript::may_open_argument(m_src, from, at + c.name.size() - from) || (from > 0 && m_src[from - 1] == ','))
        m_keywords.push_back(static_cast<std::uint32_t>(at));
    }
  }
  for (std::size_t at = m_src.find_first_of("'\""); at != std::string_view::npos; at = m_src.find_first_of("'\"", at + 1))
    if (javascript::is_code_string(m_src, at)) m_keywords.push_back(static_cast<std::uint32_t>(at));
  // Node's assert, where the file requires or imports it: its calls.
  for (std::string_view module : {"assert", "node:assert", "assert/strict", "node:assert/strict"})
    for (char q : {'\'', '"'})
      m_node_assert = m_node_assert || m_src.find(q + std::string(module) + q) != std::string_view::npos;
  if (m_node_assert)
    for (std::size_t at = m_src.find("assert"); at != std::string_view::npos; at = m_src.find("assert", at + 6))
      m_keywords.push_back(static_cast<std::uint32_t>(at));
  std::sort(m_keywords.begin(), m_keywords.end());
}

bool FileScanner::subtree_has_keyword(TSNode n) const { return holds(m_keywords, n); }

FileFacts FileScanner::run() {
  m_facts.had_syntax_errors = ts_node_has_error(m_root);
  export_factories();  // before the keywords: its helpers' calls are some
  find_keywords();
  if (m_keywords.empty()) {
    emit_module_errors();
    return std::move(m_facts);
  }
  walk(m_root, [&](TSNode n, std::uint32_t depth, TSTreeCursor*) {
    m_path.resize(depth);
    m_path.push_back(n);
    while (!m_ctx.empty() && m_ctx.back().depth >= depth) m_ctx.pop_back();
    Kind k = kind(n);
    bool descend = true;
    switch (k) {
      case Kind::Throw: emit_throw(n); break;
      case Kind::Call: check_call(n); break;
      case Kind::ClassDecl:
        visit_class(n);
        m_ctx.push_back({k, n, depth});
        break;
      case Kind::Function: case Kind::Arrow: case Kind::Method: case Kind::If: case Kind::Else:
      case Kind::Catch: case Kind::While:
        m_ctx.push_back({k, n, depth});
        break;
      case Kind::String: case Kind::Comment: case Kind::Regex: descend = false; break;
      default: break;
    }
    return descend && subtree_has_keyword(n);
  });
  m_ctx.clear();
  m_path.clear();
  emit_module_errors();
  apply_own_displays();
  return std::move(m_facts);
}

const std::vector<std::uint32_t>& FileScanner::occurrences(std::string_view word) {
  auto [it, added] = m_occurrences.try_emplace(word);
  if (added)
    for (std::size_t at = m_src.find(word); at != std::string_view::npos; at = m_src.find(word, at + 1))
      it->second.push_back(static_cast<std::uint32_t>(at));
  return it->second;
}

bool FileScanner::holds(const std::vector<std::uint32_t>& sorted, TSNode n) const {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), start_byte(n));
  return it != sorted.end() && *it < end_byte(n);
}

// --- sites -----------------------------------------------------------------

void FileScanner::emit_throw(TSNode n) {
  ThrowSite site;
  site.kind = "raise";
  site.line = line_of(n);
  site.end_line = static_cast<int>(ts_node_end_point(n).row) + 1;
  std::uint32_t at = start_byte(n);
  TSNode expr{};
  std::uint32_t count = named_count(n);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode ch = ts_node_named_child(n, i);
    if (kind(ch) != Kind::Comment) {
      expr = ch;
      break;
    }
  }
  expr = unwrap(expr);
  // `throw n = !1, t` (minified builds): the comma's last operand is thrown.
  for (int hops = 0; hops < 64 && !ts_node_is_null(expr) && std::string_view(ts_node_type(expr)) == "sequence_expression" &&
                     named_count(expr) > 0;
       ++hops)
    expr = unwrap(ts_node_named_child(expr, named_count(expr) - 1));
  if (ts_node_is_null(expr)) return;
  site.raised_text = collapse_ws(text(expr));
  const bool made = read_construction(expr, site, at, 0);
  if (made && kind(expr) == Kind::Call) {
    // `throw this.error()`, `throw query.getError()`: a getter of an error
    // kept elsewhere (no argument, not a helper of this file, not a
    // class's factory), thrown again whatever its class.
    TSNode callee = child(expr, m_g.f_function);
    if (kind(callee) == Kind::Member && !names_class(text(child(callee, m_g.f_property))) &&
        named_count(child(expr, m_g.f_arguments)) == 0 && site.error_class == collapse_ws(text(callee))) {
      site.error_class.clear();
      site.reraise = true;
    }
  }
  if (!made) {
    const std::string_view type = ts_node_type(expr);
    if (kind(expr) == Kind::Identifier) {
      read_thrown_name(expr, site, at, 0);
    } else if (kind(expr) == Kind::String || kind(expr) == Kind::Template) {
      // `throw "URI too long"`: Node prints the value alone, no class.
      site.message = message_from(expr, at);
    } else if (std::optional<MessageTemplate> thrown = kind(expr) == Kind::Binary ? build(expr, at, 0) : std::nullopt;
               thrown && thrown->from_literals) {
      // `throw "Syntax error, unrecognized expression: " + expr`: a string too.
      site.message = std::move(*thrown);
    } else if ((kind(expr) == Kind::Member && !names_class(text(child(expr, m_g.f_property)))) ||
               type == "subscript_expression") {
      // `throw result.error`, `throw this._lastError`, `throw
      // this[kError]`: an error kept elsewhere, thrown again whatever its
      // class.
      site.reraise = true;
    } else if (kind(expr) == Kind::Binary && (text(child(expr, m_g.f_operator)) == "||" || text(child(expr, m_g.f_operator)) == "??") &&
               kept_error(child(expr, m_g.f_left)) && kept_error(child(expr, m_g.f_right))) {
      // `throw output.cause || output`: one of two errors kept elsewhere.
      site.reraise = true;
    } else if (TSNode message = object_property(expr, "message"), name = object_property(expr, "name");
               kind(expr) == Kind::Object && (!ts_node_is_null(message) || kind(name) == Kind::String)) {
      // `throw { name: 'ConditionError', message: 'Aborted due to …' }`: an
      // error-like object, its `name` the class it shows.
      const std::string_view named = kind(name) == Kind::String ? text(name) : std::string_view{};
      if (named.size() > 2) site.error_class = std::string(named.substr(1, named.size() - 2));
      if (!ts_node_is_null(message) && kind(message) != Kind::Shorthand) site.message = message_from(message, at);
    } else {
      site.error_class = site.raised_text;
    }
  }
  fill_context(site, at);
  m_facts.sites.push_back(std::move(site));
}

bool FileScanner::kept_error(TSNode n) const {
  n = unwrap(n);
  if (kind(n) == Kind::Identifier) return !names_class(text(n));
  return kind(n) == Kind::Member && !names_class(text(child(n, m_g.f_property)));
}

// `new X(msg, …)` or `X(msg, …)`: the class and message it names; a call of
// a function of this file that returns one is read through. False when
// `expr` is neither.
bool FileScanner::read_construction(TSNode expr, ThrowSite& site, std::uint32_t at, int depth) {
  Kind k = kind(expr);
  if (k != Kind::New && k != Kind::Call) return false;
  TSNode callee = child(expr, k == Kind::New ? m_g.f_constructor : m_g.f_function);
  if (k == Kind::Call && read_helper(expr, site, at, depth)) return true;
  if (k == Kind::Call && text(callee) == "Object.assign") {
    // `throw Object.assign(new AxiosError('Network Error', …), {cause})`:
    // what it throws is its first argument, given more properties.
    // `throw Object.assign(err, {code})`, `Object.assign(this.error, …)`:
    // the error made or caught before, as `throw err` reads it. A `message`
    // among the properties (knex's `Object.assign(error, {message:
    // \`Defined query timeout of ${timeout}ms exceeded…\`})`) replaces its own.
    TSNode target = unwrap(argument(expr, 0));
    bool read = false;
    if (depth < 4 && (kind(target) == Kind::New || kind(target) == Kind::Call)) {
      read = read_construction(target, site, at, depth + 1);
    } else if (depth < 4 && kind(target) == Kind::Identifier) {
      read_thrown_name(target, site, at, depth + 1);
      read = true;
    } else if (kind(target) == Kind::Member && !names_class(text(child(target, m_g.f_property)))) {
      site.reraise = true;
      read = true;
    }
    if (read) {
      TSNode properties = unwrap(argument(expr, 1));
      if (kind(properties) == Kind::Object) {
        MessageTemplate given = message_from(properties, at);
        if (!given.parts.empty()) site.message = std::move(given);
      }
      return true;
    }
  }
  site.error_class = collapse_ws(text(callee));
  if (k == Kind::New) {
    // `new (options.Err ?? ValidationError)(…)`, or a name bound to such a
    // choice (`const Ctor = props.ErrorConstructor || ValidatorError`): the
    // class named when nothing else is given.
    TSNode chosen = unwrap(callee);
    if (kind(chosen) == Kind::Identifier) {
      const Assign* last = nullptr;
      assignments_reaching(text(chosen), at, last);
      if (last) chosen = unwrap(last->value);
    }
    if (kind(chosen) == Kind::Binary) {
      const std::string_view op = text(child(chosen, m_g.f_operator));
      TSNode fallback = unwrap(child(chosen, m_g.f_right));
      const Kind fk = kind(fallback);
      // Not a parameter (zod's `(_Err) => … new (_params?.Err ?? _Err)(…)`):
      // the caller's class, unknown here.
      auto given = [&](std::string_view name) {
        for (const Ctx& c : m_ctx)
          if (is_function(c.kind)) {
            const auto params = parameter_names(c.node);
            if (std::find(params.begin(), params.end(), name) != params.end()) return true;
          }
        return false;
      };
      if ((op == "||" || op == "??") && (fk == Kind::Identifier || fk == Kind::Member) &&
          names_class(fk == Kind::Member ? text(child(fallback, m_g.f_property)) : text(fallback)) &&
          !(fk == Kind::Identifier && given(text(fallback))))
        site.error_class = collapse_ws(text(fallback));
    }
  }
  if (k == Kind::Call && kind(callee) == Kind::Member) {
    // `throw AxiosError.from(err, code)`: a method in lower case called on
    // a capitalised name is the class's factory, and what it returns is
    // that class. Not the builtins' namespaces (`JSON.parse(…)`).
    std::string object = collapse_ws(text(child(callee, m_g.f_object)));
    std::string_view method = text(child(callee, m_g.f_property));
    const std::size_t dot = object.rfind('.');
    const std::string_view last = std::string_view(object).substr(dot == std::string::npos ? 0 : dot + 1);
    static constexpr std::string_view k_namespaces[] = {"Object", "JSON", "Promise", "Reflect", "Math", "Symbol",
                                                        "Array", "Number", "String", "Boolean", "Date", "Atomics"};
    const bool builtin = std::find(std::begin(k_namespaces), std::end(k_namespaces), last) != std::end(k_namespaces);
    if (!last.empty() && std::isupper(static_cast<unsigned char>(last[0])) && !method.empty() &&
        std::islower(static_cast<unsigned char>(method[0])) && !builtin &&
        std::all_of(object.begin(), object.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '$' || c == '.'; }))
      site.error_class = std::move(object);
  }
  // `throw require('pug-error').apply(null, arguments)`: what a call made
  // of calls returns is an error of a class not known here, no class named
  // by its text.
  if (k == Kind::Call && !std::all_of(site.error_class.begin(), site.error_class.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '_' || c == '$' || c == '.';
      })) {
    site.error_class.clear();
    site.reraise = true;
  }
  site.args = argument_texts(expr);
  // `throw createError(415, 'content encoding unsupported', {…})`: a
  // factory given a status code first; the code is no message, the text
  // after it is.
  std::uint32_t message_at = 0;
  if (k == Kind::Call && kind(unwrap(argument(expr, 0))) == Kind::Number)
    if (const Kind next = kind(unwrap(argument(expr, 1))); next == Kind::String || next == Kind::Template || next == Kind::Binary)
      message_at = 1;
  // The built-in `new AggregateError(errors, message)` takes its message second.
  if (site.error_class == "AggregateError" && !ts_node_is_null(argument(expr, 1))) message_at = 1;
  if (auto chosen = parameter_or_default(argument(expr, message_at), at)) {
    site.message = std::move(chosen->first);
    m_variants.assign(1, std::move(chosen->second));
  } else {
    site.message = message_from(argument(expr, message_at), at);
  }
  for (MessageTemplate& v : m_variants)
    if (site.alternatives.size() < 64) site.alternatives.push_back(std::move(v));
  add_caller_messages(site, at);
  // A later argument written as text (`new MissingRefError(resolver, "",
  // ref, \`No definition ${ref}\`)`): its template, for a class whose
  // constructor makes that argument the message (offer_display).
  site.arg_messages.clear();
  for (std::uint32_t i = 1; i < 8; ++i) {
    TSNode a = unwrap(argument(expr, i));
    if (ts_node_is_null(a)) break;
    const Kind ak = kind(a);
    // An enum member the file defines (`ULIDErrorCode.DecodeTimeValueMalformed`) is its text.
    if (ak != Kind::String && ak != Kind::Template && ak != Kind::Binary && !(ak == Kind::Member && enum_text(text(a))))
      continue;
    MessageTemplate t = message_from(a, at);
    m_variants.clear();
    if (!t.from_literals || std::none_of(t.parts.begin(), t.parts.end(), [](const TemplatePart& p) { return p.literal; }))
      continue;
    site.arg_messages.resize(i + 1);
    site.arg_messages[i] = std::move(t);
  }
  return true;
}

// `throw err`: the error the function made earlier (`const err = new
// X(…)`; `err.code = 'E…'` names its code), or the caught error thrown
// again.
void FileScanner::read_thrown_name(TSNode name, ThrowSite& site, std::uint32_t at, int depth) {
  std::string_view id = text(name);
  for (std::size_t i = m_ctx.size(); i-- > 0;) {
    const Ctx& c = m_ctx[i];
    if (is_function(c.kind)) break;
    if (c.kind == Kind::Catch && text(child(c.node, m_g.f_parameter)) == id) {
      site.reraise = true;
      read_message_set(id, site, start_byte(c.node), at);
      return;
    }
  }
  site.error_class = std::string(id);
  const auto& assigns = assignments(scope_of(at));
  const Assign* made = nullptr;
  for (const Assign& a : assigns)
    if (a.at < at && a.name == id && kind(unwrap(a.value)) == Kind::New) made = &a;
  if (!made) {
    // Made in the function around this one (`const error = new
    // ZodError([])`, thrown in a `.catch` callback), or by a helper of
    // this file (`const err = invalid(x)`).
    const Assign* last = nullptr;
    assignments_reaching(id, at, last);
    if (last && kind(unwrap(last->value)) == Kind::New) {
      made = last;
    } else if (last && depth < 4 && kind(unwrap(last->value)) == Kind::Call &&
               read_helper(unwrap(last->value), site, last->at, depth + 1)) {
      return;  // read_helper leaves the site alone when it finds no helper
    }
  }
  if (!made) {
    // An error the function was given (`(err, data) => { if (err) throw err }`)
    // or got from elsewhere (`const err = doc.validateSync()`, `let
    // firstError = null` set by a callback): thrown again, whatever its
    // class. A capitalised name stays a class.
    if (parameter_of_enclosing(id) || !names_class(id)) {
      site.error_class.clear();
      site.reraise = true;
    }
    return;
  }
  read_construction(unwrap(made->value), site, made->at, depth + 1);
  // Its code, set between the making and the throw.
  std::string code_name = std::string(id) + ".code";
  for (const Assign& a : assigns)
    if (a.at > made->at && a.at < at && a.name == code_name && kind(a.value) == Kind::String) {
      std::string v(text(a.value));
      if (v.size() >= 2) site.args.push_back("code='" + v.substr(1, v.size() - 2) + "'");
    }
  read_message_set(id, site, made->at, at);
}

void FileScanner::read_message_set(std::string_view id, ThrowSite& site, std::uint32_t from, std::uint32_t at) {
  const std::string message_name = std::string(id) + ".message";
  MessageTemplate message;
  bool set = false;
  for (const Assign& a : assignments(scope_of(at))) {
    if (a.at <= from || a.at >= at || a.name != message_name || ts_node_is_null(a.node)) continue;
    // Set whatever path leads to the throw: its statement is in a block
    // that holds the throw too, not in a branch of its own.
    TSNode block = ts_node_parent(ts_node_parent(a.node));
    if (ts_node_is_null(block) || start_byte(block) > at || ts_node_end_byte(block) <= at) continue;
    MessageTemplate given = message_from(a.value, a.at);
    if (given.parts.empty()) return;
    if (!a.append) {
      message = std::move(given);
    } else {
      // `err.message += \` (at ${where})\``: after the message it had, the
      // caught error's own (unknown here) or the one it was made with.
      if (!set) {
        message = site.reraise ? MessageTemplate{"concat", {TemplatePart{false, message_name, "", 0}}, true} : site.message;
        if (message.parts.empty()) return;
      }
      message.style = "concat";
      message.from_literals = message.from_literals && given.from_literals;
      for (TemplatePart& p : given.parts) message.parts.push_back(std::move(p));
    }
    set = true;
  }
  if (!set) return;
  site.message = std::move(message);
  site.alternatives.clear();
}

std::vector<std::string> FileScanner::parameter_names(TSNode fn) const {
  std::vector<std::string> out;
  TSNode single = child(fn, m_g.f_parameter);  // `x => …`
  if (!ts_node_is_null(single)) {
    out.emplace_back(text(single));
    return out;
  }
  TSNode params = child(fn, m_g.f_parameters);
  std::uint32_t count = named_count(params);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode p = ts_node_named_child(params, i);
    if (kind(p) == Kind::Comment) continue;
    // `x = 1` (JS), `x: T` and `x?: T = 1` (TypeScript): the name first.
    TSNode inner = child(p, m_g.f_pattern);
    if (ts_node_is_null(inner)) inner = child(p, m_g.f_left);
    if (ts_node_is_null(inner)) inner = p;
    out.emplace_back(kind(inner) == Kind::Identifier ? text(inner) : std::string_view{});
  }
  return out;
}

// --- context ---------------------------------------------------------------

std::string FileScanner::function_name(TSNode fn) const {
  std::string_view own = text(child(fn, m_g.f_name));
  if (!own.empty()) return std::string(own);
  // Anonymous: the name it is given (`const f = () => …`, `X.prototype.f =
  // function () {…}`, `{ f: function () {…} }`), as V8 names it.
  TSNode parent = ts_node_parent(fn);
  switch (kind(parent)) {
    case Kind::Declarator: return std::string(text(child(parent, m_g.f_name)));
    case Kind::Assign: {
      TSNode left = child(parent, m_g.f_left);
      if (kind(left) == Kind::Member) return std::string(text(child(left, m_g.f_property)));
      return std::string(text(left));
    }
    case Kind::Pair: return std::string(text(child(parent, m_g.f_key)));
    case Kind::Field: {  // `f = () => …` in a class body
      TSNode key = child(parent, m_g.f_property);
      return std::string(text(ts_node_is_null(key) ? child(parent, m_g.f_name) : key));
    }
    default: return {};
  }
}

void FileScanner::fill_context(ThrowSite& site, std::uint32_t at) const {
  site.guards = guards(at);
  bool have_function = false;
  for (std::size_t i = m_ctx.size(); i-- > 0;) {
    const Ctx& c = m_ctx[i];
    if (is_function(c.kind) && !have_function) {
      have_function = true;
      site.function = function_name(c.node);
      TSNode single = child(c.node, m_g.f_parameter);
      std::string_view params = ts_node_is_null(single) ? text(child(c.node, m_g.f_parameters)) : text(single);
      if (params.size() >= 2 && params.front() == '(' && params.back() == ')') params = params.substr(1, params.size() - 2);
      site.function_params = collapse_ws(params);
      site.function_line = line_of(c.node);
    } else if (c.kind == Kind::ClassDecl) {
      site.class_name = std::string(text(child(c.node, m_g.f_name)));
      for (std::uint32_t k = 0; k < named_count(c.node); ++k) {
        TSNode h = ts_node_named_child(c.node, k);
        if (kind(h) != Kind::ClassHeritage) continue;
        std::string_view b = text(h);
        if (b.starts_with("extends")) b.remove_prefix(7);
        site.class_bases = collapse_ws(b);
      }
      break;
    }
  }
}

Guard FileScanner::guard_of(const char* k, TSNode cond, TSNode at_node) const {
  Guard g;
  g.kind = k;
  TSNode inner = kind(cond) == Kind::Paren ? ts_node_named_child(cond, 0) : cond;
  g.condition = collapse_ws(text(inner));
  g.line = line_of(at_node);
  add_guard_names(g, inner);
  return g;
}

void FileScanner::add_guard_names(Guard& g, TSNode cond) const {
  walk(cond, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
    Kind xk = kind(x);
    if (xk == Kind::Identifier || xk == Kind::Member) {
      std::string name = collapse_ws(text(x));
      if (std::find(g.names.begin(), g.names.end(), name) == g.names.end() && g.names.size() < 16) g.names.push_back(name);
      return false;
    }
    return xk != Kind::String && !is_function(xk);
  });
}

std::vector<Guard> FileScanner::guards(std::uint32_t at) const {
  std::vector<Guard> out;
  auto make = [&](const char* k, TSNode cond, TSNode at_node) { out.push_back(guard_of(k, cond, at_node)); };
  for (std::size_t i = m_ctx.size(); i-- > 0 && out.size() < k_max_guards;) {
    const Ctx& c = m_ctx[i];
    if (is_function(c.kind) || c.kind == Kind::ClassDecl) break;
    if (c.kind == Kind::If) {
      TSNode then = child(c.node, m_g.f_consequence);
      if (at >= start_byte(then) && at < end_byte(then)) make("if", child(c.node, m_g.f_condition), c.node);
    } else if (c.kind == Kind::Else) {
      // Its `if`, from the walk's path: a chain of `else if`s nests as deep
      // as it is long.
      if (TSNode owner = ancestor_on_path(c, 1); kind(owner) == Kind::If)
        make("else", child(owner, m_g.f_condition), c.node);
    } else if (c.kind == Kind::While) {
      make("while", child(c.node, m_g.f_condition), c.node);
    } else if (c.kind == Kind::Catch) {
      Guard g;
      g.kind = "except";
      g.condition = collapse_ws(text(child(c.node, m_g.f_parameter)));
      g.line = line_of(c.node);
      out.push_back(std::move(g));
    }
  }
  return out;
}

}  // namespace javascript_detail

using javascript_detail::FileScanner;
using javascript_detail::k_max_source;
using javascript_detail::language;
using javascript_detail::parser_for;
using javascript_detail::parse_javascript;
using javascript_detail::ParsedJavaScript;

bool javascript_minified(std::string_view source) {
  // Minified code repeats other sources on a few lines of thousands of
  // characters: its records would be excerpts of one line. Formatted code
  // averages well under 100 characters a line; a test file of long SQL
  // strings, 543.
  constexpr std::size_t k_minified_line = 1000;
  return source.size() >= 4096 &&
         source.size() / (static_cast<std::size_t>(std::count(source.begin(), source.end(), '\n')) + 1) >= k_minified_line;
}

bool javascript_worth_parsing(std::string_view source) {
  if (javascript_minified(source)) return false;
  return source.find("throw") != std::string_view::npos || source.find("Error") != std::string_view::npos || source.find("reject") != std::string_view::npos ||
         source.find("extends") != std::string_view::npos || source.find("emit") != std::string_view::npos ||
         source.find("assert") != std::string_view::npos;
}

namespace {

// Bytes the parse could not read: inside ERROR nodes, plus one per
// missing token.
std::uint64_t unread_bytes(TSNode root) {
  std::uint64_t n = 0;
  walk(root, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
    if (ts_node_is_error(x)) {
      n += ts_node_end_byte(x) - ts_node_start_byte(x);
      return false;
    }
    if (ts_node_is_missing(x)) ++n;
    return ts_node_has_error(x);
  });
  return n;
}

// `source` with a `;` in the indentation of each line that starts with
// `<`; empty when no line does. In an object type, TypeScript ends a member
// at a line break, while tree-sitter's grammar reads a generic call
// signature's line (`<D extends Writable>(dest: D): D`) as a comparison with
// the member above and loses the rest of the file (zx's `PipeMethod` type
// took every method of the class below it). Offsets and lines are kept.
std::string with_generic_lines_ended(std::string_view source) {
  std::string out;
  for (std::size_t line = 0; line < source.size();) {
    const std::size_t first = source.find_first_not_of(" \t", line);
    if (first != std::string_view::npos && first > line && source[first] == '<') {
      if (out.empty()) out.assign(source);
      out[first - 1] = ';';
    }
    const std::size_t eol = source.find('\n', line);
    if (eol == std::string_view::npos) break;
    line = eol + 1;
  }
  return out;
}

}  // namespace

javascript_detail::ParsedJavaScript javascript_detail::parse_javascript(std::string_view source, Dialect dialect) {
  ParsedJavaScript out;
  out.text = source;
  out.tree.reset(ts_parser_parse_string(parser_for(dialect).get(), nullptr, source.data(), static_cast<std::uint32_t>(source.size())));
  if (!out.tree || dialect != Dialect::typescript || !ts_node_has_error(ts_tree_root_node(out.tree.get()))) return out;
  std::string repaired = with_generic_lines_ended(source);
  if (repaired.empty()) return out;
  std::unique_ptr<TSTree, ParsedJavaScript::DeleteTree> again(
      ts_parser_parse_string(parser_for(dialect).get(), nullptr, repaired.data(), static_cast<std::uint32_t>(repaired.size())));
  if (again && unread_bytes(ts_tree_root_node(again.get())) < unread_bytes(ts_tree_root_node(out.tree.get()))) {
    out.tree = std::move(again);
    out.repaired = std::make_unique<std::string>(std::move(repaired));
    out.text = *out.repaired;
  }
  return out;
}

namespace {

// The file's facts: its sites (`sites`) and the call graph's facts.
model::FileFacts read_javascript(std::string_view source, Dialect dialect, bool sites) {
  if (source.size() > k_max_source) return {};
  ParsedJavaScript parsed = parse_javascript(source, dialect);
  if (!parsed.tree) return {};
  const TSNode root = ts_tree_root_node(parsed.tree.get());
  model::FileFacts facts = sites ? FileScanner(parsed.text, language(dialect), root).run() : model::FileFacts{};
  javascript_detail::read_calls(parsed.text, language(dialect).lang, root, facts);
  return facts;
}

}  // namespace

model::FileFacts scan_javascript(std::string_view source, Dialect dialect) { return read_javascript(source, dialect, true); }

model::FileFacts scan_javascript_calls(std::string_view source, Dialect dialect) { return read_javascript(source, dialect, false); }

model::FileFacts scan_javascript_tests(std::string_view source_as_read, Dialect dialect) {
  // Every expectation read names `toThrow`, `throw`, `throws`, `rejects` or
  // `rejectedWith`: a file without those words is not parsed.
  if (source_as_read.size() > k_max_source ||
      (source_as_read.find("hrow") == std::string_view::npos && source_as_read.find("reject") == std::string_view::npos))
    return {};
  ParsedJavaScript parsed = parse_javascript(source_as_read, dialect);
  if (!parsed.tree) return {};
  const std::string_view source = parsed.text;
  TSTree* tree = parsed.tree.get();
  model::FileFacts facts = FileScanner(source, language(dialect), ts_tree_root_node(tree)).read_tests();
  // The test file's imports, which its calls are resolved through
  // (JsCallGraph::resolve_calls); its own functions are no part of the graph.
  if (!facts.expectations.empty()) {
    model::FileFacts imports;
    javascript_detail::read_imports(source, language(dialect).lang, ts_tree_root_node(tree), imports);
    facts.imports = std::move(imports.imports);
  }
  return facts;
}

bool parses_as_javascript(std::string_view code, bool typescript) {
  if (code.size() > k_max_source) return false;
  // The analyst writes the same lines for many sites (the sites of one
  // function share their try/catch): each thread keeps its recent answers.
  constexpr std::size_t k_remembered = 4096;
  thread_local std::unordered_map<std::string, bool> known[2];
  auto& memo = known[typescript ? 1 : 0];
  std::string key(code);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  TSTree* tree = ts_parser_parse_string(parser_for(typescript ? Dialect::typescript : Dialect::javascript).get(), nullptr, code.data(), static_cast<std::uint32_t>(code.size()));
  if (!tree) return false;
  const bool ok = !ts_node_has_error(ts_tree_root_node(tree));
  ts_tree_delete(tree);
  if (memo.size() >= k_remembered) memo.clear();
  memo.emplace(std::move(key), ok);
  return ok;
}

}  // namespace errdex::scan
