// A message template built from an expression: string literals and
// f-strings, `+`, `%`, `.format(...)` and `"sep".join(...)`.
#include "scan/python/file_scanner.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scan/python/text.h"

namespace errdex::scan::python::detail {

// Recursion over expressions (parenthesised `+` operands, a message variable
// whose value is itself built) stops here; deeper input becomes opaque.
constexpr int k_max_depth = 200;

std::string expr_text(std::string_view t) {
  if (t.find_first_of("\n\r") == std::string_view::npos) return std::string(t);
  return python::collapse_ws(t);
}

bool all_literal(const std::vector<TemplatePart>& parts) {
  return std::all_of(parts.begin(), parts.end(), [](const TemplatePart& p) { return p.literal; });
}

TemplatePart filled_with(const TemplatePart& p, std::string arg) {
  std::string display = p.display.empty() || p.display.rfind(p.text, 0) != 0 ? std::string() : arg + p.display.substr(p.text.size());
  return interp(std::move(arg), std::move(display), p.printf_conv);
}

bool shows_as_digits(const TemplatePart& p, std::string_view arg) {
  if (!arg.empty() && arg.front() == '-') arg.remove_prefix(1);
  if (arg.empty() || arg.size() > 18 || !std::all_of(arg.begin(), arg.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  const char conv = p.printf_conv;
  return (p.display.empty() || p.display == p.text) && (conv == 0 || conv == 'd' || conv == 'i' || conv == 'u' || conv == 's' || conv == 'r');
}

bool any_literal(const std::vector<TemplatePart>& parts) {
  return std::any_of(parts.begin(), parts.end(), [](const TemplatePart& p) { return p.literal && !p.text.empty(); });
}

std::string joined_literal(const std::vector<TemplatePart>& parts) {
  std::string s;
  for (const auto& p : parts) s += p.text;
  return s;
}

MessageTemplate FileScanner::expression_message(TSNode expr) const {
  MessageTemplate t;
  if (ts_node_is_null(expr)) return t;
  t.style = "expression";
  t.parts.push_back(interp(expr_text(text(expr))));
  t.from_literals = false;
  return t;
}

MessageTemplate FileScanner::message_from(TSNode expr, std::uint32_t site_byte) {
  if (ts_node_is_null(expr)) return {};
  if (auto built = build(expr, site_byte, 0, true)) {
    built->from_literals = true;
    return std::move(*built);
  }
  return expression_message(expr);
}

std::vector<MessageTemplate> FileScanner::each_choice(const std::function<std::optional<MessageTemplate>()>& build_once) {
  // Every combination of the choices' options, a few builds at most (a
  // message with no choice is built once). The options of a choice are
  // counted as a build meets it: another option may hold other choices.
  constexpr int k_max_builds = 16;
  Choices choices;
  Choices* const saved = m_choices;
  m_choices = &choices;
  std::vector<MessageTemplate> built;
  for (int round = 0; round < k_max_builds; ++round) {
    choices.met = 0;
    if (auto t = build_once()) built.push_back(std::move(*t));
    // The next combination: the last choice met with an option left
    // takes it, the choices after it start over.
    choices.pick.resize(choices.met);
    choices.options.resize(choices.met);
    std::size_t i = choices.met;
    while (i > 0 && choices.pick[i - 1] + 1 >= choices.options[i - 1]) --i;
    if (i == 0) break;
    ++choices.pick[i - 1];
    std::fill(choices.pick.begin() + static_cast<std::ptrdiff_t>(i), choices.pick.end(), std::uint8_t{0});
  }
  m_choices = saved;
  return built;
}

TSNode FileScanner::chosen(TSNode n) {
  if (m_choices == nullptr) return n;
  constexpr std::size_t k_max_options = 16;
  TSNode options[k_max_options];
  std::size_t count = 0;
  std::string_view type = ts_node_type(n);
  auto add = [&](TSNode option) {
    if (count < k_max_options) options[count] = option;
    ++count;
  };
  if (type == "conditional_expression") {
    // `a if c else b`: the value, then the other.
    std::uint32_t k = 0;
    for (std::uint32_t i = 0, all = named_count(n); i < all; ++i) {
      TSNode part = ts_node_named_child(n, i);
      if (kind(part) == Kind::Comment) continue;
      if (k == 0 || k == 2) add(part);
      ++k;
    }
    if (k != 3) return n;
  } else if (type == "boolean_operator" && text(child(n, m_g.f_operator)) == "or") {
    // `self.msg or "value is not allowed"`: the value given, else the
    // text. A value that builds no text is no option, as a conditional's
    // parameter is not: what a caller gives is not known here.
    add(child(n, m_g.f_left));
    add(child(n, m_g.f_right));
  } else if (type == "subscript" && named_count(n) == 2) {
    // `{OPENED: "…", CLOSED: "…"}[state]`: one of the table's values.
    TSNode table = unwrap_parens(ts_node_named_child(n, 0));
    if (std::string_view(ts_node_type(table)) != "dictionary") return n;
    for (std::uint32_t i = 0, all = named_count(table); i < all; ++i) {
      TSNode pair = ts_node_named_child(table, i);
      if (kind(pair) == Kind::Comment) continue;
      if (std::string_view(ts_node_type(pair)) != "pair") return n;  // `**more`
      add(child(pair, m_g.f_value));
    }
  } else {
    return n;
  }
  if (count < 2 || count > k_max_options) return n;
  return options[choice_of(count)];
}

std::size_t FileScanner::choice_of(std::size_t count) {
  if (m_choices == nullptr || count < 2) return 0;
  const std::size_t at = m_choices->met++;
  if (at >= m_choices->pick.size()) {
    m_choices->pick.push_back(0);
    m_choices->options.push_back(static_cast<std::uint8_t>(count));
  } else {
    m_choices->options[at] = static_cast<std::uint8_t>(count);
  }
  return std::min<std::size_t>(m_choices->pick[at], count - 1);
}

bool FileScanner::take_choices(ThrowSite& site, std::vector<MessageTemplate> built) {
  if (built.empty()) return false;
  for (MessageTemplate& t : built) t.from_literals = true;
  site.message = std::move(built.front());
  for (std::size_t k = 1; k < built.size(); ++k) push_alternative(site, std::move(built[k]));
  return true;
}

void FileScanner::message_with_choices(ThrowSite& site, TSNode expr, std::uint32_t site_byte) {
  if (ts_node_is_null(expr) || !take_choices(site, each_choice([&] { return build(expr, site_byte, 0, true); })))
    site.message = expression_message(expr);
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
  n = unwrap_gettext(n);
  if (m_choices != nullptr) {
    TSNode bare = unwrap_parens(n);
    if (TSNode picked = chosen(bare); !ts_node_eq(picked, bare)) return build(picked, site_byte, depth + 1, allow_var);
  }
  switch (kind(n)) {
    case Kind::String:
    case Kind::ConcatString: {
      MessageTemplate t;
      bool is_f = false;
      if (!literal_parts(n, t.parts, is_f)) return std::nullopt;
      t.style = is_f ? "fstring" : "string";
      if (is_f) inline_conditional_locals(t.parts, site_byte);
      return t;
    }
    case Kind::BinaryOp: {
      auto op = text(child(n, m_g.f_operator));
      if (op == "+") return build_concat(n, site_byte, depth);
      if (op == "%") return build_percent(n, site_byte, depth, allow_var);
      return std::nullopt;
    }
    case Kind::Call: {
      if (auto t = build_join(n, site_byte, depth, allow_var)) return t;
      // `E_REDIS_SENTINEL_MISSING.strip()`: the text, trimmed.
      char trim = 0;
      if (TSNode inner = stripped_object(n, trim); !ts_node_is_null(inner)) {
        auto t = build(inner, site_byte, depth + 1, allow_var);
        if (t) strip_ends(t->parts, trim);
        return t;
      }
      if (auto t = build_format(n, site_byte, depth, allow_var)) return t;
      // `filldedent("""\n    text""")`, `textwrap.dedent(...)`: the text
      // laid out anew, read as its words.
      char layout = 0;
      if (TSNode inner = relaid_text(n, layout); !ts_node_is_null(inner)) {
        auto t = build(inner, site_byte, depth + 1, allow_var);
        if (t) relay(t->parts, layout);
        return t;
      }
      return build_text_helper(n, site_byte, depth);
    }
    case Kind::Identifier:
      if (!allow_var) return std::nullopt;
      return build_variable(text(n), site_byte, depth);
    default: {
      if (TSNode entry = table_entry(n); !ts_node_is_null(entry)) return build(entry, site_byte, depth + 1, allow_var);
      if (TSNode value = class_attribute(n); !ts_node_is_null(value)) return build(value, site_byte, depth + 1, allow_var);
      // `(msg % args)[:256]`: a cut that keeps any message of ordinary
      // length whole reads as the message.
      if (std::string_view(ts_node_type(n)) != "subscript" || named_count(n) != 2) return std::nullopt;
      TSNode cut = ts_node_named_child(n, 1);
      if (std::string_view(ts_node_type(cut)) != "slice" || named_count(cut) != 1) return std::nullopt;
      std::string_view whole = text(cut);
      TSNode stop = ts_node_named_child(cut, 0);
      if (whole.empty() || whole.front() != ':' || std::string_view(ts_node_type(stop)) != "integer") return std::nullopt;
      std::string_view digits = text(stop);
      if (digits.size() < 2 || digits.size() > 6 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
          std::stoi(std::string(digits)) < 64)
        return std::nullopt;
      return build(ts_node_named_child(n, 0), site_byte, depth + 1, allow_var);
    }
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
    TSNode bare = unwrap_parens(op);
    if (kind(bare) != Kind::Identifier) {
      sub = build(op, site_byte, depth + 1, false);
    } else {
      // `msg + f': {node!r}'` where `msg = "malformed node"` on the way
      // to it: a variable assigned text once, on every path to the site,
      // reads as that text. One assigned on some paths only (a parameter
      // replaced in a branch), or anything but text, stays a value.
      auto found = reaching(text(bare), site_byte);
      const Reaching* pick = nullptr;
      if (m_concat_pick && m_concat_pick->first == text(bare)) {
        if (m_concat_pick->second < found.size()) pick = &found[m_concat_pick->second];
      } else if (found.size() == 1 && start_byte(found[0].block) <= site_byte && site_byte < end_byte(found[0].block)) {
        pick = &found[0];
      }
      if (pick) {
        sub = build_reaching(*pick, depth + 1);
        if (sub && !any_literal(sub->parts)) sub.reset();
      }
    }
    if (sub) {
      any_string = true;
      append_parts(t.parts, std::move(sub->parts));
    } else {
      t.parts.push_back(interp(expr_text(text(op))));
    }
  }
  if (!any_string) return std::nullopt;
  inline_conditional_locals(t.parts, site_byte);
  return t;
}

// `X.strip()`, `X.lstrip()`, `X.rstrip()` without arguments: X, with the
// ends to trim in `trim` ('b' both, 'l', 'r'); else null.
TSNode FileScanner::stripped_object(TSNode call, char& trim) const {
  TSNode fn = child(call, m_g.f_function);
  TSNode args = child(call, m_g.f_arguments);
  if (kind(fn) != Kind::Attribute || kind(args) != Kind::ArgumentList || named_count(args) != 0) return {};
  std::string_view method = text(child(fn, m_g.f_attribute));
  trim = method == "strip" ? 'b' : method == "lstrip" ? 'l' : method == "rstrip" ? 'r' : 0;
  return trim ? child(fn, m_g.f_object) : TSNode{};
}

TSNode FileScanner::relaid_text(TSNode call, char& layout) const {
  TSNode fn = child(call, m_g.f_function);
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList || named_count(args) == 0) return {};
  std::string_view name = text(fn);
  if (auto dot = name.rfind('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
  layout = name == "dedent" || name == "cleandoc" ? 'd' : name == "fill" || name == "filldedent" ? 'f' : 0;
  if (!layout) return {};
  // The text and keywords only (`fill(text, width=70)`): `fill(a, b)` of
  // another library is no layout of text.
  for (std::uint32_t i = 1, count = named_count(args); i < count; ++i)
    if (Kind k = kind(ts_node_named_child(args, i)); k != Kind::KeywordArg && k != Kind::Comment) return {};
  TSNode first = ts_node_named_child(args, 0);
  return kind(first) == Kind::KeywordArg ? TSNode{} : first;
}

namespace {
// Python's whitespace off `t`'s ends (`trim` as stripped_object says).
void strip_text(std::string& t, char trim) {
  constexpr std::string_view k_space = " \t\n\r\x0b\x0c";
  if (trim == 'b' || trim == 'r') {
    const std::size_t last = t.find_last_not_of(k_space);
    t.erase(last == std::string::npos ? 0 : last + 1);
  }
  if (trim == 'b' || trim == 'l') t.erase(0, std::min(t.size(), t.find_first_not_of(k_space)));
}
}  // namespace

// Python's whitespace off the literal ends of a message (`trim` as
// stripped_object says); an interpolation at an end stops it.
void strip_ends(std::vector<TemplatePart>& parts, char trim) {
  if ((trim == 'b' || trim == 'l') && !parts.empty() && parts.front().literal) {
    strip_text(parts.front().text, 'l');
    if (parts.front().text.empty()) parts.erase(parts.begin());
  }
  if ((trim == 'b' || trim == 'r') && !parts.empty() && parts.back().literal) {
    strip_text(parts.back().text, 'r');
    if (parts.back().text.empty()) parts.pop_back();
  }
}

void relay(std::vector<TemplatePart>& parts, char layout) {
  constexpr std::string_view k_blank = " \t\r\x0b\x0c";
  if (layout == 'f') {
    // Wrapped anew: every run of whitespace, line breaks too, is one
    // space where the width puts no break; the matcher finds a text broken
    // elsewhere by its words.
    for (TemplatePart& p : parts) {
      if (!p.literal) continue;
      std::string out;
      for (char c : p.text) {
        const bool space = c == '\n' || k_blank.find(c) != std::string_view::npos;
        if (!space)
          out += c;
        else if (out.empty() || out.back() != ' ')
          out += ' ';
      }
      p.text = std::move(out);
    }
  } else {
    // Dedented: the indentation all its lines share (blank lines and those
    // an interpolation starts aside) comes off each line.
    std::size_t common = std::string_view::npos;
    for (const TemplatePart& p : parts) {
      if (!p.literal) continue;
      for (std::size_t at = p.text.find('\n'); at != std::string::npos; at = p.text.find('\n', at + 1)) {
        const std::size_t text_at = p.text.find_first_not_of(k_blank, at + 1);
        if (text_at == std::string::npos || p.text[text_at] == '\n') continue;
        common = std::min(common, text_at - at - 1);
      }
    }
    if (common != std::string_view::npos && common > 0)
      for (TemplatePart& p : parts) {
        if (!p.literal) continue;
        for (std::size_t at = p.text.find('\n'); at != std::string::npos; at = p.text.find('\n', at + 1)) {
          const std::size_t end = p.text.find_first_not_of(k_blank, at + 1);
          p.text.erase(at + 1, std::min(common, (end == std::string::npos ? p.text.size() : end) - at - 1));
        }
      }
  }
  strip_ends(parts, 'b');
}

std::optional<std::string> FileScanner::format_string(TSNode n, std::uint32_t site_byte, int depth, bool allow_var) {
  n = unwrap_gettext(n);
  if (m_choices != nullptr) {
    // `("unknown flag {}" if c else "missing flag {}").format(x)`
    TSNode bare = unwrap_parens(n);
    if (TSNode picked = chosen(bare); !ts_node_eq(picked, bare)) n = unwrap_gettext(unwrap_parens(picked));
  }
  // `ERR_ENVVAR_NOT_SET.strip().format(name)` (celery): a triple-quoted
  // constant without its blank first and last lines.
  char trim = 0;
  if (TSNode inner = kind(n) == Kind::Call ? stripped_object(n, trim) : TSNode{}; !ts_node_is_null(inner)) {
    if (depth > k_max_depth) return std::nullopt;
    auto text_of = format_string(inner, site_byte, depth + 1, allow_var);
    if (text_of) strip_text(*text_of, trim);
    return text_of;
  }
  if (TSNode entry = table_entry(n); !ts_node_is_null(entry)) n = unwrap_gettext(entry);
  if (TSNode value = class_attribute(n); !ts_node_is_null(value)) n = unwrap_gettext(value);
  std::vector<TemplatePart> parts;
  if (kind(n) == Kind::Identifier && !ts_node_is_null(m_given_format.second) && text(n) == m_given_format.first) {
    // A caller's text for the parameter (add_caller_messages).
    bool is_f = false;
    if (!literal_parts(m_given_format.second, parts, is_f)) return std::nullopt;
  } else if (kind(n) == Kind::Identifier) {
    if (!allow_var) return std::nullopt;
    auto var = build_variable(text(n), site_byte, depth + 1);
    // A parameter nothing assigns: the text it defaults to.
    if (!var && reaching(text(n), site_byte).empty()) var = parameter_default_text(text(n), site_byte);
    if (!var) return std::nullopt;
    parts = std::move(var->parts);
  } else if (TSNode bare = unwrap_parens(n); kind(bare) == Kind::BinaryOp) {
    // `(_ERR_MSG + '; {!r} is not a package').format(...)`: text added up.
    if (text(child(bare, m_g.f_operator)) != "+") return std::nullopt;
    auto sum = build_concat(bare, site_byte, depth + 1);
    if (!sum) return std::nullopt;
    parts = std::move(sum->parts);
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
  inline_conditional_locals(t.parts, site_byte);
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
    TSNode given{};
    bool numeric = !p.arg.empty() && p.arg.size() < 9 &&
                   std::all_of(p.arg.begin(), p.arg.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (p.arg.empty() || numeric) {
      std::size_t idx = p.arg.empty() ? auto_index++ : static_cast<std::size_t>(std::stoul(p.arg));
      if (idx < positional.size()) given = positional[idx];
      base = idx < positional.size() ? expr_text(text(positional[idx])) : std::to_string(idx);
    } else {
      auto it = keyword.find(p.arg);
      if (it != keyword.end()) given = it->second;
      base = it != keyword.end() ? expr_text(text(it->second)) : p.arg;
    }
    // Text given as it is shown (`package="colorama"`, `who=who + " with
    // colors"`): its words, not the expression, where nothing converts it.
    if (TSNode bare = unwrap_parens(given);
        p.rest.empty() && p.conversion.empty() && p.spec.empty() &&
        (kind(bare) == Kind::String || kind(bare) == Kind::ConcatString ||
         (kind(bare) == Kind::BinaryOp && text(child(bare, m_g.f_operator)) == "+"))) {
      if (auto shown = build(bare, site_byte, depth + 1, false); shown && any_literal(shown->parts)) {
        append_parts(t.parts, std::move(shown->parts));
        continue;
      }
    }
    std::string value = base + p.rest;
    std::string display = value;
    if (!p.conversion.empty()) display += "!" + p.conversion;
    if (!p.spec.empty()) display += ":" + p.spec;
    char pc = p.conversion.empty() ? python::spec_conversion(p.spec) : 0;
    t.parts.push_back(interp(std::move(value), std::move(display), pc));
  }
  inline_conditional_locals(t.parts, site_byte);
  return t;
}

// `"".join(parts)`, `", ".join(["a", repr(x)])`: the items with the
// separator between them. The list is a literal, or a variable as the
// latest assignment reaching the join leaves it (`configparser` builds
// `DuplicateOptionError`'s message so, appending under `if`s: each
// addition on the way is taken).
std::optional<MessageTemplate> FileScanner::build_join(TSNode call, std::uint32_t site_byte, int depth, bool allow_var) {
  if (depth > k_max_depth) return std::nullopt;
  TSNode fn = child(call, m_g.f_function);
  if (kind(fn) != Kind::Attribute || text(child(fn, m_g.f_attribute)) != "join") return std::nullopt;
  std::vector<TemplatePart> sep;
  bool is_f = false;
  TSNode sep_node = child(fn, m_g.f_object);
  if (kind(sep_node) != Kind::String || !literal_parts(sep_node, sep, is_f) || !all_literal(sep)) return std::nullopt;
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList || named_count(args) != 1) return std::nullopt;
  TSNode list = unwrap_parens(ts_node_named_child(args, 0));
  std::vector<std::vector<TemplatePart>> items;
  if (!list_items(list, site_byte, depth + 1, allow_var, items) || items.empty()) return std::nullopt;
  MessageTemplate t;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) append_parts(t.parts, sep);
    append_parts(t.parts, std::move(items[i]));
  }
  if (!any_literal(t.parts)) return std::nullopt;
  t.style = kind(list) == Kind::Identifier ? "variable" : "join";
  return t;
}

// The items of list `n` at `site_byte`: a list literal's, or a list
// variable's (its latest reaching assignment, then what is appended,
// extended and inserted at 0 on the way). False when they cannot be read.
bool FileScanner::list_items(TSNode n, std::uint32_t site_byte, int depth, bool allow_var,
                             std::vector<std::vector<TemplatePart>>& items) {
  if (depth > k_max_depth) return false;
  n = unwrap_parens(n);
  if (std::string_view(ts_node_type(n)) == "list") {
    std::uint32_t count = named_count(n);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode item = ts_node_named_child(n, i);
      Kind k = kind(item);
      if (k == Kind::Comment) continue;
      if (k == Kind::ListSplat) return false;
      items.push_back(item_parts(item, site_byte, depth + 1));
    }
    return true;
  }
  if (kind(n) != Kind::Identifier || !allow_var || m_variable_hops >= k_max_variable_hops) return false;
  auto found = reaching(text(n), site_byte);
  if (found.empty()) return false;
  const Reaching& r = found.back();
  ++m_variable_hops;
  bool ok = list_items(r.rhs, r.at, depth + 1, true, items);
  for (std::size_t k = 0; ok && k < r.appends.size(); ++k) {
    const Added& a = r.appends[k];
    if (a.how == 'a') {
      items.push_back(item_parts(a.value, a.at, depth + 1));
    } else if (a.how == 'p') {
      items.insert(items.begin(), item_parts(a.value, a.at, depth + 1));
    } else {
      ok = list_items(a.value, a.at, depth + 1, true, items);  // `extend(x)`, `+= x`
    }
  }
  --m_variable_hops;
  return ok;
}

// One item of a joined list as text: `repr(x)` as `{x!r}`, `str(x)` as
// `{x}`, a message expression as built, anything else as an interpolation.
std::vector<TemplatePart> FileScanner::item_parts(TSNode item, std::uint32_t site_byte, int depth) {
  item = unwrap_cast(item);
  std::vector<TemplatePart> parts;
  if (kind(item) == Kind::Call) {
    std::string_view callee = text(child(item, m_g.f_function));
    TSNode args = child(item, m_g.f_arguments);
    if ((callee == "repr" || callee == "str") && kind(args) == Kind::ArgumentList && named_count(args) == 1) {
      std::string e = expr_text(text(ts_node_named_child(args, 0)));
      parts.push_back(callee == "repr" ? interp(e, e + "!r") : interp(e));
      return parts;
    }
  }
  if (auto t = build(item, site_byte, depth + 1, false)) return std::move(t->parts);
  parts.push_back(interp(expr_text(text(item))));
  return parts;
}

// Messages kept in a table by key: `MESSAGES["bad"]` of a module-level
// `MESSAGES = {...}` assigned once, and `self.error_messages["invalid"]`
// in a method, from the class's `error_messages = {...}` or
// `default_error_messages = {...}` (the instance's table merged from the
// classes', as Django's and marshmallow's fields build it), the nearest
// class up its bases in this file that has the key. The entry's value
// node, or null.
TSNode FileScanner::table_entry(TSNode n) {
  n = unwrap_parens(n);
  if (std::string_view(ts_node_type(n)) != "subscript" || named_count(n) != 2) return TSNode{};
  TSNode key_node = unwrap_parens(ts_node_named_child(n, 1));
  TSNode start_class{};  // the class whose table is read first
  if (kind(key_node) == Kind::Identifier && !ts_node_is_null(m_helper_call.fn)) {
    // The helper's parameter: what the call being read passes for it.
    int position = -1;
    if (!parameter_position(m_helper_call.fn, text(key_node), position)) return TSNode{};
    key_node = unwrap_parens(argument_for(m_helper_call.call, position < 0 ? -1 : position - (m_helper_call.method ? 1 : 0),
                                          text(key_node)));
    start_class = m_helper_call.caller_class;
  }
  if (kind(key_node) != Kind::String) return TSNode{};
  std::vector<TemplatePart> key_parts;
  bool is_f = false;
  if (!literal_parts(key_node, key_parts, is_f) || is_f || !all_literal(key_parts)) return TSNode{};
  const std::string key = joined_literal(key_parts);
  auto entry_of = [&](TSNode dict) {
    dict = unwrap_parens(dict);
    if (kind(dict) == Kind::Call) {
      // `MappingProxyType({...})`, `dict({...})`: the same table, read-only
      // or copied.
      const std::string_view fn = text(child(dict, m_g.f_function));
      TSNode args = child(dict, m_g.f_arguments);
      if ((fn == "dict" || fn == "MappingProxyType" || fn == "types.MappingProxyType") && named_count(args) == 1)
        dict = unwrap_parens(ts_node_named_child(args, 0));
    }
    if (kind(dict) != Kind::Dictionary) return TSNode{};
    const std::uint32_t count = named_count(dict);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode p = ts_node_named_child(dict, i);
      if (kind(p) != Kind::Pair) continue;
      std::vector<TemplatePart> k;
      bool kf = false;
      if (literal_parts(child(p, m_g.f_key), k, kf) && !kf && all_literal(k) && joined_literal(k) == key)
        return child(p, m_g.f_value);
    }
    return TSNode{};
  };
  TSNode table = unwrap_parens(ts_node_named_child(n, 0));
  if (kind(table) == Kind::Identifier) {
    // Assigned once, in the function or else in the module.
    const std::string_view name = text(table);
    TSNode scope = scope_node();
    const std::vector<Assign>* local = ts_node_is_null(scope) || ts_node_eq(scope, m_root) ? nullptr : assignments(scope, name);
    if (!local && top_level_assignments_blanked(name)) return TSNode{};
    const std::vector<Assign>* once = local ? local : assignments(m_root, name);
    if (!once || once->size() != 1 || once->front().how != '=') return TSNode{};
    return entry_of(once->front().rhs);
  }
  if (kind(table) != Kind::Attribute) return TSNode{};
  const std::string_view object = text(child(table, m_g.f_object));
  if (object != "self" && object != "cls") return TSNode{};
  const std::string attribute(text(child(table, m_g.f_attribute)));
  const std::string names[] = {attribute, "default_" + attribute};
  depends_on(attribute);  // both names hold it
  bool searched = false;
  TSNode cls = ts_node_is_null(start_class) ? enclosing_class(n) : start_class;
  for (int hops = 0; hops < 8 && !ts_node_is_null(cls); ++hops, cls = base_in_file(cls))
    for (const std::string& table_name : names)
      if (TSNode table_value = assigned_in_class_body(cls, table_name); !ts_node_is_null(table_value)) {
        searched = true;
        if (TSNode v = entry_of(table_value); !ts_node_is_null(v)) return v;
      }
  // The outline may have blanked the class bodies' tables: read again
  // keeping them (peewee's `_error_messages`, not only a `default_` one).
  if (!searched && !m_original.empty())
    for (const std::string& table_name : names)
      if (m_original.find(table_name + " =") != std::string_view::npos &&
          std::find(m_facts.blanked.begin(), m_facts.blanked.end(), table_name) == m_facts.blanked.end())
        m_facts.blanked.push_back(table_name);
  return TSNode{};
}

