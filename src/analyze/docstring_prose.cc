#include "analyze/docstring_prose.h"

#include <algorithm>
#include <cctype>

#include "analyze/situation.h"
#include "analyze/static_prose.h"
#include "util/text.h"

namespace errdex::analyze {
namespace {

constexpr std::size_t k_max_summary = 240;
constexpr std::size_t k_max_sentence = 300;

// reST inline markup as Markdown code spans: ``x`` → `x`, :role:`~a.b` →
// `a.b`, `x` stays; a backtick left alone (unbalanced) becomes a quote so
// that it cannot open a span on the page.
std::string as_code_spans(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "``") == 0) {
      std::size_t end = s.find("``", i + 2);
      if (end != std::string_view::npos && end > i + 2) {
        out += "`" + std::string(s.substr(i + 2, end - i - 2)) + "`";
        i = end + 2;
        continue;
      }
    }
    if (s[i] == ':' && i + 1 < s.size() && std::isalpha(static_cast<unsigned char>(s[i + 1]))) {
      // :role:`target` or :py:meth:`target`
      std::size_t j = i + 1;
      while (j < s.size() && (util::is_word_char(s[j]) || s[j] == ':' || s[j] == '-')) ++j;
      if (j < s.size() && s[j] == '`' && s[j - 1] == ':') {
        std::size_t end = s.find('`', j + 1);
        if (end != std::string_view::npos) {
          std::string target(s.substr(j + 1, end - j - 1));
          if (!target.empty() && (target[0] == '~' || target[0] == '.' || target[0] == '!')) target.erase(0, 1);
          // `text <target>`: the text is what a reader sees.
          if (auto lt = target.find(" <"); lt != std::string::npos && target.back() == '>') target.resize(lt);
          out += "`" + target + "`";
          i = end + 1;
          continue;
        }
      }
    }
    if (s[i] == '`') {
      std::size_t end = s.find('`', i + 1);
      // `name' (the old quoting style): a quote, not a code span.
      std::size_t apostrophe = s.find('\'', i + 1);
      if (apostrophe != std::string_view::npos && apostrophe < end && apostrophe > i + 1 &&
          s.substr(i + 1, apostrophe - i - 1).find(' ') == std::string_view::npos) {
        out += '\'';
        ++i;
        continue;
      }
      if (end != std::string_view::npos && end > i + 1) {
        out += s.substr(i, end - i + 1);
        i = end + 1;
        continue;
      }
      out += '\'';
      ++i;
      continue;
    }
    out += s[i++];
  }
  return out;
}

// A first line that only restates the call: `name(args)` or `name(args) -> x`.
bool is_signature_line(std::string_view line) {
  line = util::trim(line);
  std::size_t i = 0;
  while (i < line.size() && (util::is_word_char(line[i]) || line[i] == '.')) ++i;
  if (i == 0 || i >= line.size() || line[i] != '(') return false;
  std::size_t close = line.rfind(')');
  if (close == std::string_view::npos) return false;
  std::string_view rest = util::trim(line.substr(close + 1));
  return rest.empty() || rest.starts_with("->");
}

// The paragraphs of a docstring (blank-line separated), each collapsed to
// one line; doctest examples and everything after them dropped.
std::vector<std::string> paragraphs(std::string_view doc) {
  std::vector<std::string> out;
  std::string cur;
  bool first_line = true;
  auto flush = [&] {
    std::string p = util::collapse_ws(cur);
    if (!p.empty()) out.push_back(std::move(p));
    cur.clear();
  };
  for (std::size_t at = 0; at <= doc.size();) {
    std::size_t nl = doc.find('\n', at);
    if (nl == std::string_view::npos) nl = doc.size();
    std::string_view line = doc.substr(at, nl - at);
    at = nl + 1;
    std::string_view t = util::trim(line);
    if (t.starts_with(">>>")) break;
    if (first_line && is_signature_line(t)) {
      first_line = false;
      continue;
    }
    first_line = false;
    if (t.empty()) {
      flush();
      continue;
    }
    cur += ' ';
    cur += t;
  }
  flush();
  return out;
}

