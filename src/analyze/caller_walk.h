#pragma once
// What the Python and the JavaScript call graphs share (internal to
// src/analyze/): dotted names split and joined, walks up a graph's callers from a function, to its
// nearest public callers (entry points) or to one of a set of functions,
// and the linking of records to their sites' entry points. Nodes are
// dense ids; `callers[n]` lists the functions that call n.
#include <algorithm>
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "model/error_record.h"
#include "model/throw_site.h"

namespace errdex::analyze::detail {

// "a.b.c" → {"a", "b", "c"}; "" → {""}.
inline std::vector<std::string_view> split_dots(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    auto dot = s.find('.', start);
    out.push_back(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return out;
}

// parts[from, to) joined with dots.
inline std::string join_dots(const std::vector<std::string_view>& parts, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (i > from) out += '.';
    out.append(parts[i]);
  }
  return out;
}

struct WalkBounds {
  int max_depth = 12;              // levels of callers followed
  std::size_t max_visited = 4096;  // functions visited by one walk
};

// The names from `from` down to the walk's start, following `next` (each
// node visited → the node below it, -1 at the start).
template <class Name>
std::vector<std::string> read_chain(int from, const std::unordered_map<int, int>& next, const Name& name) {
  std::vector<std::string> out;
  for (int at = from;;) {
    out.push_back(name(at));
    auto it = next.find(at);
    if (it == next.end() || it->second < 0) break;
    at = it->second;
  }
  return out;
}

// Up to `max` nodes for which `is_public` holds among `node` and the
// functions that lead to it, shortest chain first: breadth first up the
// callers, the level where the last one needed is met walked whole and
// ranked by `distance(n)` (smaller first: the raising module's own, then
// its package's). One entry per name (`Cls` for two constructors).
template <class IsPublic, class Distance, class Name>
std::vector<model::EntryPoint> nearest_entry_points(const std::vector<std::vector<int>>& callers, int node,
                                                    std::size_t max, WalkBounds bounds, const IsPublic& is_public,
                                                    const Distance& distance, const Name& name) {
  std::unordered_map<int, int> next{{node, -1}};
  std::deque<std::pair<int, int>> queue{{node, 0}};
  struct Found {
    int node, depth, distance;
  };
  std::vector<Found> found;
  while (!queue.empty()) {
    auto [at, depth] = queue.front();
    queue.pop_front();
    if (found.size() >= max && depth > found.back().depth) break;
    if (is_public(at)) found.push_back({at, depth, distance(at)});
    if (depth >= bounds.max_depth) continue;
    for (int c : callers[at]) {
      if (next.size() >= bounds.max_visited) break;
      if (next.emplace(c, at).second) queue.emplace_back(c, depth + 1);
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
    return a.depth != b.depth ? a.depth < b.depth : a.distance < b.distance;
  });
  std::vector<model::EntryPoint> out;
  std::unordered_set<std::string> names;
  for (const Found& f : found) {
    if (out.size() >= max) break;
    auto chain = read_chain(f.node, next, name);
    if (names.insert(chain.front()).second) out.push_back({chain.front(), std::move(chain)});
  }
  return out;
}

// The shortest chain (names) from one of `from` down to `to`, or empty
// when none is within the bounds.
template <class Name>
std::vector<std::string> chain_up_to(const std::vector<std::vector<int>>& callers, const std::vector<int>& from, int to,
                                     WalkBounds bounds, const Name& name) {
  if (to < 0) return {};
  std::unordered_set<int> wanted(from.begin(), from.end());
  std::unordered_map<int, int> next{{to, -1}};
  std::deque<std::pair<int, int>> queue{{to, 0}};
  while (!queue.empty()) {
    auto [at, depth] = queue.front();
    queue.pop_front();
    if (wanted.contains(at)) return read_chain(at, next, name);
    if (depth >= bounds.max_depth) continue;
    for (int c : callers[at]) {
      if (next.size() >= bounds.max_visited) break;
      if (next.emplace(c, at).second) queue.emplace_back(c, depth + 1);
    }
  }
  return {};
}

// Fills evidence.entry_points of each record `node_of(i)` gives a node
// (>= 0) with `entry_points(node)`, once per node. Returns how many
// records got at least one.
template <class NodeOf, class EntryPoints>
std::size_t fill_entry_points(std::vector<model::ErrorRecord>& records, std::size_t count, const NodeOf& node_of,
                              const EntryPoints& entry_points) {
  std::unordered_map<int, std::vector<model::EntryPoint>> memo;
  std::size_t linked = 0;
  for (std::size_t i = 0; i < count && i < records.size(); ++i) {
    int node = node_of(i);
    if (node < 0) continue;
    auto it = memo.find(node);
    if (it == memo.end()) it = memo.emplace(node, entry_points(node)).first;
    records[i].evidence.entry_points = it->second;
    linked += !it->second.empty();
  }
  return linked;
}

}  // namespace errdex::analyze::detail