TSNode FileScanner::enclosing_class(TSNode n) const {
  while (!ts_node_is_null(n) && kind(n) != Kind::ClassDef) n = ts_node_parent(n);
  return n;
}

TSNode FileScanner::base_in_file(TSNode cls) {
  TSNode bases = child(cls, m_g.f_superclasses);
  for (std::uint32_t i = 0; i < named_count(bases); ++i) {
    TSNode b = ts_node_named_child(bases, i);
    if (kind(b) != Kind::Identifier) continue;
    TSNode base = class_named(text(b));
    if (!ts_node_is_null(base) && !ts_node_eq(base, cls)) return base;
  }
  return TSNode{};
}

TSNode FileScanner::assigned_in_class_body(TSNode cls, std::string_view name) const {
  TSNode body = child(cls, m_g.f_body);
  const std::uint32_t count = named_count(body);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode st = ts_node_named_child(body, i);
    if (kind(st) != Kind::ExprStatement) continue;
    TSNode assign = first_named(st);
    if (kind(assign) == Kind::Assignment && text(child(assign, m_g.f_left)) == name) return child(assign, m_g.f_right);
  }
  return TSNode{};
}

// `self.fmt`, `cls.message`, `Cls.MESSAGE`: the text a class attribute
// holds, from the class named, or the class whose instance this is (the
// one class_display describes, else the method's own), up its bases in the
// file: botocore's
// `DataNotFoundError.fmt = 'Unable to load data for: {data_path}'`, which
// its base's `__init__` formats. Null unless the value is text and no code
// of the file sets the attribute on an instance (`self.fmt = …`).
TSNode FileScanner::class_attribute(TSNode n) {
  TSNode found = class_attribute_value(n);
  const Kind k = kind(found);
  return k == Kind::String || k == Kind::ConcatString ? found : TSNode{};
}

