// `throw helper(args)` and a message built by a function of the file: what
// the function returns, read through its returns with the call's arguments.
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

// `throw helper(args)` where this file defines `helper` to return `new
// X(…)`, directly or through another such helper (json5's `invalidChar(c)`
// returns `syntaxError(\`JSON5: invalid character …\`)`, which returns `new
// SyntaxError(message)`): the first error returned is the site's class and
// message, the others its alternatives.
bool FileScanner::read_helper(TSNode call, ThrowSite& site, std::uint32_t at, int depth) {
  // `throw fatal(new Error('bad SOCKS URL'))`: what the call hands the
  // helper is what it throws.
  if (TSNode given = depth < 4 ? handed_back(call) : TSNode{}; !ts_node_is_null(given)) {
    if (kind(given) == Kind::Identifier) {
      read_thrown_name(given, site, at, depth + 1);
      return true;
    }
    return read_construction(given, site, at, depth + 1);
  }
  std::vector<HelperError> made = helper_errors(call, at, depth);
  if (made.empty()) return false;
  site.args = argument_texts(call);
  site.error_class = std::move(made.front().error_class);
  site.message = std::move(made.front().message);
  for (std::size_t i = 1; i < made.size() && site.alternatives.size() < 64; ++i)
    site.alternatives.push_back(std::move(made[i].message));
  // `fail(msg) { throw this.error(msg) }`: what the callers of `fail` pass.
  add_caller_messages(site, at);
  return true;
}

TSNode FileScanner::handed_back(TSNode call) {
  TSNode fn = called_function(call);
  if (ts_node_is_null(fn)) return {};
  TSNode body = child(fn, m_g.f_body);
  std::string_view returned;
  bool every = true;
  auto take = [&](TSNode v) {
    v = unwrap(v);
    if (kind(v) != Kind::Identifier || (!returned.empty() && text(v) != returned)) every = false;
    else returned = text(v);
  };
  if (kind(body) != Kind::Block) {
    take(body);  // `(e) => e`
  } else {
    walk(body, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
      const Kind k = kind(x);
      if (k == Kind::Return) {
        if (named_count(x) == 0) every = false;
        else take(ts_node_named_child(x, 0));
      }
      return every && (!is_function(k) || ts_node_eq(x, body));
    });
    // Not bound again on the way.
    if (every && !returned.empty())
      walk(body, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
        const Kind k = kind(x);
        if ((k == Kind::Assign || k == Kind::AugAssign) && kind(child(x, m_g.f_left)) == Kind::Identifier &&
            text(child(x, m_g.f_left)) == returned)
          every = false;
        return every && (!is_function(k) || ts_node_eq(x, body));
      });
  }
  if (!every || returned.empty()) return {};
  const std::vector<std::string> params = parameter_names(fn);
  const auto pos = std::find(params.begin(), params.end(), returned);
  if (pos == params.end()) return {};
  TSNode given = unwrap(argument(call, static_cast<std::uint32_t>(pos - params.begin())));
  const Kind gk = kind(given);
  return gk == Kind::New || gk == Kind::Call || gk == Kind::Identifier ? given : TSNode{};
}

// The method `name` of the class whose method holds `n` (`this` there is
// its instance: not inside a plain function or an object literal's
// method), or null.
TSNode FileScanner::own_method(TSNode n, std::string_view name) const {
  TSNode cls{};
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && ts_node_is_null(cls); p = ts_node_parent(p)) {
    const Kind k = kind(p);
    // A plain function has a `this` of its own; an arrow's is its scope's.
    if (k == Kind::Function) return {};
    if (k != Kind::Method) continue;
    // The method's class (body, then class); an object literal's method
    // has the object as its `this`.
    cls = ts_node_parent(ts_node_parent(p));
    if (kind(cls) != Kind::ClassDecl) return {};
  }
  TSNode body = child(cls, m_g.f_body);
  for (std::uint32_t i = 0, n_members = named_count(body); i < n_members; ++i) {
    TSNode m = ts_node_named_child(body, i);
    if (kind(m) == Kind::Method && text(child(m, m_g.f_name)) == name) return m;
  }
  return {};
}

