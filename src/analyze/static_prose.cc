#include "analyze/static_prose.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "analyze/category.h"
#include "util/text.h"

namespace errdex::analyze {
namespace {

using model::ErrorRecord;
using model::Guard;
using model::ThrowSite;

std::string collapse_ws(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// "Cache.early_initialization()", "parse()", or "module-level code".
std::string who(const ThrowSite& s) {
  if (s.function.empty()) return s.class_name.empty() ? "module-level code" : "the body of class " + s.class_name;
  if (s.class_name.empty()) return s.function + "()";
  return s.class_name + "." + s.function + "()";
}

// snake_case instance name for a class: "DynamicCache" → "dynamic_cache".
std::string instance_name(const std::string& cls) {
  if (cls.empty()) return "obj";
  std::string out;
  for (std::size_t i = 0; i < cls.size(); ++i) {
    char c = cls[i];
    if (c >= 'A' && c <= 'Z') {
      if (i > 0 && !(cls[i - 1] >= 'A' && cls[i - 1] <= 'Z')) out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') {
      out += c;
    }
  }
  while (!out.empty() && out.front() == '_') out.erase(out.begin());
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out = "obj";
  static const std::set<std::string> k_keywords = {"class", "def", "import", "from", "global", "lambda",
                                                    "pass", "return", "with", "yield", "type", "object"};
  if (k_keywords.count(out)) out += "_obj";
  return out;
}

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Replaces the identifier `self` (not `self_x`, not `x.self`) by `name`.
std::string rename_self(const std::string& code, const std::string& name) {
  std::string out;
  for (std::size_t i = 0; i < code.size();) {
    if (code.compare(i, 4, "self") == 0 && (i == 0 || (!is_ident_char(code[i - 1]) && code[i - 1] != '.')) &&
        (i + 4 == code.size() || !is_ident_char(code[i + 4]))) {
      out += name;
      i += 4;
    } else {
      out += code[i++];
    }
  }
  return out;
}

// Parameter names of a `def` parameter list source text, without self/cls,
// * and ** markers, annotations and defaults.
std::vector<std::string> parameter_names(const std::string& params) {
  std::vector<std::string> names;
  int depth = 0;
  std::string cur;
  auto flush = [&] {
    std::string p(util::trim(cur));
    cur.clear();
    while (!p.empty() && p[0] == '*') p.erase(p.begin());
    auto end = std::find_if(p.begin(), p.end(), [](char c) { return !is_ident_char(c); });
    p.erase(end, p.end());
    if (!p.empty() && p != "self" && p != "cls") names.push_back(p);
  };
  for (char c : params) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) flush();
    else cur += c;
  }
  flush();
  return names;
}

// The innermost guard that is a condition (not an except clause), if any.
const Guard* condition_guard(const ThrowSite& s) {
  for (const auto& g : s.guards)
    if (g.kind != "except" && !g.condition.empty()) return &g;
  return nullptr;
}

const Guard* except_guard(const ThrowSite& s) {
  for (const auto& g : s.guards)
    if (g.kind == "except") return &g;
  return nullptr;
}

// The condition under which the site is reached, as Python source.
std::string reaching_condition(const Guard& g) {
  if (g.kind == "else") return negate_condition(g.condition);
  if (g.kind == "assert") return negate_condition(g.condition);
  return collapse_ws(g.condition);
}

// A call that reaches the site, for examples: `cache.early_initialization(...)`.
std::string example_call(const ThrowSite& s) {
  if (s.function.empty()) return "import_the_module()";
  std::string fn = s.function;
  if (fn == "__init__" && !s.class_name.empty()) return s.class_name + "(...)";
  if (!s.class_name.empty()) {
    bool is_static = std::any_of(s.decorators.begin(), s.decorators.end(),
                                 [](const std::string& d) { return d == "staticmethod" || d == "classmethod"; });
    bool is_property = std::any_of(s.decorators.begin(), s.decorators.end(),
                                   [](const std::string& d) { return d == "property"; });
    std::string recv = is_static ? s.class_name : instance_name(s.class_name);
    if (is_property) return recv + "." + fn;
    if (fn.size() > 4 && fn.compare(0, 2, "__") == 0 && fn.compare(fn.size() - 2, 2, "__") == 0)
      return recv + "." + fn + "(...)";
    return recv + "." + fn + "(...)";
  }
  return fn + "(...)";
}

std::string first_sentence(const std::string& doc) {
  std::string d = collapse_ws(doc);
  auto dot = d.find(". ");
  if (dot != std::string::npos) d = d.substr(0, dot + 1);
  if (d.size() > 240) d = d.substr(0, 237) + "...";
  return d;
}

// Words for tags: lower-case, from the class, function and message.
std::vector<std::string> make_tags(const ThrowSite& s, const ErrorRecord& r) {
  std::vector<std::string> tags;
  auto add = [&](std::string t) {
    t = util::to_lower_ascii(t);
    if (t.size() < 3 || t.size() > 40) return;
    if (std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
  };
  std::string cls = r.error_class;
  auto dot = cls.rfind('.');
  if (dot != std::string::npos) cls = cls.substr(dot + 1);
  add(cls);
  add(r.error_type);
  if (!s.function.empty() && s.function[0] != '_') add(s.function);
  if (!s.class_name.empty()) add(s.class_name);
  static const std::set<std::string> k_stop = {"the", "and", "for", "not", "with", "must", "are", "was", "has",
                                               "have", "this", "that", "from", "but", "can", "cannot", "should",
                                               "will", "when", "got", "expected", "only", "one", "use", "you", "any"};
  std::string word;
  int added = 0;
  for (const auto& p : s.message.parts) {
    if (!p.literal) continue;
    for (std::size_t i = 0; i <= p.text.size() && added < 3; ++i) {
      char c = i < p.text.size() ? p.text[i] : ' ';
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
        word += c;
        continue;
      }
      std::string w = util::to_lower_ascii(word);
      word.clear();
      if (w.size() >= 4 && !k_stop.count(w)) {
        add(w);
        ++added;
      }
    }
  }
  return tags;
}

std::string quote_message(const ErrorRecord& r) {
  std::string m = r.error_message;
  if (m.size() > 160) m = m.substr(0, 157) + "...";
  return m.empty() ? "no message" : "\"" + m + "\"";
}

}  // namespace

