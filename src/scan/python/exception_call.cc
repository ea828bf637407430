// The exception a raise constructs: its class, its arguments and its
// message, with the other values a message variable may hold as variants.
#include "scan/python/file_scanner.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scan/python/text.h"

namespace errdex::scan::python::detail {

bool has_words(const MessageTemplate& t) {
  for (const auto& p : t.parts)
    if (p.literal && std::any_of(p.text.begin(), p.text.end(), [](unsigned char c) { return std::isalpha(c); }))
      return true;
  return false;
}

void drop_none_lines(MessageTemplate& t, const std::vector<std::string>& left_none) {
  if (t.style != "join" && t.style != "variable") return;
  auto& parts = t.parts;
  for (std::size_t i = 0; i < parts.size();) {
    const TemplatePart& p = parts[i];
    const bool none = p.text == "None" || std::find(left_none.begin(), left_none.end(), p.text) != left_none.end();
    if (p.literal || !none || !(p.display.empty() || p.display == p.text)) {
      ++i;
      continue;
    }
    const bool after_break = i == 0 || (parts[i - 1].literal && parts[i - 1].text.ends_with('\n'));
    const bool before_break = i + 1 == parts.size() || (parts[i + 1].literal && parts[i + 1].text.starts_with('\n'));
    if (!after_break || !before_break) {
      ++i;
      continue;
    }
    parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(i));
    // One line break goes with it: the one after, else the one before.
    if (i < parts.size()) {
      parts[i].text.erase(0, 1);
      if (parts[i].text.empty()) parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(i));
    } else if (i > 0) {
      parts[i - 1].text.pop_back();
      if (parts[i - 1].text.empty()) parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(i - 1));
    }
  }
  // Literals the removals left side by side are one.
  for (std::size_t i = 1; i < parts.size();) {
    if (parts[i - 1].literal && parts[i].literal) {
      parts[i - 1].text += parts[i].text;
      parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

void push_alternative(ThrowSite& site, MessageTemplate t) {
  constexpr std::size_t k_max_alternatives = 256;
  if (!has_words(t) || site.alternatives.size() >= k_max_alternatives) return;
  for (const auto& a : site.alternatives)
    if (same_parts(a, t)) return;
  site.alternatives.push_back(std::move(t));
}

void offer_class_display(ThrowSite& site, MessageTemplate shown, bool only) {
  if (same_parts(shown, site.message)) return;
  // What the class prints is the message; the raise's first argument was
  // read as it and stays an alternative. A class that shows one of several
  // texts (a `__str__` with branches, a message variable appended to under
  // an `if`) offers each as an alternative: which one prints is not known.
  // Not a display without words over a message with them (a `__str__`
  // framing `self.args[0]` in rules of dashes, the argument not read).
  if ((only || (site.message.parts.empty() && site.message.style == "none")) && any_literal(shown.parts) &&
      (has_words(shown) || !has_words(site.message))) {
    std::swap(site.message, shown);
    if (!shown.parts.empty()) push_alternative(site, std::move(shown));
    return;
  }
  push_alternative(site, std::move(shown));
}

void offer_class_displays(ThrowSite& site, std::vector<MessageTemplate> shown) {
  std::size_t promoted = shown.size() == 1 ? 0 : shown.size();
  if (shown.size() > 1 && !any_literal(site.message.parts))
    for (std::size_t k = shown.size(); k-- > 0 && promoted == shown.size();)
      if (any_literal(shown[k].parts)) promoted = k;
  for (std::size_t k = 0; k < shown.size(); ++k) offer_class_display(site, std::move(shown[k]), k == promoted);
}

void FileScanner::read_argument_messages(ThrowSite& site, const std::vector<TSNode>& given, std::uint32_t at) {
  site.arg_messages.clear();
  for (std::size_t i = 1; i < given.size() && i < 8; ++i) {
    // What a plain literal shows, another file reads from its text; a
    // formatted or joined one it cannot, nor an f-string's local holding
    // a choice of texts (`{plural}`).
    const Kind k = kind(unwrap_parens(given[i]));
    if (k != Kind::Call && k != Kind::BinaryOp && k != Kind::ConcatString && k != Kind::String) continue;
    const int inlined = m_inlined;
    std::optional<MessageTemplate> t = build(given[i], at, 1, false);
    if (!t || !any_literal(t->parts) || (k == Kind::String && m_inlined == inlined)) continue;
    site.arg_messages.resize(given.size());
    site.arg_messages[i] = std::move(*t);
  }
}

void FileScanner::read_exception_call(TSNode call, ThrowSite& site, std::uint32_t at) {
  TSNode cls = child(call, m_g.f_function);
  site.error_class = python::collapse_ws(text(cls));
  if (TSNode choice = unwrap_parens(cls); kind(choice) == Kind::BoolOp && text(child(choice, m_g.f_operator)) == "or") {
    // `raise (self.cls or er.Invalid)(self.msg)`: the class named when
    // none is given.
    std::string named = python::collapse_ws(text(unwrap_parens(child(choice, m_g.f_right))));
    const std::size_t dot = named.rfind('.');
    const char first = named.empty() ? '\0' : named[dot == std::string::npos ? 0 : dot + 1];
    if (is_dotted_name(named) && std::isupper(static_cast<unsigned char>(first))) site.error_class = std::move(named);
  }
  if (kind(cls) == Kind::Attribute) {
    // `raise ValidationError._from_jsonschema(ex)`, `raise
    // pydantic_core.ValidationError.from_exception_data(...)`: a method in
    // lower case called on a capitalised name is a class's factory, and
    // what it returns is that class. Not a class this file defines in
    // lower case (imaplib's `raise IMAP4.error(...)`, a nested class).
    std::string_view method = text(child(cls, m_g.f_attribute));
    std::string object = python::collapse_ws(text(child(cls, m_g.f_object)));
    const std::size_t dot = object.rfind('.');
    const char first = object.empty() ? '\0' : object[dot == std::string::npos ? 0 : dot + 1];
    const std::string_view source = m_original.empty() ? m_src : m_original;
    const std::string defined = "class " + std::string(method);
    depends_on(method);
    auto defines_class = [&] {
      for (std::size_t at = source.find(defined); at != std::string_view::npos; at = source.find(defined, at + 1)) {
        const std::size_t end = at + defined.size();
        if (end < source.size() && (source[end] == '(' || source[end] == ':')) return true;
      }
      return false;
    };
    if (!method.empty() && (std::islower(static_cast<unsigned char>(method[0])) || method[0] == '_') &&
        std::isupper(static_cast<unsigned char>(first)) && is_dotted_name(object) && !defines_class())
      site.error_class = std::move(object);
  }
  if (kind(cls) == Kind::Attribute && m_display_class.empty()) {
    // `raise self.failureException(msg)` in unittest's TestCase, whose body
    // says `failureException = AssertionError`: Python prints that class.
    if (TSNode value = class_attribute_value(cls); !ts_node_is_null(value)) {
      std::string named = python::collapse_ws(text(value));
      const std::size_t dot = named.rfind('.');
      const char first = named.empty() ? '\0' : named[dot == std::string::npos ? 0 : dot + 1];
      if (is_dotted_name(named) && std::isupper(static_cast<unsigned char>(first))) site.error_class = std::move(named);
    }
  }
  if (kind(cls) == Kind::Identifier && ts_node_is_null(m_scope)) {
    // `def fail(self, msg, exc=TemplateSyntaxError): raise exc(msg)`: the
    // class a parameter defaults to, unless the function assigns it.
    const std::size_t fi = innermost_function();
    if (fi != std::string::npos && reaching(text(cls), at).empty()) {
      TSNode def = parameter_default(m_ctx[fi].node, text(cls));
      std::string given = python::collapse_ws(text(def));
      if (!ts_node_is_null(def) && is_dotted_name(given) && given != "None") site.error_class = std::move(given);
    }
  }
  site.args.clear();
  TSNode args = child(call, m_g.f_arguments);
  TSNode first{};
  TSNode keyword_msg{};
  TSNode splat{};  // `*args` before any positional argument
  std::vector<TSNode> given;  // each argument's value, as site.args holds them
  if (kind(args) == Kind::ArgumentList) {
    each_argument(args, site, [&](TSNode a, Kind ak) {
      given.push_back(ak == Kind::KeywordArg ? child(a, m_g.f_value) : a);
      if (ak == Kind::KeywordArg) {
        auto name = text(child(a, m_g.f_name));
        // `detail=`: the text of Starlette's and FastAPI's HTTPException and
        // Django REST framework's APIException.
        if (ts_node_is_null(keyword_msg) && (name == "message" || name == "msg" || name == "detail"))
          keyword_msg = child(a, m_g.f_value);
      } else if (ak == Kind::ListSplat) {
        if (ts_node_is_null(first) && ts_node_is_null(splat)) splat = a;
      } else if (ts_node_is_null(first) && ak != Kind::DictSplat) {
        first = a;
      }
    });
  } else if (!ts_node_is_null(args)) {
    site.args.push_back(expr_text(text(args)));
    first = args;
  }
  read_argument_messages(site, given, at);
  if (!ts_node_is_null(splat) && ts_node_is_null(keyword_msg)) {
    // `raise ValueError(*args)`: whatever the arguments hold is the
    // message (Python prints one as it is, several as their tuple), not
    // no message at all.
    std::string_view spread = text(splat);
    while (!spread.empty() && spread.front() == '*') spread.remove_prefix(1);
    site.message = {};
    site.message.parts.push_back(interp(expr_text(spread)));
    // `def assert_(cond, *args): ... raise AssertionError(*args)`: what
    // callers pass in place of `*args`.
    if (kind(first_named(splat)) == Kind::Identifier) add_caller_messages(site, spread, true);
    return;
  }
  TSNode msg = ts_node_is_null(first) ? keyword_msg : first;
  TSNode name = unwrap_parens(msg);
  if (kind(name) != Kind::Identifier) {
    message_with_choices(site, msg, at);
    concat_variants(site, name, at);
    // `msg % (value, options)` of a parameter: each text callers pass.
    if (TSNode format = formatted_name(name); !ts_node_is_null(format) && reaching(text(format), at).empty())
      add_caller_messages(site, text(format), false, nullptr, name, at);
    return;
  }
  // A message variable: the latest reaching assignment is the message
  // (each of its texts when it holds a choice), the others are variants
  // (each of theirs too: voluptuous's `msg = self.msg or ('expected %s' %
  // name)` reaching past an `if` that appends to it); a parameter's come
  // from the callers.
  auto found = reaching(text(name), at);
  if (found.empty() || !take_choices(site, each_choice([&] { return build_reaching(found.back(), 0); })))
    site.message = message_from(msg, at);
  if (found.empty()) {
    // `def check(value, msg='bad value'): … raise ValueError(msg)`: the
    // text a call leaving the parameter out shows, then the callers'.
    if (std::optional<MessageTemplate> fallback = parameter_default_text(text(name), at)) push_alternative(site, std::move(*fallback));
    add_caller_messages(site, text(name));
  }
  for (std::size_t i = 0; i + 1 < found.size(); ++i)
    for (MessageTemplate& t : each_choice([&] { return build_reaching(found[i], 1); })) {
      t.from_literals = true;
      push_alternative(site, std::move(t));
    }
}

void FileScanner::concat_variants(ThrowSite& site, TSNode expr, std::uint32_t at) {
  if (kind(expr) != Kind::BinaryOp || text(child(expr, m_g.f_operator)) != "+") return;
  std::string_view variable;
  for (TSNode cur = expr; kind(cur) == Kind::BinaryOp && text(child(cur, m_g.f_operator)) == "+";
       cur = child(cur, m_g.f_left)) {
    for (TSNode side : {child(cur, m_g.f_right), child(cur, m_g.f_left)}) {
      TSNode bare = unwrap_parens(side);
      if (kind(bare) != Kind::Identifier) continue;
      if (!variable.empty() && variable != text(bare)) return;  // two variables: left as they are
      variable = text(bare);
    }
  }
  if (variable.empty()) return;
  auto found = reaching(variable, at);
  if (found.size() < 2 || found.size() > 8) return;
  for (std::size_t i = found.size(); i-- > 0;) {
    std::pair<std::string_view, std::size_t> pick{variable, i};
    m_concat_pick = &pick;
    auto t = build(expr, at, 0, true);
    m_concat_pick = nullptr;
    if (!t) continue;
    t->from_literals = true;
    if (i + 1 == found.size())
      site.message = std::move(*t);
    else
      push_alternative(site, std::move(*t));
  }
}

void FileScanner::resolve_raised_name(ThrowSite& site, TSNode name, std::uint32_t at) {
  auto found = reaching(text(name), at);
  bool first = true;
  for (std::size_t i = found.size(); i-- > 0;) {
    TSNode rhs = unwrap_parens(found[i].rhs);
    if (!constructs_class(rhs) || !found[i].appends.empty()) continue;
    if (first) {
      // The latest reaching construction is the one shown.
      read_exception_call(rhs, site, found[i].at);
      first = false;
    } else {
      ThrowSite other;
      read_exception_call(rhs, other, found[i].at);
      push_alternative(site, std::move(other.message));
    }
  }
}

}  // namespace errdex::scan::python::detail
