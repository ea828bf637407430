#include "analyze/javascript_prose.h"

#include <algorithm>
#include <sstream>

#include "analyze/category.h"
#include "scan/frontend.h"
#include "scan/javascript/frontend.h"

namespace errdex::analyze {
namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
  });
}

// Parameter names of a parameter list's source text (`a, b = 1, {c}, ...d`,
// `x: number`): the plain ones only.
std::vector<std::string> js_parameters(const std::string& params) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  auto flush = [&] {
    std::string_view t = cur;
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    if (t.starts_with("...")) t.remove_prefix(3);
    std::size_t end = 0;
    while (end < t.size() && is_identifier(t.substr(0, end + 1))) ++end;
    if (end > 0) out.emplace_back(t.substr(0, end));
    cur.clear();
  };
  for (char c : params) {
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
    if (c == ',' && depth == 0) flush();
    else cur += c;
  }
  flush();
  return out;
}

// JavaScript's built-in errors and what they mean; category_of knows
// Python's.
std::string js_category(const std::string& cls, const ClassIndex::Resolution& res) {
  static const std::pair<const char*, const char*> k_builtins[] = {
      {"TypeError", "type"}, {"RangeError", "validation"}, {"SyntaxError", "validation"},
      {"URIError", "validation"}, {"ReferenceError", "state"}, {"EvalError", "internal"},
      {"AggregateError", "internal"}, {"DeprecationWarning", "deprecation"}};
  for (auto it = res.chain.rbegin(); it != res.chain.rend(); ++it)
    for (const auto& [name, cat] : k_builtins)
      if (*it == name) return cat;
  for (const auto& [name, cat] : k_builtins)
    if (cls == name) return cat;
  return cls == "Error" || cls.empty() ? "internal" : category_of(cls);
}

std::string code_or_empty(std::string code, bool typescript) {
  return scan::parses_as_javascript(code, typescript) ? code : std::string();
}

}  // namespace

bool is_javascript_file(std::string_view path) {
  const scan::Frontend* f = scan::frontend_for(path);
  return f && f->language() != "python";
}

