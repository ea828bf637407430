#include "analyze/situation.h"

#include <algorithm>

namespace errdex::analyze {

std::string situation_from(const Conditions& cond, const std::vector<std::string>& params, const std::string& entry) {
  if (cond.count != 1 || params.empty()) return {};
  std::string c = strip_parens(cond.reach);
  auto is_param = [&](const std::string& e) { return std::find(params.begin(), params.end(), e) != params.end(); };
  if (auto call = call_condition(c); call && call->negated && call->fn == "isinstance") {
    auto args = split_args(call->args);
    if (args.size() == 2 && is_param(args[0]))
      return "Passing `" + args[0] + "` as some other type than " + type_phrase(args[1]) + " to " + entry +
             ": a string read from a file, an environment variable or the command line, None from an unset option, "
             "or an object of a similar but different class.";
  }
  auto cmp = comparison(c);
  if (!cmp) return {};
  const std::string& l = cmp->lhs;
  const std::string& r = cmp->rhs;
  bool number = !r.empty() && std::all_of(r.begin(), r.end(), [](char ch) { return (ch >= '0' && ch <= '9') || ch == '.' || ch == '-'; });
  if (cmp->op == "not in" && is_param(l))
    return "Passing a misspelled, differently cased or unsupported value as `" + l + "` to " + entry +
           " (often from a config file or written for another version); the accepted values are `" + r + "`.";
  if (cmp->op == "is" && r == "None" && is_param(l))
    return "Calling " + entry + " without `" + l + "`, or with an option that resolved to None, in a mode where it is required.";
  if ((cmp->op == "<" || cmp->op == "<=") && number && is_param(l))
    return "Passing a computed `" + l + "` that went too small (" + c + ") to " + entry +
           ": an off-by-one, an empty input, or a subtraction that went negative.";
  if ((cmp->op == ">" || cmp->op == ">=") && number && is_param(l))
    return "Passing a `" + l + "` beyond the limit (" + c + ") to " + entry + ", often a size or count taken from user input or a larger data set.";
  bool literal = number || r.empty() || r[0] == '"' || r[0] == '\'' || r == "None" || r == "True" || r == "False";
  if (cmp->op == "!=" && !literal)
    return "Passing values to " + entry + " that were built from different sources and disagree: `" + l + "` against `" + r +
           "`, e.g. a list sized for another configuration.";
  return {};
}


namespace {

// The sentences commonSituations falls back to when nothing of the code
// says more than the error's category: each one's text before and after the
// entry (a call in backticks), by category; the last is any other's.
struct CategorySentence {
  std::string_view type, before, after;
};
constexpr CategorySentence k_category_sentences[] = {
    {"validation", "Passing a value out of range or inconsistent with the rest to ", "."},
    {"type", "Passing an object of the wrong type to ", "."},
    {"lookup", "Asking ", " for a name, key or index that does not exist."},
    {"io", "Running ", " against a file or path that is missing, unreadable or of the wrong kind."},
    {"permission", "Running ", " against a file or path that is missing, unreadable or of the wrong kind."},
    {"dependency", "Running ", " in an environment that lacks an optional module or has the wrong version of it."},
    {"unsupported", "Calling ", " on a class, platform or mode that does not implement it."},
    {"network", "Calling ", " while the peer is slow, unreachable or closes the connection."},
    {"timeout", "Calling ", " while the peer is slow, unreachable or closes the connection."},
    {"configuration", "Starting with a configuration that misses or misspells a setting ", " needs."},
    {"", "Calling ", " when the object is not in the state it expects."},
};

}  // namespace

std::string category_situation(std::string_view error_type, std::string_view entry) {
  for (const auto& c : k_category_sentences)
    if (c.type == error_type || c.type.empty()) return std::string(c.before) + std::string(entry) + std::string(c.after);
  return {};
}

bool is_category_situation(std::string_view text) {
  for (const auto& c : k_category_sentences) {
    if (!text.starts_with(c.before) || !text.ends_with(c.after) || text.size() < c.before.size() + c.after.size() + 2)
      continue;
    std::string_view entry = text.substr(c.before.size(), text.size() - c.before.size() - c.after.size());
    // One code span (a call may hold backticks of its own only as a string's
    // text, which the example call never writes), or an import.
    if ((entry.front() == '`' && entry.back() == '`' && entry.find('`', 1) == entry.size() - 1) ||
        entry.starts_with("the import of "))
      return true;
  }
  return false;
}

}  // namespace errdex::analyze