namespace {

// `name || "token"`, `n ?? 1`: the name and the written default (a string
// without escapes or quotes inside, or a number); empty when `expr` is no
// such default.
std::pair<std::string_view, std::string_view> defaulted_parameter(std::string_view expr) {
  for (std::string_view op : {" || ", " ?? "}) {
    const std::size_t at = expr.find(op);
    if (at == std::string_view::npos) continue;
    const std::string_view name = expr.substr(0, at), value = expr.substr(at + op.size());
    const bool identifier = !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
      return std::isalnum(c) || c == '_' || c == '$';
    }) && !std::isdigit(static_cast<unsigned char>(name[0]));
    if (!identifier || value.empty()) return {};
    const char q = value.front();
    if ((q == '"' || q == '\'') && value.size() >= 2 && value.back() == q) {
      const std::string_view inner = value.substr(1, value.size() - 2);
      if (inner.find_first_of("\\\"'`") != std::string_view::npos) return {};
      return {name, inner};
    }
    if (std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c) || c == '.'; }))
      return {name, value};
    return {};
  }
  return {};
}

}  // namespace

// The errors `call`, a call of a function of this file, returns: each
// `return new X(…)` of it (an arrow's body counts as its return; so does a
// name the function made one under and returns), and each
// `return other(…)` read through `other` the same way, a few calls deep;
// `this.method(…)` is its class's method.
// A parameter in a message is what `call` passes for it (its literal text
// when it is one).
std::vector<FileScanner::HelperError> FileScanner::helper_errors(TSNode call, std::uint32_t at, int depth) {
  std::vector<HelperError> out;
  if (depth > 3) return out;
  TSNode callee = child(call, m_g.f_function);
  TSNode fn = called_function(call);
  if (ts_node_is_null(fn)) return out;
  std::vector<std::string> params = parameter_names(fn);
  std::vector<HelperError> made = returned_errors(fn, callee, depth);
  std::vector<std::string> args = argument_texts(call);
  for (HelperError& e : made) {
    MessageTemplate filled;
    filled.style = e.message.style;
    filled.from_literals = e.message.from_literals;
    for (const TemplatePart& p : e.message.parts) {
      auto pos = std::find(params.begin(), params.end(), p.text);
      std::size_t k = static_cast<std::size_t>(pos - params.begin());
      if (!p.literal && pos == params.end()) {
        // `(name || "token")` of a parameter with a written default: the
        // default where the call passes nothing, the call's literal where
        // it passes one (protobuf.js's `illegal(token, name)`, called as
        // `illegal(token)` and `illegal(str, "id")`).
        if (auto [param, fallback] = defaulted_parameter(p.text); !param.empty()) {
          auto named = std::find(params.begin(), params.end(), param);
          const auto j = static_cast<std::size_t>(named - params.begin());
          if (named != params.end() && j >= args.size()) {
            append_parts(filled.parts, {model::TemplatePart{true, std::string(fallback), {}, 0}});
            continue;
          }
          if (named != params.end() && kind(unwrap(argument(call, static_cast<std::uint32_t>(j)))) == Kind::Number) {
            append_parts(filled.parts, {model::TemplatePart{true, std::string(text(unwrap(argument(call, static_cast<std::uint32_t>(j))))), {}, 0}});
            continue;
          }
          if (named != params.end()) {
            MessageTemplate given = message_from(argument(call, static_cast<std::uint32_t>(j)), at);
            if (given.from_literals) {
              append_parts(filled.parts, std::move(given.parts));
              continue;
            }
          }
        }
        // `${message.header}` of a parameter given an object literal
        // (undici's `webidl.errors.exception({ header: prefix, message:
        // '…' })`): what the object gives that key.
        const std::size_t dot = p.text.find('.');
        auto named = std::find(params.begin(), params.end(), std::string_view(p.text).substr(0, dot));
        const auto j = static_cast<std::uint32_t>(named - params.begin());
        TSNode value = dot == std::string::npos || named == params.end()
                           ? TSNode{}
                           : object_property(argument(call, j), std::string_view(p.text).substr(dot + 1));
        if (!ts_node_is_null(value)) {
          bool literal = false;
          append_parts(filled.parts, operand(value, at, depth, literal));
          continue;
        }
        // `${reader.pos}` of a parameter given `this`: the caller's
        // `${this.pos}` (a name given is left as the parameter).
        TSNode given = unwrap(argument(call, j));
        if (dot != std::string::npos && named != params.end() && !ts_node_is_null(given) &&
            std::string_view(ts_node_type(given)) == "this" && p.display.empty()) {
          filled.parts.push_back(interp(std::string(text(given)) + p.text.substr(dot)));
          continue;
        }
      }
      if (p.literal || pos == params.end() || k >= args.size()) {
        filled.parts.push_back(p);
        continue;
      }
      // A number passed prints as written, as one in a `+` does (`fail(0)`).
      if (TSNode n = unwrap(argument(call, static_cast<std::uint32_t>(k))); kind(n) == Kind::Number) {
        append_parts(filled.parts, {model::TemplatePart{true, std::string(text(n)), {}, 0}});
        continue;
      }
      MessageTemplate given = message_from(argument(call, static_cast<std::uint32_t>(k)), at);
      if (!given.from_literals) {
        filled.parts.push_back(interp(args[k]));
        continue;
      }
      // `new Error(message)` given a literal is that literal's message.
      if (e.message.parts.size() == 1 && !e.message.from_literals) {
        filled.style = given.style;
        filled.from_literals = true;
      }
      append_parts(filled.parts, std::move(given.parts));
    }
    out.push_back({std::move(e.error_class), std::move(filled)});
  }
  return out;
}

