#include "scan/facts_json.h"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <tuple>

#include "scan_version.h"  // generated: ERRDEX_SCAN_VERSION
#include "util/json_text.h"

namespace errdex::scan {
namespace {

using nlohmann::json;

// Facts written as JSON text directly: the same bytes nlohmann's dump()
// gives of the same values as arrays (no spaces, UTF-8 kept, control
// characters as \u00XX), without building its tree first. A scan of many
// revisions writes the facts of every changed file; building the tree took
// most of that time.
class Writer {
 public:
  std::string out;

  void value(bool b) { out += b ? "true" : "false"; }
  void value(int n) { out += std::to_string(n); }
  void value(char c) { value(std::string_view(&c, 1)); }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(std::string_view s) {
    if (!util::append_json_string(out, s)) throw std::invalid_argument("file facts hold text that is not UTF-8");
  }
  template <class A, class B>
  void value(const std::pair<A, B>& p) {
    list(p.first, p.second);
  }
  template <class... T>
  void value(const std::tuple<T...>& t) {
    std::apply([&](const auto&... x) { list(x...); }, t);
  }
  template <class T>
  void value(const std::vector<T>& v) {
    util::append_json_array(out, v, [&](const auto& item) { value(item); });
  }
  void value(const model::TemplatePart& p) { list(p.literal, p.text, p.display, p.printf_conv); }
  void value(const model::MessageTemplate& t) { list(t.style, t.parts, t.from_literals); }
  // Off: a site's and its guards' line numbers are written as 0.
  bool site_lines = true;
  void value(const model::Guard& g) { list(g.kind, g.condition, g.names, site_lines ? g.line : 0); }
  void value(const model::ThrowSite& s) {
    list(s.kind, s.error_class, s.reraise, s.message, s.alternatives, s.raised_text, s.args, s.cause,
         site_lines ? s.line : 0, site_lines ? s.end_line : 0, s.guards, s.function, s.function_params, s.decorators,
         s.function_doc, site_lines ? s.function_line : 0, s.class_name, s.class_bases, s.class_doc, s.message_param,
         s.message_param_position, s.arg_messages, s.message_forwarders);
  }
  void value(const model::ClassParam& p) { list(p.name, p.keyword_only, p.default_text, p.defaults_to_none, p.texts); }
  void value(const model::ClassDef& c) { list(c.name, c.bases, c.line, c.display, c.params, c.code, c.names_itself, c.own_methods, c.factory); }
  void value(const model::TestExpectation& e) {
    list(e.kind, e.classes, e.match, e.test, e.line, e.code, e.calls, e.constructions, e.instance_steps, e.locals);
  }
  void value(const model::FunctionCalls& fn) {
    list(fn.name, fn.calls, fn.qualname, fn.line, fn.nested, fn.targets, fn.assigned, fn.property, fn.attribute,
         fn.returns, fn.bindings, fn.params, fn.statement_calls, fn.is_async);
  }
  void value(const model::StatementCall& c) { list(c.callee, c.args, c.line, c.top); }
  void value(const model::ImportFact& m) { list(m.module, m.name, m.alias, m.level); }
  void value(const model::MessageCall& c) { list(c.callee, c.position, c.keyword, c.text, c.message); }
  void value(const model::Binding& b) { list(b.name, b.line, b.kind, b.value, b.top, b.loop, b.when, b.when_line); }
  void value(const model::ClassBases& c) { list(c.qualname, c.bases); }
  void value(const model::Docstring& d) { list(d.kind, d.name, d.line, d.text); }