// Sentences of one paragraph: ends at '.', '!' or '?' before a space
// (not after "e.g", "i.e", "etc" or inside a code span).
std::vector<std::string> sentences(const std::string& p) {
  std::vector<std::string> out;
  std::size_t start = 0;
  bool in_code = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '`') in_code = !in_code;
    if (in_code || (p[i] != '.' && p[i] != '!' && p[i] != '?')) continue;
    if (i + 1 < p.size() && p[i + 1] != ' ') continue;
    std::string_view before = std::string_view(p).substr(start, i - start);
    if (before.ends_with("e.g") || before.ends_with("i.e") || before.ends_with("etc") || before.ends_with("vs"))
      continue;
    out.emplace_back(util::trim(std::string_view(p).substr(start, i + 1 - start)));
    start = i + 1;
  }
  std::string_view rest = util::trim(std::string_view(p).substr(std::min(start, p.size())));
  if (!rest.empty()) out.emplace_back(rest);
  return out;
}

std::string bounded(std::string s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t cut = s.rfind(' ', max - 3);
  if (cut == std::string::npos || cut < max / 2) cut = max - 3;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  s.resize(cut);
  // An open code span would swallow what follows.
  if (std::count(s.begin(), s.end(), '`') % 2) s.erase(s.rfind('`'), 1);
  return s + "...";
}

// A sentence ends with a full stop (a summary written as a heading,
// "Deserialize s", or ending in ':' before a list, gets one).
std::string as_sentence(std::string s) {
  while (!s.empty() && (s.back() == ':' || s.back() == ',' || s.back() == ';')) s.pop_back();
  if (!s.empty() && s.back() != '.' && s.back() != '!' && s.back() != '?') s += '.';
  return s;
}

}  // namespace

std::string doc_summary(std::string_view doc) {
  auto ps = paragraphs(doc);
  if (ps.empty()) return {};
  auto ss = sentences(as_code_spans(ps.front()));
  if (ss.empty()) return {};
  std::string s = bounded(ss.front(), k_max_summary);
  // A word or two ("Constructor.", "Helper") says nothing of its own.
  if (std::count(s.begin(), s.end(), ' ') < 2) return {};
  return as_sentence(std::move(s));
}

std::vector<std::string> doc_sentences_naming(std::string_view doc, const std::vector<std::string>& words,
                                              std::size_t max) {
  std::vector<std::string> out;
  bool summary = true;
  for (const auto& p : paragraphs(doc)) {
    for (auto& s : sentences(as_code_spans(p))) {
      if (summary) {  // the summary is doc_summary's
        summary = false;
        continue;
      }
      if (out.size() >= max) return out;
      // A field list entry of another name (":param other: ...") is not about these.
      if (s.starts_with(":") && !std::any_of(words.begin(), words.end(), [&](const std::string& w) {
            return util::contains_word(s.substr(0, s.find(':', 1) + 1), w);
          }))
        continue;
      if (std::any_of(words.begin(), words.end(), [&](const std::string& w) { return util::contains_word(s, w); }))
        out.push_back(as_sentence(bounded(std::move(s), k_max_sentence)));
    }
  }
  return out;
}

const model::Docstring* find_docstring(const std::vector<model::Docstring>& docs, std::string_view kind,
                                       std::string_view name) {
  const model::Docstring* suffix = nullptr;
  int suffixes = 0;
  for (const auto& d : docs) {
    if (d.kind != kind) continue;
    if (d.name == name) return &d;
    if (d.name.size() > name.size() && std::string_view(d.name).ends_with(name) &&
        d.name[d.name.size() - name.size() - 1] == '.') {
      suffix = &d;
      ++suffixes;
    }
  }
  return suffixes == 1 ? suffix : nullptr;
}