// The errors function `fn` returns, as it writes them (its parameters
// named in their messages): each `return new X(…)` or `return XError(…)`
// (an arrow's body counts
// as its return; so does a name the function made one under and returns),
// and each `return other(…)` read through `other` (not `callee`, the call
// being read), the usual one first.
std::vector<FileScanner::HelperError> FileScanner::returned_errors(TSNode fn, TSNode callee, int depth) {
  std::vector<HelperError> made;
  auto returned = [&](TSNode v) {
    v = unwrap(v);
    if (made.size() >= 16) return;
    if (kind(v) == Kind::Identifier) {  // `const err = new X(…); …; return err`
      const std::uint32_t here = start_byte(v);
      const Assign* last = nullptr;
      for (const Assign& a : assignments(scope_of(here)))
        if (a.at < here && a.name == text(v)) last = &a;
      if (last && (kind(unwrap(last->value)) == Kind::New || error_call(unwrap(last->value))))
        v = unwrap(last->value);
    }
    if (kind(v) == Kind::New) {
      made.push_back({collapse_ws(text(child(v, m_g.f_constructor))), message_from(argument(v, 0), start_byte(v))});
    } else if (error_call(v)) {
      made.push_back({std::string(text(child(v, m_g.f_function))), message_from(argument(v, 0), start_byte(v))});
    } else if (kind(v) == Kind::Call && (ts_node_is_null(callee) || !ts_node_eq(child(v, m_g.f_function), callee))) {
      for (HelperError& e : helper_errors(v, start_byte(v), depth + 1))
        if (made.size() < 16) made.push_back(std::move(e));
    }
  };
  TSNode body = child(fn, m_g.f_body);
  if (kind(body) != Kind::Block) {
    returned(body);  // `(m) => new SyntaxError(m)`
  } else {
    // The return every other path falls through to, a statement of the
    // body itself, is the usual error and comes first (json5's invalidChar
    // returns "invalid end of input" for no character, else "invalid
    // character"); the others follow in source order.
    std::size_t usual = 0, before = 0;
    bool found = false;
    walk(body, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
      if (kind(x) == Kind::Return && named_count(x) > 0) {
        before = made.size();
        returned(ts_node_named_child(x, 0));
        if (!found && made.size() > before && ts_node_eq(ts_node_parent(x), body)) {
          usual = before;
          found = true;
        }
      }
      return !is_function(kind(x)) || ts_node_eq(x, body);
    });
    if (found && usual > 0) std::rotate(made.begin(), made.begin() + static_cast<std::ptrdiff_t>(usual), made.begin() + static_cast<std::ptrdiff_t>(usual + 1));
  }
  return made;
}

