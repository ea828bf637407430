// What JavaScript prints, across the files of one scan: code-keyed
// message tables and classes that do not name themselves (link_javascript
// in frontend.h).
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "scan/javascript/frontend.h"
#include "scan/javascript/text.h"
#include "scan/template.h"
#include "scan/tree_walk.h"
#include "util/text.h"

namespace errdex::scan {

using model::ClassDef;
using model::MessageTemplate;
using model::TemplatePart;
using model::ThrowSite;

namespace {

// The text of a plain quoted string argument (`'write'`), else nullopt.
std::optional<std::string> plain_string(std::string_view arg) {
  if (arg.size() < 2 || (arg.front() != '\'' && arg.front() != '"') || arg.back() != arg.front()) return std::nullopt;
  std::string_view inner = arg.substr(1, arg.size() - 2);
  if (inner.find_first_of("\\'\"") != std::string_view::npos) return std::nullopt;
  return std::string(inner);
}

// `this.request`, `options.url`: a name and its properties.
bool is_dotted_name(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.' || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '$' || c == '.'; });
}

// What an argument shows in a message: a plain string's text, else the
// expression as an interpolation.
TemplatePart argument_part(const std::string& a) {
  if (auto lit = plain_string(a)) return TemplatePart{true, *lit, {}, 0};
  // A whole number as written in decimal prints its digits.
  if (!a.empty() && a.size() < 16 && std::all_of(a.begin(), a.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
      (a.size() == 1 || a[0] != '0'))
    return TemplatePart{true, a, {}, 0};
  return interp(a);
}

// The text object literal `object` (`{ header: prefix, message: 'x' }`)
// gives `key`: its value's, or the key's for a shorthand; nullopt when it
// gives none.
std::optional<std::string> object_value(std::string_view object, std::string_view key) {
  if (object.size() < 2 || object.front() != '{' || object.back() != '}') return std::nullopt;
  std::string_view body = object.substr(1, object.size() - 2);
  int depth = 0;
  char quote = 0;
  std::size_t from = 0;
  for (std::size_t i = 0; i <= body.size(); ++i) {
    const char c = i < body.size() ? body[i] : ',';
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 0) {
      std::string_view entry = body.substr(from, i - from);
      from = i + 1;
      while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
      while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
      if (entry == key) return std::string(key);
      if (entry.starts_with(key) && entry.substr(key.size()).starts_with(":")) {
        std::string_view value = entry.substr(key.size() + 1);
        while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        return std::string(value);
      }
    }
  }
  return std::nullopt;
}

// `${request.method}` of parameter `request`, passed `this.request`:
// `{this.request.method}`; passed an object literal, what it gives
// `method` (`message` as the site's message read it); any other
// interpolation as it is.
std::vector<TemplatePart> property_of_argument(const TemplatePart& p, const ClassDef& c, const ThrowSite& site) {
  const std::vector<std::string>& args = site.args;
  for (std::size_t j = 0; j < c.params.size() && j < args.size(); ++j) {
    const std::string& name = c.params[j].name;
    if (p.text.size() <= name.size() || !p.text.starts_with(name) || p.text[name.size()] != '.') continue;
    if (is_dotted_name(args[j])) {
      TemplatePart q = p;
      q.text = args[j] + p.text.substr(name.size());
      return {q};
    }
    const std::string_view key = std::string_view(p.text).substr(name.size() + 1);
    if (j == 0 && key == "message" && site.message.from_literals) return site.message.parts;
    if (auto value = object_value(args[j], key)) return {argument_part(*value)};
  }
  return {p};
}

// `entry`'s message for a site passing `args`.
std::vector<MessageTemplate> code_messages(const ClassDef& entry, const std::vector<std::string>& args) {
  std::vector<MessageTemplate> out;
  const bool spread = std::any_of(args.begin(), args.end(), [](const std::string& a) { return a.starts_with("..."); });
  for (const MessageTemplate& d : entry.display) {
    MessageTemplate t;
    t.style = d.style;
    t.from_literals = true;
    if (d.style == "percent" && d.parts.size() == 1 && d.parts[0].literal) {
      // util.format(msg, ...args); with no arguments the template as is.
      if (spread || args.empty()) {
        t.parts = d.parts;
      } else {
        for (TemplatePart& p : javascript::format_parts(d.parts[0].text, args))
          append_parts(t.parts, {p.literal ? std::move(p) : argument_part(p.text)});
      }
    } else {
      for (const TemplatePart& p : d.parts) {
        std::size_t k = 0;
        while (!p.literal && k < entry.params.size() && entry.params[k].name != p.text) ++k;
        if (p.literal || spread || k == entry.params.size() || k >= args.size())
          append_parts(t.parts, {p});
        else
          append_parts(t.parts, {argument_part(args[k])});
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

// Whether `arg`, an argument as written, is a plain string literal.
bool is_string_literal(std::string_view arg) {
  return arg.size() >= 2 && (arg.front() == '\'' || arg.front() == '"') && arg.back() == arg.front() &&
         arg.substr(1, arg.size() - 2).find_first_of("\\'\"") == std::string_view::npos;
}

// The table's text for the key `arg` writes (ClassParam::texts), or null.
const std::string* keyed_text(const model::ClassParam& p, std::string_view arg) {
  if (p.texts.empty() || !is_string_literal(arg)) return nullptr;
  const std::string_view key = arg.substr(1, arg.size() - 2);
  for (const auto& [k, text] : p.texts)
    if (k == key) return &text;
  return nullptr;
}

// Two definitions of a class name that print and format alike.
bool same_class(const ClassDef& a, const ClassDef& b) {
  if (a.names_itself != b.names_itself || a.bases != b.bases || a.display.size() != b.display.size() ||
      a.params.size() != b.params.size())
    return false;
  for (std::size_t k = 0; k < a.display.size(); ++k)
    if (template_text(a.display[k]) != template_text(b.display[k])) return false;
  for (std::size_t k = 0; k < a.params.size(); ++k)
    if (a.params[k].name != b.params[k].name) return false;
  return true;
}

}  // namespace

void offer_display(const ClassDef& c, ThrowSite& site) {
  if (c.display.empty()) return;
  // The display's parameters are the raising call's arguments in order;
  // the first one's text is the site's message as read.
  auto filled = [&](const MessageTemplate& d) {
    MessageTemplate out;
    out.style = d.style;
    out.from_literals = true;
    for (const TemplatePart& p : d.parts) {
      if (p.literal) {
        out.parts.push_back(p);
        continue;
      }
      std::size_t k = 0;
      while (k < c.params.size() && c.params[k].name != p.text) ++k;
      if (const std::string* entry = k < c.params.size() && k < site.args.size() ? keyed_text(c.params[k], site.args[k]) : nullptr) {
        append_parts(out.parts, {TemplatePart{true, *entry, {}, 0}});
      } else if (k < c.params.size() && k < site.args.size()) {
        if (k == 0 && site.message.from_literals)
          append_parts(out.parts, site.message.parts);
        else if (k < site.arg_messages.size() && !site.arg_messages[k].parts.empty())
          append_parts(out.parts, site.arg_messages[k].parts);
        else
          append_parts(out.parts, {argument_part(site.args[k])});
      } else if (k == c.params.size()) {
        append_parts(out.parts, property_of_argument(p, c, site));
      } else if (!c.params[k].default_text.empty()) {
        append_parts(out.parts, {TemplatePart{true, c.params[k].default_text, {}, 0}});
      } else {
        out.parts.push_back(p);
      }
    }
    return out;
  };
  // What the constructor gives `super` is the message: the call's own
  // arguments (`new DriverPackageNotInstalledError('SQLite', 'sqlite3')`)
  // are not.
  // A display that is one parameter (`super(msg || \`…\`)`) is the message
  // when the call passes that argument, and then the only one; else the
  // others are.
  auto parameter_of = [&](const MessageTemplate& d) {
    std::size_t k = c.params.size();
    if (d.parts.size() == 1 && !d.parts[0].literal)
      for (k = 0; k < c.params.size() && c.params[k].name != d.parts[0].text;) ++k;
    return k;
  };
  std::vector<MessageTemplate> shown;
  for (const MessageTemplate& d : c.display) {
    const std::size_t k = parameter_of(d);
    if (k == c.params.size()) {
      shown.push_back(filled(d));
    } else if (k < site.args.size() && !site.args[k].starts_with("...")) {
      shown.assign(1, filled(d));
      break;
    }
  }
  if (shown.empty()) return;
  site.message = std::move(shown.front());
  site.alternatives.clear();
  // A key not written in the call (`new MulterError(code)`): any entry.
  for (std::size_t k = 0; k < c.params.size() && k < site.args.size(); ++k)
    if (!c.params[k].texts.empty() && !keyed_text(c.params[k], site.args[k]) && !is_string_literal(site.args[k]))
      for (const auto& [key, text] : c.params[k].texts)
        if (site.alternatives.size() < 64) {
          MessageTemplate t;
          t.style = "variable";
          t.from_literals = true;
          t.parts.push_back(TemplatePart{true, text, {}, 0});
          site.alternatives.push_back(std::move(t));
        }
  for (std::size_t i = 1; i < shown.size() && site.alternatives.size() < 64; ++i)
    if (!same_parts(shown[i], site.message)) site.alternatives.push_back(std::move(shown[i]));
}

void link_javascript(std::vector<model::FileFacts>& files, const std::vector<bool>& javascript) {
  std::unordered_map<std::string_view, const ClassDef*> table;
  struct Defined {
    const ClassDef* cls = nullptr;  // nullptr: defined more than once, differently
    // Factories of that name each making this class (postcss's
    // `Input.error` and `Node.error`, both a CssSyntaxError); empty
    // when they differ or another definition is no factory.
    std::string_view made;
  };
  std::unordered_map<std::string_view, Defined> classes;
  for (std::size_t i = 0; i < files.size() && i < javascript.size(); ++i) {
    if (!javascript[i]) continue;
    for (const ClassDef& c : files[i].classes) {
      if (!c.code.empty()) {
        table.try_emplace(c.name, &c);
        continue;
      }
      // A package's builds (`src/errors.js`, `build/node/luxon.js`) define
      // one class several times alike: one class.
      const std::string_view made = c.factory && !c.bases.empty() ? std::string_view(c.bases.front()) : std::string_view{};
      auto [it, added] = classes.try_emplace(c.name, Defined{&c, made});
      if (added) continue;
      if (it->second.cls && !same_class(*it->second.cls, c)) it->second.cls = nullptr;
      if (it->second.made != made) it->second.made = {};
    }
  }
  // A class of another file that formats its message (`class
  // DriverPackageNotInstalledError extends TypeORMError { constructor(driver,
  // pkg) { super(\`${driver} package has not been found …\`) } }`, one file
  // per class): what its sites show. A class without a constructor of its
  // own is constructed by its base's.
  for (std::size_t i = 0; i < files.size() && i < javascript.size(); ++i) {
    if (!javascript[i]) continue;
    for (ThrowSite& site : files[i].sites) {
      std::string_view name = site.error_class;
      // `throw webidl.errors.exception({…})`: a factory a module assigns
      // to that member, by its whole name.
      if (auto it = classes.find(name); it == classes.end() || name.find('.') == std::string_view::npos)
        if (auto dot = name.rfind('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
      if (site.kind != "raise" || name.empty() || table.count(name)) continue;
      auto own = [&](const ClassDef& c) { return c.name == name; };
      if (std::any_of(files[i].classes.begin(), files[i].classes.end(), own)) continue;  // the file's own: done
      const ClassDef* c = nullptr;
      const bool called = site.raised_text.find('(') != std::string::npos;
      for (int hops = 0; hops < 4; ++hops) {
        auto it = classes.find(name);
        if (it != classes.end() && !it->second.cls && !it->second.made.empty() && hops == 0 && called) {
          // Several factories alike in the class they make: that class,
          // the message as the call writes it.
          site.error_class = std::string(it->second.made);
          break;
        }
        if (it == classes.end() || !it->second.cls) break;
        c = it->second.cls;
        if (!c->display.empty() || !c->params.empty() || c->bases.empty()) break;
        name = c->bases.front();
        if (auto dot = name.rfind('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
      }
      // A factory makes its error when called: `throw error` of a caught
      // `error` is none of a function `error`'s.
      if (!c || (c->factory && !called)) continue;
      offer_display(*c, site);
      // `throw createUnsupportedError('…')`: what the function returns.
      if (c->factory && !c->bases.empty()) site.error_class = c->bases.front();
    }
  }
  if (table.empty()) return;
  for (std::size_t i = 0; i < files.size() && i < javascript.size(); ++i) {
    if (!javascript[i]) continue;
    for (ThrowSite& site : files[i].sites) {
      std::string_view name = site.error_class;
      if (auto dot = name.rfind('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
      auto it = table.find(name);
      if (it == table.end() || site.kind != "raise") continue;
      const ClassDef& entry = *it->second;
      std::vector<MessageTemplate> messages = code_messages(entry, site.args);
      site.error_class = entry.bases.empty() ? "Error" : entry.bases.front();
      site.alternatives.clear();
      site.message = MessageTemplate{};  // its arguments are not the message
      if (!messages.empty()) {
        site.message = std::move(messages.front());
        for (std::size_t i = 1; i < messages.size() && site.alternatives.size() < 64; ++i)
          site.alternatives.push_back(std::move(messages[i]));
      }
      site.args.push_back("code='" + entry.code + "'");
    }
  }
}

}  // namespace errdex::scan
