#include "scan/python/receiver_typer.h"

#include <algorithm>

namespace errdex::scan::python {
namespace {

// Bindings followed from one name (an alias of an alias ...).
constexpr int k_max_depth = 6;

// Helpers of the test file followed into helpers they call.
constexpr int k_max_helper_depth = 2;

}  // namespace

ReceiverTyper::ReceiverTyper(const TestFileBindings& b) : m_b(b) {
  for (const auto& [q, c] : b.classes)
    for (const auto& base : c.bases) m_subclasses[base].push_back(q);
}

std::vector<Value> ReceiverTyper::rewrite(const std::string& call, const std::string& test, int depth) const {
  if (std::string key = helper(call, test); !key.empty()) return helper_calls(key, depth);
  auto dot = call.find('.');
  std::string head = call.substr(0, dot);
  std::string rest = dot == std::string::npos ? std::string() : call.substr(dot);
  std::vector<Value> out;
  for (auto& v : values(head, test, 0)) {
    if (v.text == "?") continue;
    // Calling an instance (`pipe = Pipeline(); pipe(x)`) runs its class's
    // `__call__`.
    if (v.kind == Value::call) v.call_end = v.text.size();
    v.text += v.kind == Value::call && rest.empty() ? std::string(".__call__") : rest;
    out.push_back(std::move(v));
  }
  return out;
}

std::string ReceiverTyper::helper(const std::string& name, const std::string& test) const {
  if (name.find('.') != std::string::npos) return {};
  std::string cls = class_of(test);
  for (int hops = 0; !cls.empty() && hops < k_max_depth; ++hops) {
    if (std::string key = cls + '.' + name; m_b.params.contains(key)) return key == test ? std::string() : key;
    auto c = m_b.classes.find(cls);
    if (c == m_b.classes.end() || c->second.bases.empty()) break;
    cls = c->second.bases.front();
  }
  if (m_b.params.contains(name) && name != test) return name;
  return {};
}

bool ReceiverTyper::derives(const std::string& cls, const std::string& base, int depth) const {
  if (cls == base) return true;
  auto c = m_b.classes.find(cls);
  if (depth > k_max_depth || c == m_b.classes.end()) return false;
  return std::any_of(c->second.bases.begin(), c->second.bases.end(),
                     [&](const std::string& b) { return derives(b, base, depth + 1); });
}

std::vector<Value> ReceiverTyper::through_test_class(const Value& v, int depth) const {
  auto dot = v.text.find('.');
  const std::string head = v.text.substr(0, dot);
  const std::string rest = dot == std::string::npos ? std::string() : v.text.substr(dot + 1);
  auto c = m_b.classes.find(head);
  if (depth >= k_max_helper_depth || c == m_b.classes.end() || m_b.params.contains(head) ||
      rest.find('.') != std::string::npos)
    return {v};
  std::vector<Value> out;
  auto add = [&](Value x) {
    if (out.size() < k_max_calls && std::none_of(out.begin(), out.end(), [&](const Value& o) { return o.text == x.text; }))
      out.push_back(std::move(x));
  };
  const std::string method = head + '.' + (rest.empty() ? "__init__" : rest);
  if (m_b.params.contains(method))
    for (auto& x : helper_calls(method, depth)) add(std::move(x));
  if (!m_b.params.contains(method) || rest.empty())
    for (const auto& base : c->second.bases) {
      if (base == "object") continue;
      for (auto& x : through_test_class({v.kind, rest.empty() ? base : base + '.' + rest, v.via}, depth + 1))
        add(std::move(x));
      break;
    }
  return out;
}

std::string ReceiverTyper::class_of(const std::string& test) {
  auto dot = test.rfind('.');
  return dot == std::string::npos ? std::string() : test.substr(0, dot);
}

bool ReceiverTyper::is_machinery(std::string_view callee) {
  std::string_view last = callee.substr(callee.rfind('.') == std::string_view::npos ? 0 : callee.rfind('.') + 1);
  return last.starts_with("assert") || last.starts_with("fail") || last == "skipTest" || last == "subTest" ||
         last == "addCleanup" || last == "enterContext";
}

std::vector<Value> ReceiverTyper::helper_calls(const std::string& key, int depth) const {
  if (depth >= k_max_helper_depth) return {};
  // Many tests call one helper: its calls are typed once per depth.
  const std::string memo_key = key + '#' + std::to_string(depth);
  if (auto it = m_helper_memo.find(memo_key); it != m_helper_memo.end()) return it->second;
  std::vector<Value> out;
  auto calls = m_b.calls.find(key);
  if (calls == m_b.calls.end()) return out;
  const auto& params = m_b.params.at(key);
  for (const CallSite& cs : calls->second) {
    const std::string callee(cs.callee);
    std::string head = callee.substr(0, callee.find('.'));
    if (is_machinery(callee) || std::find(params.begin(), params.end(), head) != params.end()) continue;
    auto typed = rewrite(callee, key, depth + 1);
    if (typed.empty() && helper(callee, key).empty()) typed.push_back({Value::alias, callee, {}});
    for (auto& v : typed)
      if (out.size() < k_max_calls &&
          std::none_of(out.begin(), out.end(), [&](const Value& o) { return o.text == v.text; }))
        out.push_back(std::move(v));
  }
  m_helper_memo.emplace(memo_key, out);
  return out;
}

void ReceiverTyper::class_attr(const std::string& cls, const std::string& name, std::vector<Value>& out, int depth,
                bool down) const {
  if (depth > k_max_depth) return;
  auto it = m_b.classes.find(cls);
  if (it == m_b.classes.end()) return;
  if (auto a = it->second.attrs.find(name); a != it->second.attrs.end()) {
    out.push_back(a->second);
    return;
  }
  if (std::find(it->second.conflicts.begin(), it->second.conflicts.end(), name) != it->second.conflicts.end()) return;
  std::size_t before = out.size();
  for (const auto& base : it->second.bases) {
    class_attr(base, name, out, depth + 1, false);
    if (out.size() > before) return;
  }
  if (!down) return;
  if (auto s = m_subclasses.find(cls); s != m_subclasses.end())
    for (const auto& sub : s->second) {
      std::vector<Value> found;
      class_attr(sub, name, found, depth + 1, true);
      for (auto& v : found) {
        if (v.via.empty()) v.via = sub;
        auto same = std::find_if(out.begin(), out.end(),
                                 [&](const Value& o) { return o.kind == v.kind && o.text == v.text; });
        if (same == out.end()) out.push_back(std::move(v));
        else if (same->via != v.via) same->via = "*";
      }
    }
}

std::vector<Value> ReceiverTyper::expand(const Value& v, const std::string& test, int depth) const {
  if (depth > k_max_depth) return {};
  if (v.kind == Value::module || v.text == "?") return {v};
  std::string text = v.text;
  if (text.starts_with("self.")) text = text.substr(5);
  else if (text.starts_with("cls.")) text = text.substr(4);
  std::vector<Value> out;
  if (v.kind == Value::call) {
    // A helper's result: what it returns.
    std::string cls = class_of(test);
    for (const std::string& key : {cls.empty() ? text : cls + '.' + text, text})
      if (auto r = m_b.returns.find(key);
          r != m_b.returns.end() &&
          std::find(m_b.bad_returns.begin(), m_b.bad_returns.end(), key) == m_b.bad_returns.end()) {
        Value returned = r->second;
        returned.args.reset();  // the helper's, not the test's
        return expand(returned, key, depth + 1);
      }
  }
  auto dot = text.find('.');
  std::string head = text.substr(0, dot);
  std::string rest = dot == std::string::npos ? std::string() : text.substr(dot);
  auto heads = values(head, test, depth + 1);
  if (heads.empty()) {
    Value same{v.kind, text, v.via};
    same.args = v.args;
    same.line = v.line;
    return {same};
  }
  for (const auto& h : heads) {
    if (h.text == "?") return {};
    // `Foo()` of an alias `Foo = json.JSONDecoder`: an instance of it; of
    // an instance: unknown.
    if (h.kind == Value::call && (rest.empty() || v.kind == Value::call)) continue;
    out.push_back(Value{v.kind, h.text + rest, v.via.empty() ? h.via : v.via});
    out.back().args = v.args;
    out.back().line = v.line;
  }
  return out;
}

std::vector<Value> ReceiverTyper::values(const std::string& head, const std::string& test, int depth) const {
  if (depth > k_max_depth) return {};
  std::vector<Value> raw;
  if (auto l = m_b.locals.find(test); l != m_b.locals.end())
    if (auto it = l->second.find(head); it != l->second.end()) raw.push_back(it->second);
  if (raw.empty())
    if (auto l = m_b.loops.find(test); l != m_b.loops.end())
      if (auto it = l->second.find(head); it != l->second.end()) raw = it->second;
  if (raw.empty() && !class_of(test).empty()) {
    class_attr(class_of(test), head, raw, 0, true);
    for (auto& v : raw) v.args.reset();
  }
  if (raw.empty())
    if (auto it = m_b.module.find(head); it != m_b.module.end()) {
      raw.push_back(it->second);
      raw.back().args.reset();
    }
  if (raw.empty() || raw.size() > k_max_values) return {};
  std::vector<Value> out;
  for (const auto& v : raw)
    for (auto& e : expand(v, test, depth)) out.push_back(std::move(e));
  return out;
}

}  // namespace errdex::scan::python