bool FileScanner::error_call(TSNode call) {
  if (kind(call) != Kind::Call) return false;
  TSNode callee = child(call, m_g.f_function);
  if (kind(callee) != Kind::Identifier) return false;
  const std::string_view name = text(callee);
  return (name.ends_with("Error") || name.ends_with("Exception")) && javascript::names_class(name) &&
         ts_node_is_null(function_named(name));
}

TSNode FileScanner::called_function(TSNode call) {
  TSNode callee = child(call, m_g.f_function);
  if (kind(callee) == Kind::Identifier) return function_named(text(callee));
  if (kind(callee) == Kind::Member && text(child(callee, m_g.f_object)) == "this") {
    TSNode own = own_method(call, text(child(callee, m_g.f_property)));  // `throw this.formatError(err)`
    if (!ts_node_is_null(own)) return own;
    // `Tokenizer.prototype.expect = function () { throw this.error(…) }`:
    // the function assigned as the same object's member `error`.
    TSNode fn = ts_node_parent(call);
    while (!ts_node_is_null(fn) && !is_function(kind(fn))) fn = ts_node_parent(fn);
    TSNode assign = ts_node_parent(fn);
    if (kind(fn) != Kind::Function || kind(assign) != Kind::Assign || kind(child(assign, m_g.f_left)) != Kind::Member)
      return {};
    return member_function(std::string(text(child(child(assign, m_g.f_left), m_g.f_object))) + "." +
                           std::string(text(child(callee, m_g.f_property))));
  }
  if (kind(callee) == Kind::Member) return member_function(text(callee));
  return {};
}

TSNode FileScanner::member_function(std::string_view dotted) {
  if (!m_members_indexed) {
    m_members_indexed = true;
    for (TSNode st : named_children(m_root)) {
      TSNode assign = kind(st) == Kind::Statement ? ts_node_named_child(st, 0) : TSNode{};
      if (kind(assign) != Kind::Assign || kind(child(assign, m_g.f_left)) != Kind::Member) continue;
      TSNode fn = unwrap(child(assign, m_g.f_right));
      if (is_function(kind(fn))) m_member_functions.try_emplace(text(child(assign, m_g.f_left)), fn);
    }
  }
  auto it = m_member_functions.find(dotted);
  return it == m_member_functions.end() ? TSNode{} : it->second;
}

TSNode FileScanner::object_property(TSNode object, std::string_view key) const {
  object = unwrap(object);
  if (kind(object) != Kind::Object) return {};
  for (std::uint32_t i = 0, n = named_count(object); i < n; ++i) {
    TSNode p = ts_node_named_child(object, i);
    if (kind(p) == Kind::Shorthand && text(p) == key) return p;
    if (kind(p) != Kind::Pair) continue;
    std::string_view k = text(child(p, m_g.f_key));
    if (k.size() >= 2 && (k.front() == '\'' || k.front() == '"') && k.back() == k.front()) k = k.substr(1, k.size() - 2);
    if (k == key) return child(p, m_g.f_value);
  }
  return {};
}

std::optional<MessageTemplate> FileScanner::build_text_helper(TSNode call, std::uint32_t at, int depth) {
  TSNode fn = called_function(call);
  if (ts_node_is_null(fn)) return std::nullopt;
  TSNode body = child(fn, m_g.f_body);
  TSNode value{};
  if (kind(body) != Kind::Block) {
    value = body;
  } else {
    int returns = 0;
    walk(body, [&](TSNode x, std::uint32_t, TSTreeCursor*) {
      if (kind(x) == Kind::Return) {
        ++returns;
        if (named_count(x) > 0) value = ts_node_named_child(x, 0);
        return false;
      }
      return !is_function(kind(x)) || ts_node_eq(x, body);
    });
    if (returns != 1) return std::nullopt;
  }
  value = unwrap(value);
  if (ts_node_is_null(value) || kind(value) == Kind::New) return std::nullopt;
  std::optional<MessageTemplate> t = build(value, start_byte(value), depth + 1);
  if (!t || !t->from_literals) return std::nullopt;
  if (std::none_of(t->parts.begin(), t->parts.end(), [](const TemplatePart& p) {
        return p.literal && p.text.find_first_not_of(" \t\n") != std::string::npos;
      }))
    return std::nullopt;
  // Its parameters are what the call passes.
  const std::vector<std::string> params = parameter_names(fn);
  const std::vector<std::string> args = argument_texts(call);
  MessageTemplate filled;
  filled.style = t->style;
  filled.from_literals = true;
  for (TemplatePart& p : t->parts) {
    const auto pos = std::find(params.begin(), params.end(), p.text);
    const std::size_t k = static_cast<std::size_t>(pos - params.begin());
    if (p.literal || pos == params.end() || k >= args.size()) {
      filled.parts.push_back(std::move(p));
      continue;
    }
    bool literal = false;
    append_parts(filled.parts, operand(argument(call, static_cast<std::uint32_t>(k)), at, depth + 1, literal));
  }
  return filled;
}

