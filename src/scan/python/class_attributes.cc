// What `self.x` holds in a class's instances: the texts its body and its
// bases' bodies set, less what `__init__` sets otherwise, and what
// `__init__` keeps of its parameters (the parameter, or else a text);
// filled into the messages of the class's own raises (fill_class_texts).
#include "scan/python/file_scanner.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "scan/python/text.h"

namespace errdex::scan::python::detail {

void FileScanner::read_class_attributes(const std::vector<std::string_view>& chain, ClassDisplay& d) {
  for (std::string_view name : chain) {
    TSNode body = child(class_named(name), m_g.f_body);
    for (std::uint32_t i = 0, count = named_count(body); i < count; ++i) {
      TSNode statement = ts_node_named_child(body, i);
      if (kind(statement) != Kind::ExprStatement) continue;
      TSNode assign = first_named(statement);
      if (kind(assign) != Kind::Assignment) continue;
      TSNode left = child(assign, m_g.f_left), value = unwrap_gettext(child(assign, m_g.f_right));
      const Kind vk = kind(value);
      if (kind(left) != Kind::Identifier || (vk != Kind::String && vk != Kind::ConcatString)) continue;
      d.attributes.try_emplace("self." + std::string(text(left)), value);
    }
  }
}

void FileScanner::read_init_assignments(TSNode init_fn, ClassDisplay& d) {
  // What `__init__` keeps: `self.msg = msg` makes `self.msg` the argument
  // given for `msg`.
  if (ts_node_is_null(init_fn)) return;
  walk(child(init_fn, m_g.f_body), [&](TSNode node, std::uint32_t depth, TSTreeCursor*) {
    Kind k = kind(node);
    if (depth > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda)) return false;
    if (k == Kind::Assignment) {
      TSNode left = child(node, m_g.f_left), right = child(node, m_g.f_right);
      int position = -1;
      const bool to_self = kind(left) == Kind::Attribute && text(child(left, m_g.f_object)) == "self";
      const bool kept = to_self && kind(right) == Kind::Identifier && parameter_position(init_fn, text(right), position);
      if (kept) d.kept.emplace(std::string(text(left)), std::string(text(right)));
      // `self.message = message or self.message`, `self.detail = detail if
      // detail is not None else self.description`: the parameter when
      // given, else the class's own text, as under an `if` below.
      std::string_view param;
      TSNode fallback = to_self ? parameter_or_default(right, init_fn, param) : TSNode{};
      // wtforms' `self.invalid_value_message = invalid_value_message or
      // self.gettext("Not a valid choice.")`: that text likewise.
      TSNode own{};
      if (!ts_node_is_null(fallback)) {
        if (auto a = d.attributes.find(python::collapse_ws(text(fallback))); a != d.attributes.end()) own = a->second;
        else if (const Kind fk = kind(unwrap_gettext(fallback)); fk == Kind::String || fk == Kind::ConcatString)
          own = unwrap_gettext(fallback);
      }
      const bool or_own = !ts_node_is_null(own);
      if (or_own) {
        d.kept.emplace(std::string(text(left)), std::string(param));
        d.attributes.insert_or_assign(std::string(text(left)), own);
        d.given_or_text.emplace(text(left));
      }
      // The class's own `x` is what the instance holds only where `__init__`
      // sets `self.x` to nothing else, or to a parameter under an `if`
      // (werkzeug: `if description is not None: self.description = description`).
      if (to_self && !or_own && !(kept && under_if(node, child(init_fn, m_g.f_body)))) d.attributes.erase(std::string(text(left)));
      return false;
    }
    return k != Kind::String;
  });
}

TSNode FileScanner::parameter_or_default(TSNode value, TSNode init_fn, std::string_view& param) const {
  if (ts_node_is_null(value)) return TSNode{};  // `self.x: int`
  value = unwrap_parens(value);
  auto is_param = [&](TSNode n) {
    int position = -1;
    return kind(n) == Kind::Identifier && parameter_position(init_fn, text(n), position) && position > 0;
  };
  const std::string_view type = ts_node_type(value);
  if (type == "boolean_operator" && text(child(value, m_g.f_operator)) == "or") {
    TSNode left = unwrap_parens(child(value, m_g.f_left));
    if (!is_param(left)) return TSNode{};
    param = text(left);
    return child(value, m_g.f_right);
  }
  if (type != "conditional_expression" || named_count(value) != 3) return TSNode{};
  // `p if p else x`, `p if p is not None else x`; `x if p is None else p`,
  // `x if not p else p`.
  TSNode a = unwrap_parens(ts_node_named_child(value, 0)), condition = ts_node_named_child(value, 1),
         b = unwrap_parens(ts_node_named_child(value, 2));
  const std::string c = python::collapse_ws(text(condition));
  if (is_param(a) && (c == text(a) || c == std::string(text(a)) + " is not None")) {
    param = text(a);
    return b;
  }
  if (is_param(b) && (c == "not " + std::string(text(b)) || c == std::string(text(b)) + " is None")) {
    param = text(b);
    return a;
  }
  return TSNode{};
}