void DocstringIndex::add(std::string_view path, const std::vector<model::Docstring>& docs) {
  if (!path.ends_with(".py")) return;
  std::string module(path.substr(0, path.size() - 3));
  if (module.ends_with("/__init__")) module.resize(module.size() - 9);
  else if (module == "__init__") module.clear();
  std::replace(module.begin(), module.end(), '/', '.');
  const std::size_t file = m_files.size();
  m_files.push_back({&docs, {}, false});
  // Every suffix of the module path, at each dot (none for the root's
  // __init__.py, whose names have no module part).
  for (std::size_t at = 0; at < module.size();) {
    m_files_by_module[module.substr(at)].push_back(file);
    std::size_t dot = module.find('.', at);
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
}

const model::Docstring* DocstringIndex::named(std::string_view dotted, int& seen) const {
  seen = 0;
  const model::Docstring* found = nullptr;
  std::string module;
  // Each dot splits the name into a module part and a name in the file.
  for (std::size_t dot = dotted.find('.'); dot != std::string_view::npos; dot = dotted.find('.', dot + 1)) {
    module.assign(dotted.substr(0, dot));
    auto files = m_files_by_module.find(module);
    if (files == m_files_by_module.end()) continue;
    const std::string_view name = dotted.substr(dot + 1);
    for (std::size_t f : files->second) {
      const File& file = m_files[f];
      if (!file.sorted) {
        for (const auto& d : *file.docs)
          if (d.kind != "module") file.by_name.emplace_back(d.name, &d);
        std::sort(file.by_name.begin(), file.by_name.end());
        file.sorted = true;
      }
      auto it = std::lower_bound(file.by_name.begin(), file.by_name.end(), name,
                                 [](const auto& entry, std::string_view n) { return entry.first < n; });
      for (; it != file.by_name.end() && it->first == name; ++it) {
        if (it->second == found) continue;  // one file added twice
        found = it->second;
        if (++seen > 1) return nullptr;
      }
    }
  }
  return found;
}

const model::Docstring* DocstringIndex::find(std::string_view dotted) const {
  int seen = 0;
  const model::Docstring* d = named(dotted, seen);
  if (seen == 0) d = named(std::string(dotted) + ".__init__", seen);
  return seen == 1 ? d : nullptr;
}

void write_entry_point_prose(model::ErrorRecord& r, const DocstringIndex& docs) {
  for (const auto& e : r.evidence.entry_points) {
    if (e.chain.size() < 2 || e.name.empty()) continue;  // the raising function itself
    std::string through;
    for (std::size_t i = 1; i + 1 < e.chain.size(); ++i) through += (i > 1 ? " → `" : "`") + e.chain[i] + "`";
    const model::Docstring* d = docs.find(e.name);
    std::string sum = d ? doc_summary(d->text) : "";
    // The public call leads triggerScenarios when no docstring does yet.
    if (!sum.empty() && r.trigger_scenarios.find("docstring reads: ") == std::string::npos) {
      std::string lead = "Calling `" + e.name + "` reaches it" + (through.empty() ? "" : " through " + through) +
                         "; its docstring reads: " + sum;
      r.trigger_scenarios = lead + (r.trigger_scenarios.empty() ? "" : " " + r.trigger_scenarios);
      return;
    }
    std::string sentence = "Callers reach it from `" + e.name + "`" + (through.empty() ? "" : " (through " + through + ")");
    sentence += sum.empty() ? "." : ", whose docstring reads: " + sum;
    // What the public call is for says what callers are doing; a sentence
    // that says only the error's category adds nothing to it.
    if (!sum.empty() && is_category_situation(r.common_situations)) r.common_situations.clear();
    r.common_situations = sentence + (r.common_situations.empty() ? "" : " " + r.common_situations);
    return;
  }
}

}  // namespace errdex::analyze
