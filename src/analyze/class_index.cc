#include "analyze/class_index.h"

#include <algorithm>

#include "analyze/category.h"

namespace errdex::analyze {
namespace {

constexpr int k_max_chain = 16;

std::string_view last_component(std::string_view s) {
  auto dot = s.rfind('.');
  return dot == std::string_view::npos ? s : s.substr(dot + 1);
}

}  // namespace

void ClassIndex::add(std::string_view file_path, const std::vector<model::ClassDef>& classes) {
  for (const auto& c : classes)
    if (!c.factory)  // a function returning an error, not a class
      m_classes.emplace(c.name, Entry{c.bases, std::string(file_path), std::string(file_path) + ":" + std::to_string(c.line)});
}

ClassIndex::Resolution ClassIndex::resolve(std::string_view error_class, std::string_view file_path) const {
  Resolution best;
  best.chain.push_back(std::string(error_class));
  if (is_builtin_exception(error_class)) {
    best.builtin = std::string(error_class);
    return best;
  }
  // Depth-first over the bases; the first path that reaches a built-in wins.
  struct Frame {
    std::vector<std::string> chain;
    std::string defined_at;
    std::string file;  // where the last class of the chain is used
  };
  std::vector<Frame> stack{{{std::string(error_class)}, "", std::string(file_path)}};
  bool first = true;
  Resolution fallback;
  while (!stack.empty()) {
    Frame f = std::move(stack.back());
    stack.pop_back();
    std::string_view name = last_component(f.chain.back());
    if (f.chain.size() > 1 && is_builtin_exception(name)) {
      // Exception says nothing about the kind of error: a later base may.
      bool generic = name == "Exception" || name == "BaseException";
      if (!generic || fallback.chain.empty()) {
        // `name` views the chain's last string, which is replaced here:
        // copied first.
        std::string builtin(name);
        fallback.chain = std::move(f.chain);
        fallback.chain.back() = builtin;
        fallback.builtin = std::move(builtin);
        fallback.defined_at = std::move(f.defined_at);
      }
      if (!generic) return fallback;
      continue;
    }
    if (static_cast<int>(f.chain.size()) > k_max_chain) continue;
    auto [lo, hi] = m_classes.equal_range(name);
    // One definition, or the one in the file that uses the name.
    std::vector<decltype(lo)> defs;
    for (auto it = lo; it != hi; ++it) defs.push_back(it);
    if (defs.size() > 1) {
      std::erase_if(defs, [&](auto it) { return it->second.file != f.file; });
      if (defs.size() > 1) defs.resize(1);  // several in one file: the first
    }
    std::vector<Frame> next;
    for (auto it : defs) {
      if (first && best.defined_at.empty()) best.defined_at = it->second.defined_at;
      for (const auto& b : it->second.bases) {
        std::string_view bn = last_component(b);
        bool cycle = std::any_of(f.chain.begin(), f.chain.end(), [&](const std::string& c) { return last_component(c) == bn; });
        if (cycle) continue;
        Frame g{f.chain, f.defined_at.empty() ? it->second.defined_at : f.defined_at, it->second.file};
        g.chain.push_back(b);
        next.push_back(std::move(g));
      }
    }
    first = false;
    // Reverse so the first-listed base is explored first.
    for (auto it = next.rbegin(); it != next.rend(); ++it) stack.push_back(std::move(*it));
  }
  return fallback.chain.empty() ? best : fallback;
}

}  // namespace errdex::analyze
