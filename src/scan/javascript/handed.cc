// Calls that hand an error on instead of throwing it (`reject(e)`,
// `callback(e)`, `emitter.emit('error', e)`, `stream.destroy(e)`,
// `process.emitWarning(msg)`), and Node's assert checks: each is a site.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scan/javascript/file_scanner.h"
#include "scan/javascript/text.h"
#include "scan/tree_walk.h"

namespace errdex::scan::javascript_detail {

using javascript::builtin_value_class;

namespace {

// `onerror`, `onError`, `on_error`: a handler's name for errors.
bool error_handler_name(std::string_view name) {
  std::string folded;
  for (char c : name)
    if (c != '_') folded.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return folded == "onerror";
}

}  // namespace

// A call that hands an error on instead of throwing it: `Promise.reject(e)`,
// `reject(e)` in a promise executor, `callback(e)` to a function the
// enclosing function was given, `emitter.emit('error', e)`, and
// `process.emitWarning(msg)`.
void FileScanner::check_call(TSNode call) {
  TSNode callee = child(call, m_g.f_function);
  std::string_view name = text(callee);
  if (kind(callee) == Kind::Identifier && read_code_entry(call)) return;
  if (name == "process.emitWarning") {
    TSNode msg = argument(call, 0);
    if (ts_node_is_null(msg)) return;
    ThrowSite site;
    site.kind = "warn";
    site.line = line_of(call);
    site.end_line = static_cast<int>(ts_node_end_point(call).row) + 1;
    site.raised_text = collapse_ws(text(call));
    site.args = argument_texts(call);
    TSNode type = argument(call, 1);
    std::string cls = "Warning";
    if (kind(type) == Kind::String && text(type).size() > 2) cls = std::string(text(type).substr(1, text(type).size() - 2));
    site.error_class = cls;
    site.message = message_from(msg, start_byte(call));
    fill_context(site, start_byte(call));
    m_facts.sites.push_back(std::move(site));
    return;
  }
  if (m_node_assert && (name == "assert" || name.starts_with("assert.")) && emit_node_assert(call, name)) return;
  TSNode made{};
  bool rejects = false;
  if (name == "Promise.reject") {
    made = argument(call, 0);
    rejects = true;
  } else if (kind(callee) == Kind::Member &&
             (text(child(callee, m_g.f_property)) == "reject" || text(child(callee, m_g.f_property)) == "_reject")) {
    // A deferred promise rejected (tough-cookie's `promiseCallback.reject(err)`),
    // or a promise library's own, private, rejection (bluebird's `this._reject(e)`).
    made = argument(call, 0);
    rejects = true;
  } else if (name.ends_with(".destroy")) {
    // A stream destroyed with an error emits it (`fileStream.destroy(new
    // Error('Unexpected end of file'))`).
    made = argument(call, 0);
  } else if (name.ends_with(".emit") || name == "emit") {
    TSNode event = argument(call, 0);
    if (kind(event) == Kind::String && (text(event) == "'error'" || text(event) == "\"error\"")) made = argument(call, 1);
  } else if (kind(callee) == Kind::Member && text(child(callee, m_g.f_object)) == "this" &&
             hands_on_first_parameter(own_method(call, text(child(callee, m_g.f_property))))) {
    // `this._error(new FormidableError(…))` of a method that throws or
    // emits what it is given.
    made = argument(call, 0);
  } else if (kind(callee) == Kind::Identifier && (promise_reject_name(name) || parameter_of_enclosing(name) ||
                                                   throws_its_argument(name, start_byte(call)))) {
    made = argument(call, 0);
    rejects = promise_reject_name(name);
    // A function handed a value, not an error: lodash's
    // `equalFunc(new Uint8Array(object), new Uint8Array(other))`.
    if (kind(unwrap(made)) == Kind::New && builtin_value_class(text(child(unwrap(made), m_g.f_constructor)))) return;
  } else if (kind(callee) == Kind::Member && error_handler_name(text(child(callee, m_g.f_property)))) {
    // A handler named for errors, wherever it comes from (htmlparser2's
    // `this.cbs.onerror?.(new Error(".write() after done!"))`): what it is
    // handed is an error only when its class is named as one.
    made = argument(call, 0);
    if (kind(unwrap(made)) == Kind::New && !names_error(text(child(unwrap(made), m_g.f_constructor)))) return;
  } else if (kind(callee) == Kind::Identifier && callback_of_outer_function(name)) {
    // The callback of a function around the one the call is in (`send(mail,
    // callback) { … stream.on('end', () => { … callback(new Error(…)) }) }`):
    // what it is handed is an error only when its class is named as one.
    made = argument(call, 0);
    if (kind(unwrap(made)) == Kind::New && !names_error(text(child(unwrap(made), m_g.f_constructor)))) return;
  } else if (TSNode parent = ts_node_parent(call);
             kind(callee) == Kind::Identifier && ts_node_is_null(function_named(name)) && !(m_node_assert && name == "assert") &&
             (std::string_view(ts_node_type(parent)) == "expression_statement" || kind(parent) == Kind::Return)) {
    // An error made only to be handed to a function the file does not
    // define, whose value is not used (readable-stream's
    // `errorOrDestroy(stream, new ERR_STREAM_PUSH_AFTER_EOF())`, imported):
    // the function reports it, as a callback would. Its class must be named
    // as an error. A function of the file is read instead (above), and
    // Node's `assert(cond, new TypeError(…))` is left out as its other forms.
    for (std::uint32_t i = 0, n = named_count(child(call, m_g.f_arguments)); i < n; ++i) {
      TSNode arg = unwrap(argument(call, i));
      if (kind(arg) == Kind::New && names_error(text(child(arg, m_g.f_constructor)))) {
        if (std::none_of(m_facts.sites.begin(), m_facts.sites.end(),
                         [&](const ThrowSite& s) { return s.line == line_of(call) && s.raised_text == collapse_ws(text(arg)); }))
          emit_made(call, arg, line_of(call), "raise");
        return;
      }
    }
    return;
  }
  made = unwrap(made);
  // `reject(message instanceof Error ? message : timeoutError)`: each
  // branch, a name bound to an error made above or an error made there.
  if (kind(made) == Kind::Branch && std::string_view(ts_node_type(made)) == "ternary_expression") {
    for (TSNode branch : {unwrap(child(made, m_g.f_consequence)), unwrap(child(made, m_g.f_alternative))}) {
      if (kind(branch) == Kind::Identifier) emit_bound_error(call, branch, rejects);
      else if (kind(branch) == Kind::New && (rejects || names_error(text(child(branch, m_g.f_constructor)))))
        emit_made(call, branch, line_of(branch), "raise");
    }
    return;
  }
  if (kind(made) == Kind::Identifier) {
    emit_bound_error(call, made, rejects);
    return;
  }
  if (kind(made) == Kind::Call) {
    // `callback(this._formatError('Empty message', 'EMESSAGE'))`: an error
    // a helper of this file (or a method of the class) makes; not a call
    // of anything else, whose value is not known to be an error.
    ThrowSite site;
    if (!read_helper(made, site, start_byte(call), 0)) return;
    site.kind = "raise";
    site.line = line_of(call);
    site.end_line = static_cast<int>(ts_node_end_point(call).row) + 1;
    site.raised_text = collapse_ws(text(made));
    fill_context(site, start_byte(call));
    m_facts.sites.push_back(std::move(site));
    return;
  }
  if (kind(made) != Kind::New) return;
  emit_made(call, made, line_of(call), "raise");
}

// `const err = new Error(…); err.code = 'E…'; … callback(err)` (or
// `reject(err)`, `emit('error', err)`): the error the name was last bound
// to, at the line it was made on, which is the line a stack names (V8
// records where an error is made); the statement handing it on is not
// shown. Bound in a block that holds the call too, not in a block beside
// it (a `case`'s `const err` is not the `err` of a `catch (err)` below).
// One site per making: two calls handing the same error on (`if (cb)
// cb(err); else this.emit('error', err)`) are one. What is handed to a
// callback or emitted is an error only when its class is named as one
// (not `rule(context)` of a `new ValidationContext(…)`); what a promise
// rejects is one whatever its class.
void FileScanner::emit_bound_error(TSNode call, TSNode name, bool rejects) {
  const Assign* last = nullptr;
  assignments_reaching(text(name), start_byte(call), last);
  TSNode value = last ? made_error(unwrap(last->value)) : TSNode{};
  TSNode block = last && !ts_node_is_null(last->node) ? ts_node_parent(ts_node_parent(last->node)) : TSNode{};
  if (kind(value) != Kind::New || ts_node_is_null(block) || start_byte(block) > start_byte(call) ||
      ts_node_end_byte(block) <= start_byte(call))
    return;
  if (!rejects && !names_error(text(child(value, m_g.f_constructor)))) return;
  const int line = line_of(value);
  const std::string made_text = collapse_ws(text(value));
  if (std::any_of(m_facts.sites.begin(), m_facts.sites.end(),
                  [&](const ThrowSite& s) { return s.line == line && s.raised_text == made_text; }))
    return;
  emit_made(call, value, line, "raise");
  ThrowSite& site = m_facts.sites.back();
  // Its code, set between the making and the call, as before a `throw err`.
  const std::string code_name = std::string(text(name)) + ".code";
  for (const Assign& a : assignments(scope_of(last->at)))
    if (a.at > last->at && a.at < start_byte(call) && a.name == code_name && kind(a.value) == Kind::String) {
      std::string v(text(a.value));
      if (v.size() >= 2) site.args.push_back("code='" + v.substr(1, v.size() - 2) + "'");
    }
  // `err.message = msg.err.message` before it is handed on.
  read_message_set(text(name), site, start_byte(value), start_byte(call));
}

TSNode FileScanner::made_error(TSNode value) const {
  if (ts_node_is_null(value) || std::string_view(ts_node_type(value)) != "ternary_expression") return value;
  TSNode a = unwrap(child(value, m_g.f_consequence)), b = unwrap(child(value, m_g.f_alternative));
  if ((kind(a) == Kind::New) == (kind(b) == Kind::New)) return value;
  return kind(a) == Kind::New ? a : b;
}

// An error made once as the module loads, bound to a name of its top level
// (`const E_CANCELED = new Error('request for lock canceled')`,
// `exports.E_TIMEOUT = new Error(…)`, `export const …`): every throw or
// rejection of it shows the stack V8 took there, so the making is the site.
// Its class must be named as an error.
void FileScanner::emit_module_errors() {
  auto emit = [&](TSNode statement, TSNode value) {
    value = unwrap(value);
    if (kind(value) != Kind::New || !names_error(text(child(value, m_g.f_constructor)))) return;
    const std::string made_text = collapse_ws(text(value));
    if (std::any_of(m_facts.sites.begin(), m_facts.sites.end(),
                    [&](const ThrowSite& s) { return s.line == line_of(value) && s.raised_text == made_text; }))
      return;
    emit_made(statement, value, line_of(value), "raise");
  };
  for (std::uint32_t i = 0, n = named_count(m_root); i < n; ++i) {
    TSNode statement = ts_node_named_child(m_root, i);
    TSNode decl = statement;
    if (std::string_view(ts_node_type(statement)) == "export_statement") decl = child(statement, m_g.f_declaration);
    const std::string_view type = ts_node_is_null(decl) ? std::string_view() : ts_node_type(decl);
    if (type == "lexical_declaration" || type == "variable_declaration") {
      for (std::uint32_t k = 0, m = named_count(decl); k < m; ++k) {
        TSNode d = ts_node_named_child(decl, k);
        if (kind(d) == Kind::Declarator) emit(statement, child(d, m_g.f_value));
      }
    } else if (type == "expression_statement") {
      // A name or an export, not a prototype (`IndexError.prototype = new RangeError()`).
      TSNode e = unwrap(ts_node_named_child(decl, 0));
      TSNode left = child(e, m_g.f_left);
      const std::string_view owner = kind(left) == Kind::Member ? text(child(left, m_g.f_object)) : std::string_view();
      if (kind(e) == Kind::Assign && (kind(left) == Kind::Identifier || owner == "exports" || owner == "module.exports"))
        emit(statement, child(e, m_g.f_right));
    }
  }
}

// Node's assert module (the file requires or imports `assert`,
// `node:assert` or their `/strict`): `assert(cond, msg)`, `assert.ok(cond,
// msg)` and `assert.strictEqual(a, b, msg)` (`equal`, `notStrictEqual`,
// `notEqual`) throw `AssertionError [ERR_ASSERTION]: msg` when the check
// fails. Without a message Node writes its own, and with an error object
// it throws that: neither is read here.
bool FileScanner::emit_node_assert(TSNode call, std::string_view callee) {
  struct Check {
    std::string_view method;
    std::string_view op;  // "" for a truth test
  };
  static constexpr Check k_checks[] = {
      {"ok", ""}, {"strictEqual", "==="}, {"equal", "=="}, {"notStrictEqual", "!=="}, {"notEqual", "!="}};
  const std::string_view method = callee == "assert" ? std::string_view("ok") : callee.substr(7);
  const Check* check = nullptr;
  for (const Check& c : k_checks)
    if (c.method == method) check = &c;
  if (!check) return false;
  TSNode msg = unwrap(argument(call, check->op.empty() ? 1 : 2));
  if (ts_node_is_null(msg) || kind(msg) == Kind::New) return false;
  ThrowSite site;
  site.kind = "assert";
  site.error_class = "AssertionError";
  site.line = line_of(call);
  site.end_line = static_cast<int>(ts_node_end_point(call).row) + 1;
  site.raised_text = collapse_ws(text(call));
  site.args = argument_texts(call);
  site.message = message_from(msg, start_byte(call));
  fill_context(site, start_byte(call));
  Guard g = guard_of("assert", argument(call, 0), call);
  if (!check->op.empty()) {
    g.condition += " " + std::string(check->op) + " " + collapse_ws(text(argument(call, 1)));
    add_guard_names(g, argument(call, 1));
  }
  site.guards.insert(site.guards.begin(), std::move(g));
  if (site.guards.size() > k_max_guards) site.guards.resize(k_max_guards);
  m_facts.sites.push_back(std::move(site));
  return true;
}

void FileScanner::emit_made(TSNode call, TSNode made, int line, const char* kind_name) {
  ThrowSite site;
  site.kind = kind_name;
  site.line = line;
  site.end_line = static_cast<int>(ts_node_end_point(call).row) + 1;
  site.raised_text = collapse_ws(text(made));
  read_construction(made, site, start_byte(call), 0);
  fill_context(site, start_byte(call));
  m_facts.sites.push_back(std::move(site));
}

// Whether `name` is the second parameter of a promise executor around the
// call: `new Promise((resolve, reject) => …)`.
bool FileScanner::promise_reject_name(std::string_view name) const {
  for (std::size_t i = m_ctx.size(); i-- > 0;) {
    const Ctx& c = m_ctx[i];
    if (!is_function(c.kind)) continue;
    TSNode args = ancestor_on_path(c, 1);
    TSNode made = ancestor_on_path(c, 2);
    if (kind(args) != Kind::Arguments || kind(made) != Kind::New || text(child(made, m_g.f_constructor)) != "Promise")
      continue;
    auto params = parameter_names(c.node);
    if (params.size() >= 2 && params[1] == name) return true;
  }
  return false;
}

// Node's callback style: the error goes to a function the enclosing
// function was handed (`function read(path, cb) { … cb(new Error(…)) }`).
bool FileScanner::parameter_of_enclosing(std::string_view name) const {
  for (std::size_t i = m_ctx.size(); i-- > 0;) {
    if (!is_function(m_ctx[i].kind)) continue;
    auto params = parameter_names(m_ctx[i].node);
    return std::find(params.begin(), params.end(), name) != params.end();
  }
  return false;
}

// Whether `name` is a parameter of a function around the innermost one
// (not of the innermost, and not the first parameter of a function handed
// to `new`: a promise executor's `resolve`).
bool FileScanner::callback_of_outer_function(std::string_view name) const {
  bool innermost = true;
  for (std::size_t i = m_ctx.size(); i-- > 0;) {
    if (!is_function(m_ctx[i].kind)) continue;
    auto params = parameter_names(m_ctx[i].node);
    const auto at = std::find(params.begin(), params.end(), name);
    if (at != params.end()) {
      TSNode made = ancestor_on_path(m_ctx[i], 2);
      return !innermost && !(at == params.begin() && kind(made) == Kind::New);
    }
    innermost = false;
  }
  return false;
}

// Whether a class is named as an error (`Error`, `MongooseError`,
// `errors.AbortError`, `SomeException`, `DeprecationWarning`, `ERR_X`).
bool FileScanner::names_error(std::string_view cls) {
  cls.remove_prefix(cls.rfind('.') == std::string_view::npos ? 0 : cls.rfind('.') + 1);
  // Node's error codes name their classes too (`ERR_STREAM_PUSH_AFTER_EOF`).
  const bool code = cls.starts_with("ERR_") && cls.size() > 4 &&
                    std::all_of(cls.begin() + 4, cls.end(), [](char ch) { return (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_'; });
  // MQTT.js's `ErrorWithReasonCode`: `Error` and a capital.
  const bool error_with = cls.size() > 5 && cls.starts_with("Error") && std::isupper(static_cast<unsigned char>(cls[5]));
  return code || error_with || cls.ends_with("Error") || cls.ends_with("Exception") || cls.ends_with("Warning");
}

// Whether function `fn` throws its first parameter, or emits it as an
// error: `this.emit('error', err)`, or `this.emit(eventName, err)` of a
// parameter `eventName = 'error'` (formidable's `_error(err, eventName =
// "error")`).
bool FileScanner::hands_on_first_parameter(TSNode fn) {
  if (ts_node_is_null(fn) || !is_function(kind(fn))) return false;
  const std::vector<std::string> params = parameter_names(fn);
  if (params.empty() || params.front().empty()) return false;
  auto is_error_event = [&](TSNode event) {
    const std::string_view t = text(event);
    if (kind(event) == Kind::String) return t == "'error'" || t == "\"error\"";
    if (kind(event) != Kind::Identifier) return false;
    TSNode list = child(fn, m_g.f_parameters);
    for (std::uint32_t i = 0, count = named_count(list); i < count; ++i) {
      TSNode p = ts_node_named_child(list, i);
      TSNode name = child(p, m_g.f_pattern);
      if (ts_node_is_null(name)) name = child(p, m_g.f_left);
      TSNode value = child(p, m_g.f_value);
      if (ts_node_is_null(value)) value = child(p, m_g.f_right);
      if (!ts_node_is_null(name) && text(name) == t && !ts_node_is_null(value))
        return kind(value) == Kind::String && (text(value) == "'error'" || text(value) == "\"error\"");
    }
    return false;
  };
  bool found = false;
  walk(child(fn, m_g.f_body), [&](TSNode x, std::uint32_t depth, TSTreeCursor*) {
    const Kind k = kind(x);
    if (found || (depth > 0 && is_function(k))) return false;
    if (k == Kind::Throw) {
      TSNode thrown = unwrap(ts_node_named_child(x, 0));
      found = kind(thrown) == Kind::Identifier && text(thrown) == params.front();
      return false;
    }
    if (k == Kind::Call) {
      const std::string_view callee = text(child(x, m_g.f_function));
      TSNode handed = unwrap(argument(x, 1));
      if ((callee == "emit" || callee.ends_with(".emit")) && is_error_event(unwrap(argument(x, 0))) &&
          kind(handed) == Kind::Identifier && text(handed) == params.front())
        found = true;
    }
    return true;
  });
  return found;
}

// A function of the file that throws the error it is handed, when it is
// not given a callback to hand it to instead: `function failure(err) { if
// (callback) return callback(err); throw err; }`; or a variable of a
// function around the call that holds such a function or that function's
// callback parameter (`if (callback) done = callback; else done =
// function (err, data) { if (err) throw err; … }`). jsonwebtoken's `return
// done(new JsonWebTokenError('jwt malformed'))`.
bool FileScanner::throws_its_argument(std::string_view name, std::uint32_t at) {
  if (hands_on_first_parameter(function_named(name))) return true;
  TSNode scope = scope_of(at);
  for (int hops = 0; hops < 16; ++hops) {
    for (const Assign& a : assignments(scope)) {
      if (a.name != name) continue;
      TSNode value = unwrap(a.value);
      if (hands_on_first_parameter(value)) return true;
      if (kind(value) == Kind::Identifier) {
        const std::vector<std::string> params = parameter_names(scope);
        if (std::find(params.begin(), params.end(), text(value)) != params.end()) return true;
      }
    }
    if (ts_node_eq(scope, m_root)) break;
    scope = outer_function(scope);
  }
  return false;
}

}  // namespace errdex::scan::javascript_detail
