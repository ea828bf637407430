// The trigger sentence and example fix a record's tests give it
// (write_test_trigger): the call a test makes, read from its code, for
// Python's `with`/`assertRaises` forms and JavaScript's `expect(…)`.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyze/condition.h"
#include "analyze/python_check.h"
#include "analyze/static_prose.h"
#include "util/text.h"

namespace errdex::analyze {
namespace {

using util::collapse_ws;
// The statement of a test's code that makes the call: the first line of a
// `with` block's body, else the code's first line; blanks at both ends cut.
std::string_view triggering_line(std::string_view code) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at <= code.size();) {
    std::size_t nl = code.find('\n', at);
    if (nl == std::string_view::npos) nl = code.size();
    std::string_view l = code.substr(at, nl - at);
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
    while (!l.empty() && (l.back() == ' ' || l.back() == '\r')) l.remove_suffix(1);
    if (!l.empty() && !l.starts_with("#")) lines.push_back(l);
    at = nl + 1;
  }
  if (lines.empty()) return {};
  std::string_view pick = lines[0];
  if ((pick.starts_with("with ") || pick.starts_with("async with ")) && pick.ends_with(":") && lines.size() > 1)
    pick = lines[1];
  return pick;
}

// The same line for a sentence: whitespace collapsed, cut at 120 bytes,
// no backtick that would end the code span early.
std::string triggering_call(std::string_view code) {
  std::string_view pick = triggering_line(code);
  constexpr std::size_t k_max_call = 120;
  std::string out = collapse_ws(pick.substr(0, k_max_call));
  if (pick.size() > k_max_call) out += "…";
  std::replace(out.begin(), out.end(), '`', '\'');
  return out;
}

// The call a test makes, as a statement of its own: the `with` body's
// line, or for `self.assertRaises(Cls, fn, *args)` (and Regex, Warns) the
// call `fn(*args)`; "" when it does not parse alone.
std::string test_call_statement(std::string_view code) {
  std::string line(triggering_line(code));
  static const std::pair<const char*, std::size_t> k_forms[] = {
      {"assertRaisesRegex(", 2}, {"assertWarnsRegex(", 2}, {"assertRaises(", 1}, {"assertWarns(", 1}};
  std::string_view body = line;
  if (body.starts_with("self.")) body.remove_prefix(5);
  for (const auto& [form, skip] : k_forms) {
    std::string_view f(form);
    if (!body.starts_with(f) || !body.ends_with(")")) continue;
    auto args = split_args(std::string(body.substr(f.size(), body.size() - f.size() - 1)));
    if (args.size() <= skip || args[skip].empty()) return {};
    std::string call = args[skip] + "(";
    for (std::size_t i = skip + 1; i < args.size(); ++i) call += (i > skip + 1 ? ", " : "") + args[i];
    line = call + ")";
    break;
  }
  return !line.empty() && parses_as_python(line) ? line : std::string();
}


// What a JavaScript test runs: the function given to `expect(…)`,
// `assert.throws(…)` or `t.throws(…)` (its body when it is an arrow with
// one expression), whitespace folded; "" when the code is not of that form.
std::string javascript_test_call(std::string_view written) {
  // Without its comment lines (`// @ts-expect-error …`).
  std::string code;
  for (std::size_t at = 0; at < written.size();) {
    std::size_t nl = written.find('\n', at);
    if (nl == std::string_view::npos) nl = written.size();
    const std::string_view line = written.substr(at, nl - at);
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || !line.substr(first).starts_with("//")) code.append(line).push_back('\n');
    at = nl + 1;
  }
  const std::size_t open = code.find('(');
  if (open == std::string_view::npos) return {};
  int depth = 0;
  std::size_t end = open;
  for (; end < code.size(); ++end) {
    const char c = code[end];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && --depth == 0) break;
    if (c == ',' && depth == 1) break;
  }
  if (end >= code.size()) return {};
  std::string call = collapse_ws(std::string_view(code).substr(open + 1, end - open - 1));
  if (call.starts_with("async ")) call.erase(0, 6);
  if (call.starts_with("() =>")) call = collapse_ws(call.substr(5));
  if (call.starts_with("{") && call.ends_with("}")) call = collapse_ws(call.substr(1, call.size() - 2));
  while (!call.empty() && (call.back() == ';' || call.back() == ',')) call.pop_back();
  if (call.empty() || call.size() > 120 || call.find('\n') != std::string::npos) return {};
  std::replace(call.begin(), call.end(), '`', '\'');
  return call;
}

}  // namespace

void write_test_trigger(model::ErrorRecord& r) {
  if (r.evidence.tests.empty()) return;
  const model::TestEvidence& t = r.evidence.tests.front();
  const bool python = t.file_path.ends_with(".py");
  std::string call = python ? triggering_call(t.code) : javascript_test_call(t.code);
  if (call.empty()) call = triggering_call(t.code);
  if (call.empty()) return;
  // A Python test as pytest names it; a JavaScript one by its titles, as
  // Jest prints them, and its file.
  std::string sentence =
      python ? "`" + t.file_path + "::" + t.name + "` " + (r.severity == "warning" ? "gets this warning" : "raises it")
             : "The test \"" + t.name + "\" (" + t.file_path + ") throws it";
  sentence += " on purpose: `" + call + "`";
  if (r.evidence.tests.size() > 1)
    sentence += " (and " + std::to_string(r.evidence.tests.size() - 1) + " more test" +
                (r.evidence.tests.size() > 2 ? "s" : "") + ", listed under Seen in tests)";
  r.trigger_scenarios = sentence + ". " + r.trigger_scenarios;
  // exampleFix starts from the first test whose call stands alone.
  if (!python) return;
  static constexpr std::string_view k_after = "\n\n# after\n";
  std::size_t after = r.example_fix.find(k_after);
  if (after == std::string::npos) return;
  for (const auto& test : r.evidence.tests) {
    std::string stmt = test_call_statement(test.code);
    if (stmt.empty()) continue;
    std::string fix = "# before: " + test.file_path + "::" + test.name + " does this on purpose\n" + stmt +
                      r.example_fix.substr(after);
    if (!parses_as_python(fix)) continue;
    r.example_fix = std::move(fix);
    return;
  }
}

}  // namespace errdex::analyze
