// names_at and instance_state (test_bindings.h).
#include "analyze/test_bindings.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>

#include "analyze/call_text.h"

namespace errdex::analyze::detail {

namespace {

// Runs the bindings of a function's body on `env` one by one, in order
// (names_at, run_bindings): a plain `name = value` of the body itself
// evaluated, one in the block of an `if` of the body itself taken or
// skipped when the `if`'s condition is decided on `env` at its line, any
// other binding making the name unknown.
class BodyRun {
 public:
  explicit BodyRun(Bindings& env) : m_env(env) {}

  void run(const model::Binding& b) {
    const bool branch = !b.top && b.when_line > 0 && !b.loop;
    if (branch && b.when_line != m_if_line) {
      m_if_line = b.when_line;
      m_verdict = evaluate_condition(b.when, m_env);
    }
    // Not run: the name keeps what it held.
    if (branch && m_verdict == false) return;
    if (b.kind == "assign" && (b.top || (branch && m_verdict == true)))
      if (auto v = evaluate_value(b.value, m_env)) {
        m_env.insert_or_assign(b.name, std::move(*v));
        return;
      }
    m_env.erase(b.name);
  }

 private:
  Bindings& m_env;
  // The `if` last decided, once per `if`: at its line, before its block.
  int m_if_line = 0;
  std::optional<bool> m_verdict;
};

}  // namespace

// test_bindings.h says what it reads.
Bindings names_at(int line, const model::FunctionCalls& fn, const Bindings& params, const Bindings& constants) {
  Bindings env = constants;
  // A name the function binds anywhere is its local throughout.
  for (const auto& b : fn.bindings) env.erase(b.name);
  for (const auto& [name, value] : params) env.insert_or_assign(name, value);
  BodyRun body(env);
  for (const auto& b : fn.bindings) {
    if (b.line >= line) {
      // In a loop that starts above the site, which the site may be in.
      if (b.loop && b.loop < line) env.erase(b.name);
      continue;
    }
    body.run(b);
  }
  return env;
}

namespace {

// The constructor call that made the instance a test calls a method on:
// its argument text, and what the test did to the instance before its
// expectation (TestExpectation::instance_steps; a last "?" when unknown).
struct Construction {
  std::string args;
  std::vector<std::string> steps;
  bool operator==(const Construction&) const = default;
};

// The one for class `cls` (its last name) and `method`: the call the
// scanner found the test's local bound to (TestExpectation::constructions),
// or a call the code makes on it at once (`Wrapper('x').wrap(...)`, with
// no steps). Empty when there is none, or two that differ.
std::optional<Construction> construction_of(const model::TestExpectation& e, std::string_view cls,
                                            std::string_view method) {
  std::optional<Construction> out;
  bool differ = false;
  auto take = [&](Construction c) {
    if (out && !(*out == c)) differ = true;
    out = std::move(c);
  };
  for (std::size_t k = 0; k < e.constructions.size(); ++k) {
    const std::string& c = e.constructions[k];
    auto open = c.find('(');
    if (open == std::string::npos || !c.ends_with(')') ||
        last_component(std::string_view(c).substr(0, open)) != cls)
      continue;
    // Facts written before steps were read: nothing known of them.
    take({c.substr(open + 1, c.size() - open - 2),
          k < e.instance_steps.size() ? e.instance_steps[k] : std::vector<std::string>{"?"}});
  }
  if (auto calls = call_argument_lists(e.code, cls))
    for (auto& args : *calls)
      if (e.code.find(std::string(cls) + '(' + args + ")." + std::string(method)) != std::string::npos)
        take({std::move(args), {}});
  if (differ) return std::nullopt;
  return out;
}

// Runs the plain statements of `fn`'s body on `env` (what the instance
// and the module hold) with `params` bound, in order, as names_at does
// (BodyRun; `self.x = value` too); a local it binds anywhere is its own
// throughout.
void run_bindings(const model::FunctionCalls& fn, Bindings& env, Bindings params) {
  for (const auto& b : fn.bindings)
    if (b.name.find('.') == std::string::npos) env.erase(b.name);
  for (auto& [name, value] : params) env.insert_or_assign(name, std::move(value));
  BodyRun body(env);
  for (const auto& b : fn.bindings) body.run(b);
}

// The methods of one class in its file, by name (its own, not nested).
std::unordered_map<std::string_view, const model::FunctionCalls*> methods_of(const model::FileFacts& file,
                                                                            const std::string& prefix) {
  std::unordered_map<std::string_view, const model::FunctionCalls*> out;
  for (const auto& fn : file.functions)
    if (fn.qualname.starts_with(prefix) && fn.qualname.find('.', prefix.size()) == std::string::npos && !fn.nested)
      out.emplace(fn.name, &fn);
  return out;
}

}  // namespace

// test_bindings.h says what it holds and what it leaves out.
Bindings instance_state(const model::TestExpectation& e, const model::ThrowSite& site, std::string_view path,
                        const BindingFacts& facts, const Bindings& constants) {
  Bindings out;
  if (site.class_name.empty() || site.function.empty() || site.function == "__init__") return out;
  const model::FileFacts* file = facts.module(path);
  if (!file) return out;
  const std::string prefix = site.class_name + ".";
  const auto methods = methods_of(*file, prefix);
  if (methods.contains("__new__") || methods.contains("__setattr__") || methods.contains("__getattribute__"))
    return out;
  auto init_it = methods.find("__init__");
  const model::FunctionCalls* init = init_it == methods.end() ? nullptr : init_it->second;
  if (!init || init->params.empty() || (!init->bindings.empty() && init->bindings.back().name == "*")) return out;
  for (const auto& t : init->targets)
    if (t.ends_with("__init__") || t == "setattr") return out;
  auto made = construction_of(e, last_component(site.class_name), site.function);
  if (!made) return out;
  auto bound = bind_call(init->params, made->args, true);
  if (!bound) return out;
  Bindings env = constants;
  run_bindings(*init, env, std::move(*bound));
  for (auto& [name, value] : env)
    if (name.starts_with("self.")) out.emplace(name, std::move(value));
  for (const auto& [name, fn] : methods)
    for (const auto& t : fn->targets)
      if (t == "setattr") return {};

  const bool steps_known = made->steps.empty() || made->steps.back() != "?";
  // The methods of the class that may have run besides `__init__` and the
  // steps' own bodies.
  std::unordered_set<const model::FunctionCalls*> may_run;
  std::vector<const model::FunctionCalls*> pending;
  auto runs = [&](const model::FunctionCalls* fn) {
    if (fn && fn != init && may_run.insert(fn).second) pending.push_back(fn);
  };
  auto runs_callees = [&](const model::FunctionCalls& fn) {
    for (const auto& t : fn.targets)
      if (t.starts_with("self.") && t.find('.', 5) == std::string::npos)
        if (auto m = methods.find(std::string_view(t).substr(5)); m != methods.end()) runs(m->second);
  };
  for (const auto& [name, fn] : methods)
    if (!fn->property.empty() || (name.starts_with("__") && name != "__init__")) runs(fn);
  runs_callees(*init);
  if (auto m = methods.find(site.function); m != methods.end()) {
    runs(m->second);
    runs_callees(*m->second);
  }
  for (const auto& c : e.calls)
    if (auto m = methods.find(last_component(c)); m != methods.end()) runs(m->second);
  if (steps_known) {
    for (const std::string& step : made->steps) {
      const auto open = step.find('(');
      const auto equals = step.find(" = ");
      if (open != std::string::npos && (equals == std::string::npos || open < equals)) {
        auto m = methods.find(std::string_view(step).substr(0, open));
        if (m == methods.end() || (!m->second->bindings.empty() && m->second->bindings.back().name == "*")) return {};
        const model::FunctionCalls& fn = *m->second;
        Bindings run = constants;
        for (const auto& [name, value] : out) run.insert_or_assign(name, value);
        auto args = bind_call(fn.params, std::string_view(step).substr(open + 1, step.size() - open - 2), true);
        run_bindings(fn, run, args ? std::move(*args) : Bindings());
        for (const auto& b : fn.bindings)
          if (b.name.starts_with("self.")) {
            if (auto v = run.find(b.name); v != run.end()) out.insert_or_assign(b.name, v->second);
            else out.erase(b.name);
          }
        runs_callees(fn);
        continue;
      }
      if (equals == std::string::npos) return {};
      const std::string attr = step.substr(0, equals);
      // An accessor runs for it, with effects of its own.
      bool accessor = false;
      for (const auto& [name, fn] : methods)
        if (name == attr || fn->attribute == attr) {
          runs(fn);
          accessor = true;
        }
      auto v = accessor ? std::nullopt : evaluate_value(std::string_view(step).substr(equals + 3), Bindings());
      if (v) out.insert_or_assign("self." + attr, std::move(*v));
      else out.erase("self." + attr);
    }
    while (!pending.empty()) {
      const model::FunctionCalls* fn = pending.back();
      pending.pop_back();
      runs_callees(*fn);
    }
  }
  for (const auto& fn : file->functions) {
    if (&fn == init) continue;
    const bool in_class = fn.qualname.starts_with(prefix);
    if (!steps_known || !in_class || fn.nested || may_run.contains(&fn))
      for (const auto& b : fn.bindings) out.erase(b.name);
    if (in_class) {
      out.erase("self." + fn.name);
      if (!fn.attribute.empty()) out.erase("self." + fn.attribute);
    }
  }
  return out;
}

}  // namespace errdex::analyze::detail