// `function invariant(condition, error) { if (!condition) throw new
// Error(error); }`: a throw whose message is a parameter of a function of
// this file, never reassigned there, shows what the file's calls of the
// function pass for it. Each call passing text (immutable's
// `invariant(step !== 0, 'Cannot step a Range by 0')`) gives an
// alternative; the message stays the parameter, and the site keeps which
// parameter it is (ThrowSite::message_param) for the calls of other files.
// The parameter may be one part among text (acorn's `pp.raise = function
// (pos, message) { message += " (" + loc.line + …; throw new
// SyntaxError(message) }`) when it is only appended to and no guard tests
// it: a caller's text then takes its place in the message.
void FileScanner::add_caller_messages(ThrowSite& site, std::uint32_t at) {
  const std::size_t n_parts = site.message.parts.size();
  TSNode fn = scope_of(at);
  if (n_parts == 0 || ts_node_eq(fn, m_root)) return;
  const std::vector<std::string> params = parameter_names(fn);
  // Of several parameters, the one the message starts with (`{message} at
  // {pos}`); else which one a caller's text is, is not known.
  std::size_t index = n_parts;
  for (std::size_t i = 0; i < n_parts; ++i) {
    const TemplatePart& p = site.message.parts[i];
    if (p.literal || std::find(params.begin(), params.end(), p.text) == params.end()) continue;
    if (index == 0) break;
    if (index != n_parts) return;
    index = i;
  }
  if (index == n_parts) return;
  const std::string param = site.message.parts[index].text;
  if (part_named(site.message, param) != index) return;  // shown twice
  const bool alone = n_parts == 1;
  for (const Assign& a : assignments(fn))
    if (a.name == param && (alone || !a.append)) return;
  if (!alone)
    for (const Guard& g : guards(at))
      if (std::find(g.names.begin(), g.names.end(), param) != g.names.end()) return;
  const auto position = static_cast<std::uint32_t>(std::find(params.begin(), params.end(), param) - params.begin());
  // Other files' calls, through their imports, are link_javascript_caller_messages's.
  if (!called_with_texts(site, param, fn, position, 0)) return;
  site.message_param = param;
  site.message_param_position = static_cast<int>(position);
}

