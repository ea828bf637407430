// Each expectation's calls rewritten to the names they stand for
// (scan_python_tests): the receivers typed (receiver_typer.h), an
// expectation in a helper copied for each test calling it with its
// arguments, and the test's locals read with their values (test_locals.h).
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scan/python/frontend.h"
#include "scan/python/outline.h"
#include "scan/python/receiver_typer.h"
#include "scan/python/test_file_bindings.h"
#include "scan/python/test_locals.h"
#include "scan/python/text.h"

namespace errdex::scan {
namespace {

using python::awaited_calls;
using python::CallSite;
using python::dotted_prefix;
using python::is_dotted;
using python::k_awaited;
using python::k_max_calls;
using python::local_values;
using python::read_bindings;
using python::ReceiverTyper;
using python::split_args;
using python::steps_on;
using python::TestFileBindings;
using python::trim;
using python::Value;

// The tests named for one expectation in a helper they call.
constexpr std::size_t k_max_callers = 3;
// The `code` of a test calling a helper: its statement, cut after this
// many lines.
constexpr int k_max_code_lines = 5;

// An attribute access as expectations.cc writes it (`obj.size.__get__`).
bool is_access(std::string_view call) {
  return call.ends_with(".__get__") || call.ends_with(".__set__") || call.ends_with(".__delete__");
}

bool is_test_name(std::string_view key) {
  auto dot = key.rfind('.');
  return key.substr(dot == std::string_view::npos ? 0 : dot + 1).starts_with("test");
}

// A test that calls a helper, and where.
struct Caller {
  std::string test;
  const CallSite* site = nullptr;
};

// The tests of the file that call helper `key` (the first few, each at its
// first call): those of its class or of a subclass, or any test for a
// module-level helper.
std::vector<Caller> callers_of(const TestFileBindings& b, const ReceiverTyper& typer, const std::string& key) {
  std::vector<Caller> out;
  if (!b.params.contains(key)) return out;
  const std::string cls = ReceiverTyper::class_of(key);
  const std::string name = key.substr(cls.empty() ? 0 : cls.size() + 1);
  for (const auto& test : b.functions) {
    if (out.size() >= k_max_callers) break;
    if (!is_test_name(test) || (!cls.empty() && !typer.derives(ReceiverTyper::class_of(test), cls))) continue;
    auto calls = b.calls.find(test);
    if (calls == b.calls.end()) continue;
    for (const CallSite& cs : calls->second)
      if (cs.callee == name && typer.helper(name, test) == key) {
        out.push_back({test, &cs});
        break;
      }
  }
  return out;
}

// The caller's argument for parameter `index` of `params` (positional, or
// by keyword), `self.` dropped: nullopt when it gives none, "" when it is
// no dotted name.
std::optional<std::string> argument(const CallSite& cs, const std::vector<std::string>& params, std::size_t index) {
  std::size_t positional = 0;
  std::vector<std::string_view> args;
  split_args(cs.statement, cs.open, args);
  for (std::string_view a : args) {
    std::string_view name = dotted_prefix(a);
    std::string_view rest = trim(a.substr(name.size()));
    const bool keyword = !name.empty() && name.find('.') == std::string_view::npos && rest.starts_with('=') &&
                         !rest.starts_with("==");
    if (a.starts_with('*')) return std::nullopt;  // `*args`: positions unknown from here
    std::string_view value;
    if (keyword && name == params[index]) value = trim(rest.substr(1));
    else if (!keyword && positional++ == index) value = a;
    else continue;
    if (value.starts_with("self.")) value.remove_prefix(5);
    return is_dotted(value) ? std::string(value) : std::string();
  }
  return std::nullopt;
}

// The caller's statement, its first lines, continuation lines dedented by
// the statement's column.
std::string statement_code(const CallSite& cs) {
  return python::statement_lines(cs.statement, cs.indent, k_max_code_lines);
}

}  // namespace

void type_test_calls(const PythonLines& lines, model::FileFacts& facts) {
  if (facts.expectations.empty()) return;
  TestFileBindings b = read_bindings(lines);
  ReceiverTyper typer(b);
  // Each call with the function whose names it is read in.
  auto type = [&](model::TestExpectation& e, const std::vector<std::pair<std::string, std::string>>& scoped) {
    std::vector<std::string> calls;
    std::vector<std::string> vias;
    std::vector<std::string> constructions;
    std::vector<std::vector<std::string>> steps;
    for (const auto& [written, scope] : scoped) {
      const bool awaited = written.ends_with(k_awaited);
      const std::string c = awaited ? written.substr(0, written.size() - k_awaited.size()) : written;
      // An attribute access (`obj.size.__get__`, expectations.cc) runs a
      // property's accessor only on an instance: a receiver bound to a
      // call's result. On anything else it names nothing.
      const bool access = is_access(c);
      std::vector<Value> typed;
      for (auto& v : typer.rewrite(c, scope))
        if (!access || v.kind == Value::call)
          for (auto& t : typer.through_test_class(v)) typed.push_back(std::move(t));
      if (typed.empty() && access) continue;
      if (typed.empty()) typed = typer.through_test_class({Value::alias, c, ""});
      for (auto& t : typed) {
        // A call's result (`r = make_thing(); r.m()`): `make_thing().m`, so
        // the call graph may follow what the function returns.
        if (t.call_end < t.text.size()) {
          // With the arguments the test gave it, for what it set the
          // instance's attributes to (`Wrapper('x', width=3)`).
          if (t.args && !awaited && constructions.size() < k_max_calls) {
            std::string made = t.text.substr(0, t.call_end) + '(' + *t.args + ')';
            // And what the test did to it before its expectation, when it
            // is this test's own local.
            std::vector<std::string> done{"?"};
            const std::string head = c.substr(0, c.find('.'));
            if (auto l = b.locals.find(scope); l != b.locals.end())
              if (auto v = l->second.find(head); v != l->second.end() && v->second.line == t.line && v->second.args == t.args)
                done = steps_on(b, scope, head, t.line, e.line);
            bool seen = false;
            for (std::size_t k = 0; k < constructions.size(); ++k) seen = seen || (constructions[k] == made && steps[k] == done);
            if (!seen) {
              constructions.push_back(std::move(made));
              steps.push_back(std::move(done));
            }
          }
          t.text.insert(t.call_end, "()");
        }
        if (awaited) t.text += k_awaited;
        if (!t.via.empty() && std::find(vias.begin(), vias.end(), t.via) == vias.end()) vias.push_back(t.via);
        if (calls.size() < k_max_calls && std::find(calls.begin(), calls.end(), t.text) == calls.end())
          calls.push_back(std::move(t.text));
      }
    }
    e.calls = std::move(calls);
    e.constructions = std::move(constructions);
    e.instance_steps = std::move(steps);
    // A mixin's test typed by one subclass's attribute runs as that
    // subclass's: named so, as a test runner names it.
    if (vias.size() == 1 && vias[0] != "*") {
      auto dot = e.test.rfind('.');
      if (dot != std::string::npos) e.test = vias[0] + e.test.substr(dot);
    }
  };
  std::vector<model::TestExpectation> out;
  for (auto& e : facts.expectations) {
    std::vector<std::pair<std::string, std::string>> scoped;
    for (const auto& c : e.calls) scoped.emplace_back(c, e.test);
    auto callers = is_test_name(e.test) ? std::vector<Caller>{} : callers_of(b, typer, e.test);
    if (callers.empty()) {
      for (auto& c : awaited_calls(b, e)) scoped.emplace_back(std::move(c), e.test);
      e.locals = local_values(b, e);
      type(e, scoped);
      out.push_back(std::move(e));
      continue;
    }
    // An expectation in a helper (`assertCoerceRaises(self, A, B)`) runs
    // with what each test calling it passes: one per caller, named by it,
    // the helper's parameters replaced by the caller's arguments.
    const auto& params = b.params.at(e.test);
    for (const Caller& c : callers) {
      model::TestExpectation copy = e;
      copy.test = c.test;
      copy.line = c.site->line;
      copy.code = statement_code(*c.site);
      auto arg = [&](std::string_view name) -> std::optional<std::string> {
        auto p = std::find(params.begin(), params.end(), name);
        if (p == params.end()) return std::nullopt;
        return argument(*c.site, params, static_cast<std::size_t>(p - params.begin()));
      };
      // Whether the caller's arguments say what is expected or run: else
      // its tests differ only by data the helper passes on, and without a
      // regex every caller would name the same site.
      bool substituted = false, access_substituted = false;
      copy.classes.clear();
      for (const auto& k : e.classes)
        if (auto a = arg(k)) {
          if (!a->empty()) copy.classes.push_back(*a);
          substituted = true;
        } else {
          copy.classes.push_back(k);
        }
      std::vector<std::pair<std::string, std::string>> typed_in;
      for (const auto& call : e.calls) {
        std::string head = call.substr(0, call.find('.'));
        if (auto a = arg(head)) {
          if (!a->empty()) typed_in.emplace_back(*a + call.substr(head.size()), c.test);
          (is_access(call) ? access_substituted : substituted) = true;
        } else {
          typed_in.emplace_back(call, e.test);
        }
      }
      if (copy.classes.empty() || typed_in.empty() || (!substituted && !access_substituted && e.match.empty()))
        continue;
      copy.locals = local_values(b, copy);
      type(copy, typed_in);
      // An access of a parameter says what runs only when it is typed.
      if (!substituted && e.match.empty() && std::none_of(copy.calls.begin(), copy.calls.end(), is_access)) continue;
      out.push_back(std::move(copy));
    }
  }
  facts.expectations = std::move(out);
  // A module loaded by name is bound as `import decimal as decimal`
  // would bind it: the alias marks it loaded by name (call_graph.h).
  std::sort(b.modules.begin(), b.modules.end());
  b.modules.erase(std::unique(b.modules.begin(), b.modules.end()), b.modules.end());
  for (const auto& m : b.modules) facts.imports.push_back({m, "", m, 0});
}

}  // namespace errdex::scan