TSNode FileScanner::class_attribute_value(TSNode n) {
  n = unwrap_parens(n);
  if (kind(n) != Kind::Attribute) return TSNode{};
  const std::string_view object = text(child(n, m_g.f_object));
  // `MultiDBClient._UNSUPPORTED`: the class named, one of this file's.
  TSNode named{};
  if (object != "self" && object != "cls") {
    const std::size_t letter = object.find_first_not_of('_');
    if (kind(child(n, m_g.f_object)) != Kind::Identifier || letter == std::string_view::npos ||
        !std::isupper(static_cast<unsigned char>(object[letter])))
      return TSNode{};
    named = class_named(object);
    if (ts_node_is_null(named)) return TSNode{};
  }
  const std::string_view attribute = text(child(n, m_g.f_attribute));
  const std::string set = "self." + std::string(attribute);
  depends_on(attribute);
  auto sets_on_instance = [&](TSNode cls) {
    const std::string_view body = text(cls);
    for (std::size_t at = body.find(set); at != std::string_view::npos; at = body.find(set, at + 1)) {
      std::size_t after = at + set.size();
      while (after < body.size() && body[after] == ' ') ++after;
      if (after >= body.size() || (body[after] != '=' && body[after] != '+' && body[after] != ':')) continue;
      if (after + 1 < body.size() && body[after] == '=' && body[after + 1] == '=') continue;
      return true;
    }
    return false;
  };
  // Methods the outline blanked may set it: read again keeping them.
  // Counted once per attribute and file (every `self.x` message asks).
  if (!m_original.empty()) {
    auto [it, added] = m_blanked_words.emplace(set, false);
    if (added) {
      auto count = [&](std::string_view source) {
        std::size_t c = 0;
        for (std::size_t at = source.find(set); at != std::string_view::npos; at = source.find(set, at + 1)) ++c;
        return c;
      };
      it->second = count(m_original) != count(m_src);
      if (it->second && std::find(m_facts.blanked.begin(), m_facts.blanked.end(), attribute) == m_facts.blanked.end())
        m_facts.blanked.emplace_back(attribute);
    }
    if (it->second) return TSNode{};
  }
  TSNode found{};
  TSNode cls = !ts_node_is_null(named)        ? named
               : m_display_class.empty() ? enclosing_class(n)
                                         : class_named(m_display_class);
  std::vector<TSNode> visited;
  for (int hops = 0; hops < 8 && !ts_node_is_null(cls); ++hops, cls = base_in_file(cls)) {
    visited.push_back(cls);
    if (sets_on_instance(cls)) return TSNode{};
    if (!ts_node_is_null(found)) continue;
    found = assigned_in_class_body(cls, attribute);
    // `message: str = 'oops'` in a dataclass, attrs or pydantic class is
    // a field's default, which the constructor replaces.
    if (!ts_node_is_null(found) && !ts_node_is_null(ts_node_child_by_field_name(ts_node_parent(found), "type", 4)))
      return TSNode{};
    found = unwrap_gettext(found);
  }
  // The outline blanks a class body's statements (`MessageStateError =
  // MessageStateError`, `fmt = '…'`): read again keeping them, when the
  // file assigns the name at the indent of one of these classes' bodies,
  // below its header (the outline keeps lines where they were).
  if (ts_node_is_null(found) && !m_original.empty() &&
      std::find(m_facts.blanked.begin(), m_facts.blanked.end(), attribute) == m_facts.blanked.end()) {
    const std::string_view source = m_original;
    for (std::size_t at = source.find(attribute); at != std::string_view::npos; at = source.find(attribute, at + 1)) {
      std::size_t start = at;
      while (start > 0 && (source[start - 1] == ' ' || source[start - 1] == '\t')) --start;
      if (start == at || (start > 0 && source[start - 1] != '\n')) continue;  // indented, first on its line
      std::size_t after = at + attribute.size();
      while (after < source.size() && source[after] == ' ') ++after;
      if (after + 1 >= source.size() || source[after] != '=' || source[after + 1] == '=') continue;
      const auto row = static_cast<std::uint32_t>(std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
      const bool in_body = std::any_of(visited.begin(), visited.end(), [&](TSNode c) {
        TSNode body = child(c, m_g.f_body);
        return ts_node_start_point(c).row < row && ts_node_start_point(body).column == at - start;
      });
      if (!in_body) continue;
      m_facts.blanked.emplace_back(attribute);
      break;
    }
  }
  return found;
}

}  // namespace errdex::scan::python::detail