// The calls of function `fn` in this file that pass text at `position`
// give `site` their texts for `param`; a call passing a parameter of its
// own function on (terser's `croak(msg, line, col)` calls `js_error(msg,
// …)`, `token_error(token, msg)` calls `croak(msg, …)`; arktype's
// `throwParseError = message => throwError(message, ParseError)`) gives
// the texts of that function's calls in turn, up to three functions away.
// False when `fn` is no function called by a name.
bool FileScanner::called_with_texts(ThrowSite& site, const std::string& param, TSNode fn, std::uint32_t position, int depth) {
  // A class's method (nunjucks' `fail(msg, lineno, colno) { throw new
  // TemplateError(msg, …) }`) is called as `this.fail('…')` by the class's
  // other methods.
  const bool method = kind(fn) == Kind::Method;
  // Called by its name: a declaration's, or a declarator's it is the value
  // of; or as `this.name(…)` when assigned to an object's member (`pp.raise
  // = function …` with `pp = Parser.prototype`) by the functions assigned
  // to that object's other members.
  // (A view of the file's text: occurrences keeps it as a key.)
  std::string_view name = text(child(fn, m_g.f_name));
  std::string_view object;
  if (!method && name.empty()) {
    TSNode parent = ts_node_parent(fn);
    TSNode left = child(parent, m_g.f_left);
    if (kind(parent) == Kind::Declarator) {
      name = text(child(parent, m_g.f_name));
    } else if (kind(parent) == Kind::Assign && kind(left) == Kind::Member && ts_node_eq(child(parent, m_g.f_right), fn) &&
               kind(child(left, m_g.f_object)) == Kind::Identifier) {
      name = text(child(left, m_g.f_property));
      object = text(child(left, m_g.f_object));
    }
  }
  if (name.empty()) return false;
  if (method ? !ts_node_eq(own_method(child(fn, m_g.f_body), name), fn)
             : object.empty() && !ts_node_eq(function_named(name), fn))
    return false;
  // Whether `n` is in a function assigned to a member of `object` (an
  // arrow's `this` is its scope's).
  auto in_member_of_object = [&](TSNode n) {
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
      const Kind k = kind(p);
      if (k == Kind::Method) return false;
      if (k != Kind::Function) continue;
      TSNode assign = ts_node_parent(p);
      TSNode left = child(assign, m_g.f_left);
      return kind(assign) == Kind::Assign && kind(left) == Kind::Member && text(child(left, m_g.f_object)) == object;
    }
    return false;
  };
  // (A map's element: building a caller's text may add others, which
  // leaves it where it is.)
  const std::vector<std::uint32_t>& calls = occurrences(name);
  for (std::uint32_t off : calls) {
    if (site.alternatives.size() >= 64) break;
    TSNode id = ts_node_descendant_for_byte_range(m_root, off, off + static_cast<std::uint32_t>(name.size()));
    if (text(id) != name) continue;
    TSNode callee = id;
    if (method || !object.empty()) {
      // `this.fail(…)` in a method of the same class, or in a function
      // assigned to the same object.
      callee = ts_node_parent(id);
      if (kind(callee) != Kind::Member || !ts_node_eq(child(callee, m_g.f_property), id) ||
          text(child(callee, m_g.f_object)) != "this" ||
          (method ? !ts_node_eq(own_method(callee, name), fn) : !in_member_of_object(callee)))
        continue;
    } else if (kind(id) != Kind::Identifier) {
      continue;
    }
    TSNode call = ts_node_parent(callee);
    if (kind(call) != Kind::Call || !ts_node_eq(child(call, m_g.f_function), callee)) continue;
    TSNode arg = unwrap(argument(call, position));
    const Kind ak = kind(arg);
    if (ak == Kind::Identifier && depth < 2) {
      // A parameter of the calling function, handed on as it came.
      TSNode caller = scope_of(start_byte(call));
      if (ts_node_eq(caller, m_root) || ts_node_eq(caller, fn)) continue;
      const std::vector<std::string> outer = parameter_names(caller);
      const auto at = std::find(outer.begin(), outer.end(), text(arg));
      if (at == outer.end() || std::any_of(assignments(caller).begin(), assignments(caller).end(),
                                           [&](const Assign& a) { return a.name == text(arg); }))
        continue;
      const auto handed = static_cast<std::uint32_t>(at - outer.begin());
      if (called_with_texts(site, param, caller, handed, depth + 1)) {
        // Called by a name (checked above): other files' calls of it.
        std::string_view forwarder = text(child(caller, m_g.f_name));
        if (forwarder.empty() && kind(ts_node_parent(caller)) == Kind::Declarator)
          forwarder = text(child(ts_node_parent(caller), m_g.f_name));
        if (!forwarder.empty() && site.message_forwarders.size() < 8) {
          std::string entry = std::string(forwarder) + ":" + std::to_string(handed);
          if (std::find(site.message_forwarders.begin(), site.message_forwarders.end(), entry) ==
              site.message_forwarders.end())
            site.message_forwarders.push_back(std::move(entry));
        }
      }
      continue;
    }
    if (ak != Kind::String && ak != Kind::Template && ak != Kind::Binary) continue;
    std::optional<MessageTemplate> t = build(arg, start_byte(call), 1);
    if (!t || !t->from_literals ||
        std::none_of(t->parts.begin(), t->parts.end(), [](const TemplatePart& p) {
          return p.literal && p.text.find(' ') != std::string::npos;
        }))
      continue;
    add_given(site, param, *t, 64);
  }
  return true;
}

}  // namespace errdex::scan::javascript_detail
