#include "analyze/witness.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_set>

#include "analyze/test_bindings.h"
#include "util/text.h"

namespace errdex::analyze::detail {
namespace {

// The words of a test's name (`test_get_angle_addr_no_angle`,
// `testNonnumericPort`), lower case, of 4 letters or more, without those
// any test's name has.
std::vector<std::string> test_name_words(std::string_view test) {
  static const std::unordered_set<std::string_view> k_common = {
      "test", "tests", "raise", "raises", "raised", "error", "errors", "fail", "fails", "exception", "exceptions",
      // `test_write_to_self`: every guard on an instance reads `self`.
      "self"};
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (cur.size() >= 4 && !k_common.contains(cur)) out.push_back(cur);
    cur.clear();
  };
  for (char c : last_component(test)) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u)) {
      flush();
      continue;
    }
    if (std::isupper(u) && !cur.empty() && std::islower(static_cast<unsigned char>(cur.back()))) flush();
    cur += static_cast<char>(std::tolower(u));
  }
  flush();
  return out;
}

bool has_lowered(std::string_view text, std::string_view lower_word) {
  return util::to_lower_ascii(text).find(lower_word) != std::string::npos;
}

// Whether `has` holds of a message record r may print: its own or one of
// its variants (typing's `Too few arguments`, beside the record's `Too many`).
template <class Has>
bool in_messages(const model::ErrorRecord& r, const Has& has) {
  return has(std::string_view(r.error_message)) ||
         std::any_of(r.message_variants.begin(), r.message_variants.end(),
                     [&](const model::MessageVariant& v) { return has(std::string_view(v.error_message)); });
}

}  // namespace

std::vector<std::string_view> code_words(const model::TestExpectation& e) {
  std::vector<std::string_view> out;
  std::string_view c = e.code;
  for (std::size_t i = 0; i < c.size();) {
    if (!(std::isalnum(static_cast<unsigned char>(c[i])) || c[i] == '_')) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < c.size() && (std::isalnum(static_cast<unsigned char>(c[j])) || c[j] == '_')) ++j;
    std::string_view w = c.substr(i, j - i);
    bool quoted = i > 0 && (c[i - 1] == '\'' || c[i - 1] == '"');
    const bool qualifier = j < c.size() && c[j] == '.';
    if (w.size() >= 4 && !quoted && !qualifier && !std::isdigit(static_cast<unsigned char>(w[0])) && w != "self" && w != "with" &&
        !w.starts_with("assert") && w != "raises" && w != "warns" && w != "pytest" && w != "match" &&
        std::find(out.begin(), out.end(), w) == out.end() &&
        std::none_of(e.classes.begin(), e.classes.end(), [&](const std::string& k) { return last_component(k) == w; }) &&
        std::none_of(e.calls.begin(), e.calls.end(), [&](const std::string& k) { return last_component(k) == w; }))
      out.push_back(w);
    i = j;
  }
  return out;
}

bool has_word(std::string_view text, std::string_view w) {
  for (auto at = text.find(w); at != std::string_view::npos; at = text.find(w, at + 1)) {
    bool l = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    std::size_t end = at + w.size();
    bool r = end >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
    if (l && r) return true;
  }
  return false;
}

void keep_named(std::vector<std::size_t>& found, const model::TestExpectation& e,
                const std::vector<model::ThrowSite>& sites, const std::vector<model::ErrorRecord>& records) {
  if (found.size() < 2) return;
  auto words = code_words(e);
  std::vector<int> score(found.size(), 0);
  for (std::size_t k = 0; k < found.size(); ++k) {
    const model::ThrowSite& s = sites[found[k]];
    for (std::string_view w : words) {
      bool named = in_messages(records[found[k]], [&](std::string_view text) { return has_word(text, w); });
      for (const auto& g : s.guards) named = named || has_word(g.condition, w);
      score[k] += named;
    }
  }
  int best = *std::max_element(score.begin(), score.end());
  if (best == 0 || std::all_of(score.begin(), score.end(), [&](int x) { return x == best; })) return;
  std::vector<std::size_t> kept;
  for (std::size_t k = 0; k < found.size(); ++k)
    if (score[k] == best) kept.push_back(found[k]);
  found = std::move(kept);
}

bool witnessed(const model::TestExpectation& e, const model::ThrowSite& s, const model::ErrorRecord& r,
               const std::vector<std::size_t>& others, const std::vector<model::ThrowSite>& sites,
               const std::vector<model::ErrorRecord>& records) {
  auto in_site = [&](const model::ThrowSite& at, const model::ErrorRecord& of, auto&& has) {
    if (in_messages(of, has)) return true;
    return std::any_of(at.guards.begin(), at.guards.end(),
                       [&](const model::Guard& g) { return has(std::string_view(g.condition)); });
  };
  // A word the other sites hold too does not say which one the test meets.
  auto singles_out = [&](auto&& has) {
    return in_site(s, r, has) && std::none_of(others.begin(), others.end(), [&](std::size_t o) {
             return &sites[o] != &s && in_site(sites[o], records[o], has);
           });
  };
  for (std::string_view w : code_words(e))
    if (singles_out([&](std::string_view text) { return has_word(text, w); })) return true;
  for (const auto& w : test_name_words(e.test))
    if (singles_out([&](std::string_view text) { return has_lowered(text, w); })) return true;
  return false;
}

}  // namespace errdex::analyze::detail