void FileScanner::fill_class_texts() {
  auto is_attribute = [](const TemplatePart& p) {
    return !p.literal && p.text.starts_with("self.") && p.text.find_first_of(".[(", 5) == std::string::npos &&
           (p.display.empty() || p.display == p.text) && (p.printf_conv == 0 || p.printf_conv == 's');
  };
  // What `self.x` holds in a class's instances (its body's and its bases'
  // texts, less what `__init__` sets otherwise), read once per class: a
  // class raises from many methods.
  std::unordered_map<std::string_view, ClassDisplay> held;
  auto held_by = [&](std::string_view owner) -> const ClassDisplay& {
    auto [it, added] = held.try_emplace(owner);
    if (!added) return it->second;
    std::vector<std::string_view> chain;
    TSNode init_fn{};
    for (std::string_view name = owner; chain.size() < 4 && !name.empty();) {
      TSNode cls = class_named(name);
      if (ts_node_is_null(cls)) break;
      chain.push_back(name);
      if (ts_node_is_null(init_fn)) init_fn = init_of(cls);
      name = first_base(cls);
    }
    // The outline may have blanked the `__init__` that sets what `self.x`
    // holds: keep it next time.
    if (ts_node_is_null(init_fn) && !m_original.empty() && m_original.size() != m_src.size() &&
        std::find(m_facts.blanked.begin(), m_facts.blanked.end(), "__init__") == m_facts.blanked.end() &&
        std::any_of(chain.begin(), chain.end(), [&](std::string_view c) { return defines_methods(c); }))
      m_facts.blanked.emplace_back("__init__");
    read_class_attributes(chain, it->second);
    read_init_assignments(init_fn, it->second);
    return it->second;
  };
  // The classes whose instance `self` may be in a method of a class: that
  // class first, then the classes here derived from it.
  std::unordered_map<std::string_view, std::vector<std::string_view>> owners_of;
  auto owners = [&](std::string_view cls) -> const std::vector<std::string_view>& {
    auto [it, added] = owners_of.try_emplace(cls);
    if (!added) return it->second;
    it->second.push_back(cls);
    for (const model::ClassDef& c : m_facts.classes)
      if (c.name != cls && derives_from(c.name, cls)) it->second.push_back(c.name);
    return it->second;
  };
  for (ThrowSite& site : m_facts.sites) {
    if (site.class_name.empty() || std::none_of(site.message.parts.begin(), site.message.parts.end(), is_attribute)) continue;
    std::vector<MessageTemplate> texts;
    auto tested = [&](const std::string& name) {
      return std::any_of(site.guards.begin(), site.guards.end(), [&](const model::Guard& g) {
        return std::find(g.names.begin(), g.names.end(), name) != g.names.end();
      });
    };
    bool own_class_sets = false;  // the method's own class (or a base) sets it
    for (std::string_view owner : owners(site.class_name)) {
      const ClassDisplay& d = held_by(owner);
      MessageTemplate t = site.message;
      t.parts.clear();
      bool filled = false, given_or_text = false;
      for (const TemplatePart& p : site.message.parts) {
        auto a = is_attribute(p) ? d.attributes.find(p.text) : d.attributes.end();
        // Not a fallback the guards test (logging's `if not
        // self.validation_pattern.search(self._fmt)`): the guard is what
        // tells it apart from the text.
        if (a != d.attributes.end() && d.given_or_text.contains(p.text) && tested(p.text)) a = d.attributes.end();
        std::optional<std::string> own = a == d.attributes.end() ? std::nullopt : plain_text(a->second);
        if (own) append_literal(t.parts, *own);
        else t.parts.push_back(p);
        filled = filled || own.has_value();
        given_or_text = given_or_text || (own && d.given_or_text.contains(p.text));
      }
      // A text `__init__` falls back on when not given (logging's `self._fmt
      // = fmt or self.default_format`, which `validate()` raises on when it
      // was given a bad one) is a variant, not the message.
      own_class_sets = own_class_sets || (filled && !given_or_text && owner == site.class_name);
      if (filled) texts.push_back(std::move(t));
    }
    if (texts.empty()) continue;
    // `raise ValidationError(self.message)` in RegexValidator: its class's
    // `message = _('Enter a valid value.')` is the message, a subclass's
    // (`URLValidator`'s) an alternative. Where only subclasses set it
    // (minidom's `Childless`, each node class its `nodeName`), each is an
    // alternative and the message stays as written.
    if (own_class_sets) std::swap(site.message, texts.front());
    for (std::size_t k = 0; k < texts.size(); ++k) push_alternative(site, std::move(texts[k]));
  }
}

}  // namespace errdex::scan::python::detail