std::string negate_condition(const std::string& raw) {
  std::string cond = collapse_ws(raw);
  if (cond.compare(0, 4, "not ") == 0) {
    std::string rest = cond.substr(4);
    // `not a and b` is `(not a) and b`: only strip a whole-operand `not`.
    if (rest.find(" and ") == std::string::npos && rest.find(" or ") == std::string::npos) return rest;
  }
  if (cond.find(" and ") == std::string::npos && cond.find(" or ") == std::string::npos &&
      cond.find(" if ") == std::string::npos && cond.find("lambda") == std::string::npos) {
    static const std::pair<const char*, const char*> k_ops[] = {
        {" is not ", " is "}, {" not in ", " in "}, {" != ", " == "}, {" == ", " != "}, {" >= ", " < "},
        {" <= ", " > "},      {" is ", " is not "}, {" in ", " not in "}, {" > ", " <= "}, {" < ", " >= "}};
    int depth = 0;
    for (std::size_t i = 0; i < cond.size(); ++i) {
      char c = cond[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if (c == '"' || c == '\'') break;  // strings may hold operators: give up on the fast path
      if (depth != 0) continue;
      for (const auto& [op, neg] : k_ops) {
        std::size_t n = std::char_traits<char>::length(op);
        if (cond.compare(i, n, op) == 0) {
          // A second top-level comparison (a < b < c) is not negated by swapping one.
          std::string rhs = cond.substr(i + n);
          if (rhs.find(" < ") != std::string::npos || rhs.find(" > ") != std::string::npos ||
              rhs.find("==") != std::string::npos || rhs.find("!=") != std::string::npos)
            return "not (" + cond + ")";
          return cond.substr(0, i) + neg + rhs;
        }
      }
    }
  }
  return "not (" + cond + ")";
}

void write_static_prose(const ThrowSite& s, ErrorRecord& r) {
  const Guard* g = condition_guard(s);
  const Guard* ex = except_guard(s);
  std::string caller = who(s);
  std::string call = example_call(s);
  std::string inst = instance_name(s.class_name);
  std::string cond = g ? reaching_condition(*g) : "";
  std::string ok_cond = g ? negate_condition(cond) : "";
  std::string verb = r.severity == "warning" ? "warns with" : "raises";
  auto params = parameter_names(s.function_params);
  std::vector<std::string> tested_params;
  if (g)
    for (const auto& n : g->names) {
      std::string root = n.substr(0, n.find('.'));
      if (std::find(params.begin(), params.end(), root) != params.end() &&
          std::find(tested_params.begin(), tested_params.end(), root) == tested_params.end())
        tested_params.push_back(root);
    }

  // documentation: who, under which condition, why (the docstring).
  std::ostringstream doc;
  doc << caller << " " << verb << " " << r.error_class;
  if (s.reraise) doc << " by re-raising the exception it is handling";
  if (g) doc << " when `" << cond << "`";
  if (ex) doc << (g ? ", " : " ") << "while handling " << ex->condition;
  if (s.kind == "assert") doc << " (an assert statement; skipped under python -O)";
  doc << ". The message is " << quote_message(r) << ".";
  if (!s.cause.empty()) doc << " It is chained from `" << collapse_ws(s.cause) << "`.";
  if (!s.function_doc.empty()) doc << " " << caller << ": " << first_sentence(s.function_doc);
  r.documentation = doc.str();

  // triggerScenarios: the call that reaches it and the inputs the guard tests.
  std::ostringstream trig;
  trig << "Calling `" << call << "`";
  if (!tested_params.empty()) {
    trig << " with ";
    for (std::size_t i = 0; i < tested_params.size(); ++i) trig << (i ? ", " : "") << "`" << tested_params[i] << "`";
    trig << " such that `" << cond << "`";
  } else if (g) {
    trig << " in a state where `" << rename_self(cond, inst) << "`";
  }
  if (ex) trig << (g ? " and " : " when ") << "the operation inside its try block fails with " << ex->condition;
  trig << ".";
  r.trigger_scenarios = trig.str();

  // commonSituations: by category, naming the function the user called.
  std::string entry = s.function.empty() ? "importing " + r.file_path : "`" + call + "`";
  if (r.error_type == "validation" || r.error_type == "type")
    r.common_situations = "Passing an argument of the wrong " + std::string(r.error_type == "type" ? "type" : "value") +
                          " to " + entry + ", often from user input, a config file or a changed caller.";
  else if (r.error_type == "lookup")
    r.common_situations = "Asking " + entry + " for a name, key or index that does not exist (a typo, or data from another version).";
  else if (r.error_type == "io" || r.error_type == "permission")
    r.common_situations = "Running " + entry + " against a file or path that is missing, unreadable or of the wrong kind.";
  else if (r.error_type == "dependency")
    r.common_situations = "Running " + entry + " in an environment that lacks an optional module or has the wrong version of it.";
  else if (r.error_type == "deprecation")
    r.common_situations = "Code written for an older release keeps calling " + entry + " the old way.";
  else if (r.error_type == "unsupported")
    r.common_situations = "Calling " + entry + " on a class or platform that does not implement it.";
  else if (r.error_type == "network" || r.error_type == "timeout")
    r.common_situations = "Calling " + entry + " when the peer is slow, unreachable or closes the connection.";
  else
    r.common_situations = "Calling " + entry + " when the object is not in the state it expects (wrong order of calls, reuse after close).";

  // solutions, most likely first: satisfy the guard.
  r.solutions.clear();
  if (g) r.solutions.push_back("Make sure `" + rename_self(ok_cond, inst) + "` holds before " + (s.function.empty() ? "this code runs" : "calling " + caller));
  if (!tested_params.empty()) {
    std::string list;
    for (std::size_t i = 0; i < tested_params.size(); ++i) list += (i ? ", " : "") + std::string("`") + tested_params[i] + "`";
    r.solutions.push_back("Check the value passed as " + list + " against what " + caller + " accepts");
  }
  if (ex) r.solutions.push_back("Fix the underlying " + ex->condition + " that " + caller + " turns into " + r.error_class);
  if (r.error_type == "dependency") r.solutions.push_back("Install or upgrade the module the message names");
  if (s.reraise) r.solutions.push_back("Read the chained traceback: the re-raised exception names the real cause");
  r.solutions.push_back("Read the message: it says which value " + caller + " rejected");

  // Code fields: every one must parse as Python.
  std::string guard_code = g ? rename_self(ok_cond, inst) : "";
  if (g && !tested_params.empty()) {
    r.validation_code = "if not (" + guard_code + "):\n    raise " + (r.error_type == "type" ? std::string("TypeError") : std::string("ValueError")) +
                        "(\"invalid input for " + s.function + "\")\n" + call;
  } else if (g) {
    r.validation_code = "if " + guard_code + ":\n    " + call;
  } else {
    r.validation_code = std::nullopt;
  }
  bool isinstance_guard = g && g->condition.find("isinstance(") != std::string::npos;
  if (isinstance_guard || r.error_type == "type") {
    r.type_guard = g ? "if " + guard_code + ":\n    " + call : std::optional<std::string>{};
  } else {
    r.type_guard = std::nullopt;
  }
  std::string catch_cls = r.error_class.empty() ? "Exception" : r.error_class;
  if (r.severity == "warning") {
    r.try_catch_pattern = "import warnings\nwith warnings.catch_warnings():\n    warnings.simplefilter(\"error\", " + catch_cls +
                          ")\n    try:\n        " + call + "\n    except " + catch_cls + " as exc:\n        print(f\"warned: {exc}\")";
  } else {
    r.try_catch_pattern = "try:\n    " + call + "\nexcept " + catch_cls + " as exc:\n    print(f\"" +
                          (s.function.empty() ? std::string("failed") : s.function + " failed") + ": {exc}\")\n    raise";
  }
  std::ostringstream fix;
  fix << "# before\n" << call << "  # " << r.error_class << (g ? ": " + rename_self(cond, inst) : std::string()) << "\n\n# after\n";
  if (g) fix << "if " << guard_code << ":\n    " << call;
  else fix << call << "  # with inputs it accepts";
  r.example_fix = fix.str();

  if (r.severity == "warning") r.handling_strategy = r.error_type == "deprecation" ? "upgrade" : "validation";
  else if (isinstance_guard || r.error_type == "type") r.handling_strategy = "type-guard";
  else if (r.error_type == "network" || r.error_type == "timeout") r.handling_strategy = "retry";
  else if (r.error_type == "dependency") r.handling_strategy = "upgrade";
  else if (r.error_type == "io" || r.error_type == "lookup") r.handling_strategy = g ? "validation" : "fallback";
  else if (g) r.handling_strategy = "validation";
  else r.handling_strategy = "propagate";

  r.prevention_tips.clear();
  if (g) r.prevention_tips.push_back("Keep `" + rename_self(ok_cond, inst) + "` true in the code that calls " + caller);
  if (!s.function_doc.empty()) r.prevention_tips.push_back("Follow the documented contract of " + caller);
  r.prevention_tips.push_back("Catch " + catch_cls + " only where you can act on it; let it propagate elsewhere");

  r.tags = make_tags(s, r);
  r.background_tag = std::nullopt;
}

}  // namespace errdex::analyze
