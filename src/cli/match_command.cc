// errdex match: explains a pasted error or traceback with the throw sites
// that produce it.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/store_url.h"
#include "match/chain_cause.h"
#include "match/matcher.h"
#include "match/result_json.h"
#include "util/text.h"

namespace errdex::cli {
namespace {

using nlohmann::json;


// The first `lines` lines of a text, each at most `width` bytes.
std::string first_lines(const std::string& text, int lines, std::size_t width) {
  std::string out;
  std::size_t pos = 0;
  for (int i = 0; i < lines && pos < text.size(); ++i) {
    auto nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    if (line.size() > width) line = line.substr(0, width) + "…";
    out += "    " + line + "\n";
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

}  // namespace

int run_match(const std::string& db, const std::optional<std::string>& text_arg, bool as_json, int top,
              const std::optional<std::string>& repo, const std::optional<std::string>& ref) {
  if (ref && !repo) {
    std::cerr << "errdex match: --ref names a revision of the repository --repo names\n";
    return 2;
  }
  std::string text;
  if (text_arg) {
    text = *text_arg;
  } else {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  if (auto utf8 = util::from_utf16(text)) text = std::move(*utf8);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    std::cerr << "errdex match: nothing to match (give TEXT or pipe it on stdin)\n";
    return 2;
  }
  if (util::looks_binary(text)) {
    std::cerr << "errdex match: the input is not text (it holds NUL bytes or mostly control characters and bytes that "
                 "are not UTF-8): give an error message or a traceback\n";
    return 2;
  }

  auto st = open_store_for_read(db);
  if (!st) {
    std::cerr << "errdex match: " << st.error() << "\n";
    return 2;
  }
  auto repos = (*st)->repos();
  if (!repos) {
    std::cerr << "errdex match: " << repos.error() << "\n";
    return 2;
  }
  std::unordered_map<std::string, std::pair<std::string, std::string>> revision;  // repo -> (ref, sha)
  for (const auto& r : *repos) revision[r.repo] = {r.ref, r.sha};
  std::vector<model::ErrorRecord> records;
  // Without --ref, every stored revision: by record, its preference and
  // its revision's (ref, sha).
  std::vector<std::uint32_t> preference;
  std::vector<std::pair<std::string, std::string>> record_revision;
  if (ref) {
    // One revision: its records, named by it.
    auto at = (*st)->match_fields_at(*repo, *ref);
    auto rev = (*st)->revision(*repo, *ref);
    if (!at || !rev) {
      std::cerr << "errdex match: " << (!at ? at.error() : rev.error()) << "\n";
      return 2;
    }
    if (!*at || !*rev) {
      std::cerr << "errdex match: " << *repo << " has no revision " << *ref << " in the store\n";
      return 1;
    }
    records = std::move(**at);
    revision[*repo] = {(*rev)->first.ref, (*rev)->first.sha};
  } else {
    if (repo && revision.find(*repo) == revision.end()) {
      std::cerr << "errdex match: no repository " << *repo << " in the store\n";
      return 1;
    }
    auto fields = store::match_fields_all(**st, repo);
    if (!fields) {
      std::cerr << "errdex match: " << fields.error() << "\n";
      return 2;
    }
    records = std::move(fields->records);
    preference = std::move(fields->preference);
    for (std::uint32_t k : fields->revision_of) record_revision.emplace_back(fields->revisions[k].ref, fields->revisions[k].sha);
  }
  auto revision_of = [&](const model::ErrorRecord& r) {
    const auto k = static_cast<std::size_t>(&r - records.data());
    return k < record_revision.size() ? record_revision[k] : revision[r.repo];
  };

  // From here on the index is immutable.
  std::vector<std::string> refs;
  for (const auto& [ref, sha] : record_revision) refs.push_back(ref);
  match::Matcher matcher = match::Matcher::build(records, store::import_roots(*repos), preference, refs);
  match::MatchResult res = matcher.match(text, top);

  // When no indexed raise explains the last exception of a chain (the
  // program's own `raise AppError(…) from e`), the nearest cause one
  // explains is answered too.
  const std::optional<match::CauseMatch> cause =
      match::match_cause([&](std::string_view t) { return matcher.match(t, top); }, text, res);
  if (as_json) {
    match::ResultJsonSource src;
    src.record = [&](std::size_t i) { return i < records.size() ? &records[i] : nullptr; };
    src.revision = revision_of;
    std::cout << match::result_json(res, src, 2, cause ? &*cause : nullptr) << "\n";
    return res.candidates.empty() && !cause ? 1 : 0;
  }

  if (res.candidates.empty() && res.class_sites > 0 && !cause) {
    std::cerr << "errdex match: " << res.exception.error_class << " is raised by " << res.class_sites
              << " sites that print no text of their own; paste the whole traceback: its frames name the one\n";
    return 1;
  }
  if (res.candidates.empty() && !cause) {
    std::cerr << "errdex match: no throw site found for "
              << (res.exception.error_class.empty() ? std::string("this text") : std::string(res.exception.error_class)) << " among "
              << records.size() << " records\n";
    return 1;
  }
  // One exception's answers: its line, what qualifies them, the list.
  auto print_answers = [&](const match::MatchResult& m) {
    const std::string_view shown = m.exception.message.substr(0, 200);
    std::printf("%.*s%s%.*s\n", static_cast<int>(m.exception.error_class.size()), m.exception.error_class.data(),
                m.exception.error_class.empty() ? "" : ": ", static_cast<int>(shown.size()), shown.data());
    if (m.fulltext_fallback) std::printf("no pattern matched: ranked by full text\n");
    if (m.ambiguous) std::printf("ambiguous: the best score is shared by several sites\n");
    if (m.raised_below && !m.frames.empty()) {
      const auto& f = m.frames.back();
      std::string where = f.file + ":" + std::to_string(f.line) + (f.function.empty() ? "" : " in " + f.function);
      std::printf("raised below the innermost frame, %s%s%s%s: no site raises there; what that line calls with no frame of "
                  "its own (a built-in, C code) or the statement itself raised it.%s\n",
                  where.c_str(), f.source.empty() ? "" : " (", f.source.substr(0, 160).c_str(), f.source.empty() ? "" : ")",
                  m.candidates.front().reasons.pattern_text ? " These sites print the same message elsewhere:" : "");
    }
    switch (match::weakness(m)) {
      case match::Weakness::words:
        std::printf("weak: no class, frame or message pattern ties these sites to the text, only words they share: it may "
                    "be no error message of the indexed code\n");
        break;
      case match::Weakness::class_only:
        std::printf("weak: neither a frame's line nor the message's text agrees with any site, only the class: a built-in, "
                    "C code or a file not indexed may have raised it\n");
        break;
      case match::Weakness::placeholders:
        std::printf("weak: only the class ties these sites to the text: their message is all placeholders, which any text "
                    "fills, so nothing tells which of them raised it, or whether one did\n");
        break;
      case match::Weakness::none:
        break;
    }
    if (m.truncated) std::printf("input was cut: only its last part (or the message's first part) was read\n");
    int rank = 1;
    for (const auto& c : m.candidates) {
      const auto& r = records[c.index];
      std::string why;
      for (const auto& s : match::reason_words(c.reasons)) why += (why.empty() ? "" : ",") + s;
      auto [ref, sha] = revision_of(r);
      std::string at = r.repo + (ref.empty() ? "" : " " + ref);
      std::printf("\n%d. %s:%d  %s  [%s]  (%s)\n", rank++, r.file_path.c_str(), r.line_number, at.c_str(), why.c_str(),
                  r.id.c_str());
      if (!c.revisions.empty()) {
        std::string also;
        for (std::uint32_t k : c.revisions) {
          auto [oref, osha] = revision_of(records[k]);
          also += (also.empty() ? "" : ", ") + (oref.empty() ? osha.substr(0, 10) : oref) + ":" +
                  std::to_string(records[k].line_number);
        }
        std::printf("   also consistent with %s\n", also.c_str());
      }
      // A bare `raise` / `throw e` has neither class nor text of its own.
      // A message variant that matched is shown, with the record's own.
      const std::string& message = match::matched_message(r, c);
      if (r.error_class.empty() && message.empty())
        std::printf("   (raises again the error it caught)\n");
      else
        std::printf("   %s%s%s\n", r.error_class.c_str(), r.error_class.empty() || message.empty() ? "" : ": ",
                    message.c_str());
      if (&message != &r.error_message)
        std::printf("   (a variant of the record's message: %s)\n", r.error_message.c_str());
      if (c.wraps && *c.wraps < records.size()) {
        const auto& w = records[*c.wraps];
        std::printf("   raises again the %s written at %s:%d (%s)\n", w.error_class.c_str(), w.file_path.c_str(),
                    w.line_number, w.id.c_str());
      }
      for (const auto& [k, v] : match::shown_captures(c.captures)) {
        const std::string_view shown = v.substr(0, 200);
        std::printf("   %.*s = %.*s\n", static_cast<int>(k.size()), k.data(), static_cast<int>(shown.size()), shown.data());
      }
      if (!r.documentation.empty()) std::printf("%s", first_lines(r.documentation, 2, 160).c_str());
    }
  };
  print_answers(res);
  if (cause) {
    if (res.candidates.empty()) std::printf("no indexed raise explains it\n");
    std::printf("\n%s:\n", cause->direct ? "its cause, from which it was raised (`raise ... from`)"
                                        : "it was raised while handling");
    print_answers(cause->result);
  }
  return 0;
}

}  // namespace errdex::cli