  // A JSON array of the values.
  template <class... T>
  void list(const T&... items) {
    out += '[';
    bool first = true;
    ((out += first ? "" : ",", first = false, value(items)), ...);
    out += ']';
  }
};

model::MessageTemplate template_from(const json& j) {
  model::MessageTemplate t;
  t.style = j.at(0).get<std::string>();
  for (const auto& p : j.at(1)) {
    model::TemplatePart part;
    part.literal = p.at(0).get<bool>();
    part.text = p.at(1).get<std::string>();
    part.display = p.at(2).get<std::string>();
    part.printf_conv = p.at(3).get<std::string>().at(0);
    t.parts.push_back(std::move(part));
  }
  t.from_literals = j.at(2).get<bool>();
  return t;
}

std::vector<model::MessageTemplate> templates_from(const json& j) {
  std::vector<model::MessageTemplate> out;
  for (const auto& t : j) out.push_back(template_from(t));
  return out;
}

std::vector<model::Binding> bindings_from(const json& j) {
  std::vector<model::Binding> out;
  for (const auto& b : j)
    out.push_back({b.at(0).get<std::string>(), b.at(1).get<int>(), b.at(2).get<std::string>(),
                   b.at(3).get<std::string>(), b.at(4).get<bool>(), b.at(5).get<int>(), b.at(6).get<std::string>(),
                   b.at(7).get<int>()});
  return out;
}

}  // namespace

std::string_view scanner_version() { return ERRDEX_SCAN_VERSION; }

std::string facts_to_json(const model::FileFacts& f) {
  Writer w;
  w.list(f.sites, f.classes, f.had_syntax_errors, f.blanked, f.expectations, f.functions,
         std::tie(f.imports, f.class_bases, f.assigned, f.has_exports, f.exports, f.module_bindings, f.message_calls),
         f.docstrings);
  return std::move(w.out);
}

std::string site_to_json(const model::ThrowSite& site, bool lines) {
  Writer w;
  w.site_lines = lines;
  w.value(site);
  return std::move(w.out);
}

Expected<model::FileFacts> facts_from_json(std::string_view text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_array() || j.size() != 8) return Error{"not file facts"};
  try {
    model::FileFacts f;
    for (const auto& s : j.at(0)) {
      model::ThrowSite t;
      t.kind = s.at(0).get<std::string>();
      t.error_class = s.at(1).get<std::string>();
      t.reraise = s.at(2).get<bool>();
      t.message = template_from(s.at(3));
      t.alternatives = templates_from(s.at(4));
      t.raised_text = s.at(5).get<std::string>();
      t.args = s.at(6).get<std::vector<std::string>>();
      t.cause = s.at(7).get<std::string>();
      t.line = s.at(8).get<int>();
      t.end_line = s.at(9).get<int>();
      for (const auto& g : s.at(10))
        t.guards.push_back({g.at(0).get<std::string>(), g.at(1).get<std::string>(),
                            g.at(2).get<std::vector<std::string>>(), g.at(3).get<int>()});
      t.function = s.at(11).get<std::string>();
      t.function_params = s.at(12).get<std::string>();
      t.decorators = s.at(13).get<std::vector<std::string>>();
      t.function_doc = s.at(14).get<std::string>();
      t.function_line = s.at(15).get<int>();
      t.class_name = s.at(16).get<std::string>();
      t.class_bases = s.at(17).get<std::string>();
      t.class_doc = s.at(18).get<std::string>();
      if (s.size() > 20) {
        t.message_param = s.at(19).get<std::string>();
        t.message_param_position = s.at(20).get<int>();
      }
      if (s.size() > 21) t.arg_messages = templates_from(s.at(21));
      if (s.size() > 22) t.message_forwarders = s.at(22).get<std::vector<std::string>>();
      f.sites.push_back(std::move(t));
    }
    for (const auto& c : j.at(1)) {
      model::ClassDef d;
      d.name = c.at(0).get<std::string>();
      d.bases = c.at(1).get<std::vector<std::string>>();
      d.line = c.at(2).get<int>();
      d.display = templates_from(c.at(3));
      for (const auto& p : c.at(4))
        d.params.push_back({p.at(0).get<std::string>(), p.at(1).get<bool>(), p.at(2).get<std::string>(),
                            p.size() > 3 && p.at(3).get<bool>(),
                            p.size() > 4 ? p.at(4).get<std::vector<std::pair<std::string, std::string>>>()
                                         : std::vector<std::pair<std::string, std::string>>{}});
      if (c.size() > 5) d.code = c.at(5).get<std::string>();
      if (c.size() > 6) d.names_itself = c.at(6).get<bool>();
      if (c.size() > 7) d.own_methods = c.at(7).get<bool>();
      if (c.size() > 8) d.factory = c.at(8).get<bool>();
      f.classes.push_back(std::move(d));
    }
    f.had_syntax_errors = j.at(2).get<bool>();
    f.blanked = j.at(3).get<std::vector<std::string>>();
    for (const auto& e : j.at(4)) {
      model::TestExpectation t;
      t.kind = e.at(0).get<std::string>();
      t.classes = e.at(1).get<std::vector<std::string>>();
      t.match = e.at(2).get<std::string>();
      t.test = e.at(3).get<std::string>();
      t.line = e.at(4).get<int>();
      t.code = e.at(5).get<std::string>();
      t.calls = e.at(6).get<std::vector<std::string>>();
      if (e.size() > 7) t.constructions = e.at(7).get<std::vector<std::string>>();
      if (e.size() > 8) t.instance_steps = e.at(8).get<std::vector<std::vector<std::string>>>();
      if (e.size() > 9) t.locals = e.at(9).get<std::vector<std::pair<std::string, std::string>>>();
      f.expectations.push_back(std::move(t));
    }
    using Pairs = std::vector<std::pair<std::string, std::string>>;
    for (const auto& fn : j.at(5)) {
      f.functions.push_back({fn.at(0).get<std::string>(), fn.at(1).get<std::vector<std::string>>(),
                             fn.at(2).get<std::string>(), fn.at(3).get<int>(), fn.at(4).get<bool>(),
                             fn.at(5).get<std::vector<std::string>>(), fn.at(6).get<Pairs>(), std::string(),
                             std::string(), std::string(), {}, std::string(), {}, false});
      if (fn.size() > 7) f.functions.back().property = fn.at(7).get<std::string>();
      if (fn.size() > 9) {
        f.functions.back().attribute = fn.at(8).get<std::string>();
        f.functions.back().returns = fn.at(9).get<std::string>();
      }
      if (fn.size() > 10) f.functions.back().bindings = bindings_from(fn.at(10));
      if (fn.size() > 11) f.functions.back().params = fn.at(11).get<std::string>();
      if (fn.size() > 12)
        for (const auto& c : fn.at(12))
          f.functions.back().statement_calls.push_back(
              {c.at(0).get<std::string>(), c.at(1).get<std::string>(), c.at(2).get<int>(), c.at(3).get<bool>()});
      if (fn.size() > 13) f.functions.back().is_async = fn.at(13).get<bool>();
    }
    const auto& module = j.at(6);
    for (const auto& m : module.at(0))
      f.imports.push_back(
          {m.at(0).get<std::string>(), m.at(1).get<std::string>(), m.at(2).get<std::string>(), m.at(3).get<int>()});
    for (const auto& c : module.at(1))
      f.class_bases.push_back({c.at(0).get<std::string>(), c.at(1).get<std::vector<std::string>>()});
    f.assigned = module.at(2).get<Pairs>();
    f.has_exports = module.at(3).get<bool>();
    f.exports = module.at(4).get<std::vector<std::string>>();
    if (module.size() > 5) f.module_bindings = bindings_from(module.at(5));
    if (module.size() > 6)
      for (const auto& c : module.at(6))
        f.message_calls.push_back({c.at(0).get<std::string>(), c.at(1).get<int>(), c.at(2).get<std::string>(),
                                   c.at(3).get<std::string>(),
                                   c.size() > 4 ? template_from(c.at(4)) : model::MessageTemplate{}});
    for (const auto& d : j.at(7))
      f.docstrings.push_back({d.at(0).get<std::string>(), d.at(1).get<std::string>(), d.at(2).get<int>(),
                              d.at(3).get<std::string>()});
    return f;
  } catch (const json::exception& e) {
    return Error{std::string("not file facts: ") + e.what()};
  }
}

}  // namespace errdex::scan