void write_javascript_prose(const model::ThrowSite& s, model::ErrorRecord& r, const ProseContext& ctx) {
  const bool ts = scan::frontend_for(r.file_path) && scan::frontend_for(r.file_path)->language() != "javascript";
  const bool in_catch = std::any_of(s.guards.begin(), s.guards.end(), [](const model::Guard& g) { return g.kind == "except"; });
  // No class and no error handed on: a value thrown as it is (`throw "URI too long"`).
  const std::string cls = !r.error_class.empty() ? r.error_class
                          : !s.reraise           ? "a string, not an Error,"
                          : in_catch             ? "the caught error"
                                                 : "the error it was given";
  const std::string catch_cls = is_identifier(r.error_class) ? r.error_class : "Error";
  const std::string fn = is_identifier(s.function) && s.function != "constructor" ? s.function
                         : s.function == "constructor" && is_identifier(s.class_name) ? s.class_name
                                                                                      : "";
  const bool is_new = s.function == "constructor" && !fn.empty();
  // A function without a name (a callback, `(err) => { … }`) is not module code.
  std::string where = is_new ? "the `" + s.class_name + "` constructor"
                      : !s.function.empty() ? (s.class_name.empty() ? "`" + s.function + "`" : "`" + s.class_name + "." + s.function + "`")
                      : s.function_line > 0 ? "an anonymous function"
                                            : "module code";
  // The two innermost conditions the throw is under. The one a user acts
  // on is an `if` whose condition holds (the cause) before an `else` branch
  // (ajv's `if (!valid) { if (opts.log) log(m) else throw … }`: `!valid`,
  // not the logging option); the other is told beside it, not advised
  // (making `typeof anchor == "string"` false avoids a throw too).
  const model::Guard* guard = nullptr;
  const model::Guard* also = nullptr;
  for (const auto& g : s.guards)
    if (g.kind == "if" || g.kind == "else" || g.kind == "assert") {
      if (!guard) {
        guard = &g;
        continue;
      }
      also = &g;
      break;
    }
  if (also && guard->kind == "else" && also->kind == "if") std::swap(guard, also);
  // An `if` guard throws when its condition holds; an `else` branch and an
  // assertion (Node's `assert(cond, msg)`) when it does not.
  const bool throws_when_true = guard && guard->kind == "if";
  const bool also_when_true = also && also->kind == "if";
  const std::string verb = r.severity == "warning" ? "emits the warning" : s.reraise ? "throws again" : "throws";
  r.error_type = js_category(r.error_class, ctx.resolution);

  std::ostringstream doc;
  doc << where << " in " << r.file_path << " " << verb << " " << cls;
  if (guard) doc << (throws_when_true ? " when `" : " when this does not hold: `") << guard->condition << "`";
  if (also) doc << (also_when_true ? ", and `" : ", and this does not: `") << also->condition << "`";
  if (!r.error_message.empty()) doc << ", with the message \"" << r.error_message << "\"";
  doc << ".";
  if (ctx.resolution.chain.size() > 1) {
    doc << " " << r.error_class << " extends";
    for (std::size_t i = 1; i < ctx.resolution.chain.size(); ++i) doc << (i > 1 ? " → " : " ") << ctx.resolution.chain[i];
    doc << ".";
  }
  r.documentation = doc.str();
  // "The `Range` constructor …", "An anonymous function …": a sentence.
  if (r.documentation[0] >= 'a' && r.documentation[0] <= 'z') r.documentation[0] = static_cast<char>(r.documentation[0] - 'a' + 'A');

  const auto params = js_parameters(s.function_params);
  std::string args;
  for (const auto& p : params) args += (args.empty() ? "" : ", ") + p;
  const std::string call = fn.empty() ? "" : (is_new ? "new " : "") + fn + "(" + args + ")";
  std::ostringstream trig;
  if (!call.empty()) trig << "Calling `" << call << "`";
  else trig << "Running " << where;
  if (guard) trig << (throws_when_true ? " with `" : " without `") << guard->condition << "` holding";
  if (also) trig << (also_when_true ? " and with `" : " and without `") << also->condition << "` holding";
  trig << " reaches line " << r.line_number << ".";
  r.trigger_scenarios = trig.str();
  // What a caller passes: a name of the condition that is a parameter or
  // a part of one (`options.port`); a local (`valid`) is no caller's.
  std::string passed;
  for (const model::Guard* g : {guard, also})
    for (std::size_t i = 0; g && passed.empty() && i < g->names.size(); ++i)
      for (const auto& p : params)
        if (g->names[i] == p || (g->names[i].starts_with(p) && g->names[i].size() > p.size() && g->names[i][p.size()] == '.')) {
          passed = g->names[i];
          break;
        }
  // Else the object's state the condition reads (`this.prerelease.length`).
  std::string state;
  for (const model::Guard* g : {guard, also})
    for (std::size_t i = 0; g && state.empty() && i < g->names.size(); ++i)
      if (g->names[i].starts_with("this.")) state = g->names[i];
  r.common_situations = !passed.empty() ? "Passing a value of `" + passed + "` that the code does not accept."
                        : !state.empty() ? "Calling " + where + " on an object whose `" + state + "` does not allow it."
                                         : "Calling " + where + " in a state or with input it does not support.";

  r.solutions.clear();
  if (guard)
    r.solutions.push_back("Make sure `" + guard->condition + (throws_when_true ? "` does not hold" : "` holds") +
                          " before the call: check the input where it is read.");
  if (!r.error_message.empty()) r.solutions.push_back("Read the message: \"" + r.error_message + "\" names what was wrong.");
  r.solutions.push_back("Catch " + cls + " around the call where a bad input is expected, and report it to the user.");

  // Code: a call, the call guarded by the site's own condition, and a catch.
  const std::string subject = call.empty() ? "run()" : call;
  std::string example = "// before\nconst result = " + subject + ";\n// after\nlet result;\ntry {\n  result = " + subject +
                        ";\n} catch (err) {\n  if (!(err instanceof " + catch_cls + ")) throw err;\n  result = undefined; // handle the bad input here\n}\n";
  r.example_fix = code_or_empty(example, ts);
  if (r.example_fix.empty()) r.example_fix = "// Catch " + catch_cls + " where " + where + " is called.\n";
  r.handling_strategy = guard ? "validation" : s.reraise ? "propagate" : "try-catch";
  r.validation_code.reset();
  r.type_guard.reset();
  if (guard && (throws_when_true || guard->kind == "assert")) {
    const std::string test = throws_when_true ? guard->condition : "!(" + guard->condition + ")";
    std::string v = "if (" + test + ") {\n  // " + where + " would throw " + cls + ": fix the input first\n}\n";
    if (auto c = code_or_empty(v, ts); !c.empty()) {
      r.validation_code = c;
      if (r.error_type == "type") r.type_guard = c;
    }
  }
  std::string tc = "try {\n  " + subject + ";\n} catch (err) {\n  if (err instanceof " + catch_cls +
                   ") {\n    console.error(err.message);\n  } else {\n    throw err;\n  }\n}\n";
  if (auto c = code_or_empty(tc, ts); !c.empty()) r.try_catch_pattern = c;
  else r.try_catch_pattern.reset();
  r.prevention_tips = {"Validate input at the boundary where it enters the program.",
                       "Test the call with the inputs that reach this throw."};
  if (ts) r.prevention_tips.push_back("Let the types say what the function accepts, so the compiler rejects bad calls.");
  r.tags.clear();
  auto tag = [&](std::string t) {
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!t.empty() && std::find(r.tags.begin(), r.tags.end(), t) == r.tags.end()) r.tags.push_back(std::move(t));
  };
  tag(r.error_class);
  tag(ts ? "typescript" : "javascript");
  tag(r.error_type);
  if (!fn.empty()) tag(fn);
  r.background_tag.reset();
}

}  // namespace errdex::analyze
