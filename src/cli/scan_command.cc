// errdex scan: source → scan → analyze → store, as named passes.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>
#include <nlohmann/json.hpp>
#include <thread>

#include "analyze/analyst.h"
#include "analyze/call_graph.h"
#include "analyze/class_index.h"
#include "analyze/docstring_prose.h"
#include "analyze/lints.h"
#include "analyze/llm_analyst.h"
#include "cli/commands.h"
#include "cli/store_caches.h"
#include "cli/parallel.h"
#include "cli/progress.h"
#include "cli/scan_evidence.h"
#include "cli/phase_clock.h"
#include "cli/python_env.h"
#include "cli/scan_pipeline.h"
#include "cli/store_url.h"
#include "model/record_json.h"
#include "model/repo_name.h"
#include "model/restamp.h"
#include "scan/facts_json.h"
#include "scan/frontend.h"
#include "scan/javascript/frontend.h"
#include "scan/python/frontend.h"
#include "source/import_roots.h"
#include "source/source_tree.h"
#include "store/history.h"
#include "store/store.h"
#include "util/text.h"

namespace errdex::cli {
namespace {

bool is_full_sha(const std::string& s) {
  return s.size() == 40 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

}  // namespace

// What linking across files changed in a file's facts (pass 3), as text:
// JavaScript's linking rewrites anything, so all of its facts; Python's
// changes only sites' messages (a class of another file shows its own)
// and alternatives, so the facts its facts key names and each site's
// message and alternatives are the facts as linked.
std::string linked_facts_text(const model::FileFacts& facts, bool javascript) {
  if (javascript) return scan::facts_to_json(facts);
  std::string out;
  auto add = [&](const model::MessageTemplate& t) {
    out += t.style + '\0' + (t.from_literals ? '1' : '0') + std::to_string(t.parts.size()) + '\0';
    for (const auto& p : t.parts)
      out += std::to_string(p.text.size()) + ':' + p.text + std::to_string(p.display.size()) + ':' + p.display +
             (p.literal ? 'l' : 'i') + std::string(1, p.printf_conv);
  };
  for (const auto& s : facts.sites) {
    add(s.message);
    out += std::to_string(s.alternatives.size()) + '\n';
    for (const auto& t : s.alternatives) add(t);
  }
  return out;
}

// The records cache's key of one file (pass 4): the analyst's version,
// the repository and path (ids and excerpts name them), the file's facts
// key (the scanner's version and the content), what linking across files
// changed in them when it changed them (linked_facts_text), and how the
// repository's classes resolve its sites' classes.
std::string records_key(const std::string& repo, const std::string& path, const std::string& facts_key,
                        const model::FileFacts& facts, bool linked, bool javascript,
                        const analyze::ClassIndex& classes) {
  std::string seen = linked ? linked_facts_text(facts, javascript) : std::string();
  for (const auto& s : facts.sites) {
    auto res = classes.resolve(s.error_class, path);
    seen += '\n';
    for (const auto& c : res.chain) seen += c + ',';
    seen += '\0' + res.builtin + '\0' + res.defined_at;
  }
  return "records:" + std::string(analyze::analysis_version()) + ':' + repo + ':' + path + ':' + facts_key + ':' +
         util::hex64(util::fnv1a64(seen)) + ':' + std::to_string(seen.size());
}

// Records as the cache keeps them: one JSON object per line.
std::string records_to_lines(const std::vector<model::ErrorRecord>& records) {
  std::string out;
  for (const auto& r : records) {
    out += model::to_json(r);
    out += '\n';
  }
  return out;
}

// The cached records, stamped with this revision (analyze::stamp); false
// when any line does not read, and the file is then analyzed again.
bool records_from_lines(std::string_view text, const analyze::FileContext& ctx, std::vector<model::ErrorRecord>& out) {
  std::vector<model::ErrorRecord> records;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    auto r = model::record_from_json(text.substr(at, nl - at));
    if (!r) return false;
    analyze::stamp(*r, ctx);
    records.push_back(std::move(*r));
    at = nl + 1;
  }
  out = std::move(records);
  return true;
}

Expected<PipelineOutput> run_pipeline(const PipelineInput& a) {
  if (a.repo && !model::is_github_repo_name(*a.repo)) return Error{"--repo must be owner/name, got '" + *a.repo + "'"};
  if (a.sha && !is_full_sha(*a.sha)) return Error{"--sha must be 40 lowercase hex digits, got '" + *a.sha + "'"};
  PipelineOutput out;

  // Pass 1: open the tree at its revision and list what is worth reading.
  phase("1 list");
  source::Options options;
  options.extensions = scan::frontend_extensions();
  if (a.evidence) options.extensions.insert(options.extensions.end(), doc_extensions().begin(), doc_extensions().end());
  // A package.json names the files a user imports (evidence.entryPoints).
  if (a.evidence) options.extensions.push_back("package.json");
  auto tree = a.files ? source::open_files(a.path, *a.files, options) : source::open_tree(a.path, a.rev, options);
  if (!tree) return Error{tree.error()};
  std::vector<source::Entry> entries = (*tree)->list(out.skipped);
  std::string prefix = a.prefix ? *a.prefix : (*tree)->repo_path();
  // Doc files are evidence (evidence.docs), not scanned files.
  std::vector<source::Entry> doc_entries;
  std::vector<source::Entry> package_entries;
  if (a.evidence) {
    doc_entries = take_doc_files(entries, prefix);
    package_entries = take_package_files(entries, prefix);
  }
  // Test code raises on purpose: its errors are no user's. It is counted,
  // not listed with the skipped files, and read as evidence only.
  std::vector<char> is_test(entries.size(), 0);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    is_test[i] = source::is_test_path(source::path_in_repo(prefix, entries[i].path));
    out.test_files += is_test[i] && !a.include_tests;
  }
  // Each file's path as recorded: with the prefix, from the repository's top.
  std::vector<std::string> paths;
  paths.reserve(entries.size());
  for (const auto& e : entries) paths.push_back(source::path_in_repo(prefix, e.path));

  out.sha = a.sha ? *a.sha : (*tree)->sha();
  out.link_ref = out.sha;
  if (out.sha.empty()) {
    // Not in git and no --sha: forty zeros say "unknown" in the only form
    // the field allows; links then pin to --ref if given.
    out.sha = std::string(40, '0');
    out.link_ref = a.ref.value_or(out.sha);
  }
  out.repo = a.repo ? *a.repo : "local/" + std::filesystem::absolute(a.path).lexically_normal().filename().string();
  if (!a.repo && out.repo == "local/") out.repo = "local/root";
  out.analyzed_at = util::iso_now_ms();
  out.dirty = !a.rev && (*tree)->dirty();

  phase("2 parse");
  // Pass 2: read and parse each file on every core. Results land in
  // per-file slots so the dataset order does not depend on scheduling.
  int jobs = a.jobs > 0 ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<model::FileFacts> facts(entries.size());
  // Facts from the memo or the cache are shared, not copied: `facts[i]`
  // then holds a copy of what the later passes change or link across
  // files (sites; classes, which linking reads beside them) and `held[i]`
  // the rest, immutable (whole(i)). A JavaScript file's linking rewrites
  // anything: its facts are copied whole.
  std::vector<std::shared_ptr<const model::FileFacts>> held(entries.size());
  auto whole = [&](std::size_t i) -> const model::FileFacts& { return held[i] ? *held[i] : facts[i]; };
  auto share = [&](std::size_t i, std::shared_ptr<const model::FileFacts> known, const scan::Frontend& frontend) {
    if (frontend.language() != "python") {
      facts[i] = *known;
      return;
    }
    facts[i].sites = known->sites;
    facts[i].classes = known->classes;
    facts[i].had_syntax_errors = known->had_syntax_errors;
    held[i] = std::move(known);
  };
  std::vector<std::string> contents(entries.size());
  std::vector<std::optional<std::string>> problems(entries.size());
  // With the facts cache: each parsed file's facts key (its content's).
  std::vector<std::string> facts_keys(entries.size());
  std::atomic<std::size_t> parsed{0}, cached{0};
  // Facts parsed here that the cache did not hold, and the facts key of
  // each git blob read, by file: written in one transaction after the pass.
  std::vector<std::pair<std::string, std::string>> new_facts(a.facts_cache ? entries.size() : 0);
  std::vector<std::pair<std::string, std::string>> new_blobs(a.facts_cache ? entries.size() : 0);
  ScanMemo* memo = a.facts_cache ? a.memo : nullptr;
  // The facts under `key`: this process's memory first, then the cache.
  auto known_facts = [&](const std::string& key) -> std::shared_ptr<const model::FileFacts> {
    if (memo) {
      std::lock_guard lock(memo->mutex);
      if (auto kept = memo->facts.find(key)) return kept;
    }
    auto text = a.facts_cache->get(key);
    if (!text) return nullptr;
    auto read = scan::facts_from_json(*text);
    if (!read) return nullptr;
    auto shared = std::make_shared<const model::FileFacts>(std::move(*read));
    if (memo) {
      std::lock_guard lock(memo->mutex);
      memo->facts.put(key, shared);
    }
    return shared;
  };
  {
    // Largest files first: a bundle of megabytes started last would keep
    // one core busy alone after the others ran out of files.
    std::vector<std::size_t> order(entries.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return entries[x].size > entries[y].size; });
    Progress progress(a.progress ? "scan" : "", a.progress ? entries.size() : 0);
    const std::size_t incremental_before = memo ? memo->trees.reused() : 0;
    parallel_for(entries.size(), jobs, [&](std::size_t k) {
      const std::size_t i = order[k];
      const scan::Frontend* frontend = scan::frontend_for(entries[i].path);
      // A test file is read for its expectations; with --include-tests
      // it gives records too.
      const bool evidence_only = is_test[i] && !a.include_tests;
      if (evidence_only && (!a.evidence || !frontend || !frontend->reads_tests())) {
        progress.tick();
        return;
      }
      // Listed for its extension but read by no frontend (`.d.ts`, a
      // `.min.js` bundle): its bytes are not needed, so not read. A bundle
      // is said among the skipped files.
      if (!frontend) {
        if (std::string_view why = scan::unread_by_name(entries[i].path); !why.empty()) problems[i] = std::string(why);
        progress.tick();
        return;
      }
      // What the facts of a content depend on besides its bytes.
      const std::string mode = std::string(scan::scanner_version()) + ':' + std::string(frontend->language()) +
                               (is_test[i] ? evidence_only ? ":tests:" : ":tests+sites:" : ":");
      // A git blob seen before (this revision's file unchanged since a
      // scanned one) is neither read nor parsed: its content's facts key
      // is known. Its content is read later only if it is analyzed again.
      std::string blob_key;
      if (a.facts_cache && !entries[i].blob.empty()) {
        // With evidence a file without sites is still read (for its
        // calls), so what a blob gave depends on it.
        blob_key = "blob:" + mode + (a.evidence ? "calls:" : "") + entries[i].blob;
        std::optional<std::string> key;
        if (memo) {
          std::lock_guard lock(memo->mutex);
          if (auto it = memo->blob_facts.find(blob_key); it != memo->blob_facts.end()) key = it->second;
        }
        if (!key) key = a.facts_cache->get(blob_key);
        if (key && key->starts_with('-')) {  // not worth parsing; "-why" when not read for a reason
          if (key->size() > 1) problems[i] = key->substr(1);
          progress.tick();
          return;
        }
        if (key)
          if (auto known = known_facts(*key)) {
            // Read for the call graph only: no sites, not counted.
            const bool calls_only = key->compare(mode.size(), 6, "calls:") == 0;
            share(i, std::move(known), *frontend);
            facts_keys[i] = std::move(*key);
            parsed += !evidence_only && !calls_only;
            cached += !evidence_only && !calls_only;
            progress.tick();
            return;
          }
      }
      auto content = (*tree)->read(entries[i]);
      if (content && content->size() <= options.max_file_size) source::decode_declared_encoding(*content);
      if (!content) {
        problems[i] = content.error();
      } else if (auto bad = source::content_problem(*content, options)) {
        problems[i] = *bad;
      } else if (std::string_view why = frontend->unread_reason(*content); !why.empty()) {
        problems[i] = std::string(why);
        if (!blob_key.empty()) new_blobs[i] = {blob_key, "-" + std::string(why)};
      } else if (is_test[i] || a.evidence || frontend->worth_parsing(*content)) {
        // A file that holds no site is read for the call graph only (its
        // functions' calls), with evidence.
        const bool calls_only = !is_test[i] && !frontend->worth_parsing(*content);
        parsed += !evidence_only && !calls_only;
        std::string key;
        std::shared_ptr<const model::FileFacts> known;
        if (a.facts_cache) {
          key = mode + (calls_only ? "calls:" : "") + util::hex64(util::fnv1a64(*content)) + ':' +
                std::to_string(content->size());
          known = known_facts(key);
        }
        // A file parsed at an earlier revision of this command is parsed
        // from that tree.
        scan::ParsingFile parsing(memo ? &memo->trees : nullptr, paths[i]);
        const bool was_known = known != nullptr;
        if (known) {
          share(i, std::move(known), *frontend);
          cached += !evidence_only && !calls_only;
        } else if (calls_only) {
          facts[i] = frontend->scan_calls(*content);
        } else if (evidence_only) {
          facts[i] = frontend->scan_tests(*content);
        } else {
          facts[i] = is_test[i] ? frontend->scan_with_tests(*content) : frontend->scan(*content);
        }
        if (!was_known && a.facts_cache) {
          new_facts[i] = {key, scan::facts_to_json(facts[i])};
          if (memo) {
            auto shared = std::make_shared<const model::FileFacts>(std::move(facts[i]));
            facts[i] = {};
            {
              std::lock_guard lock(memo->mutex);
              memo->facts.put(key, shared);
            }
            share(i, std::move(shared), *frontend);
          }
        }
        if (!blob_key.empty()) new_blobs[i] = {blob_key, key};
        facts_keys[i] = std::move(key);
        // Only files with sites are analyzed; class definitions are all
        // that is kept of the others.
        if (!facts[i].sites.empty()) contents[i] = std::move(*content);
      } else if (!blob_key.empty()) {
        new_blobs[i] = {blob_key, "-"};
      }
      progress.tick();
    });
    if (memo) out.incremental = memo->trees.reused() - incremental_before;
  }
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (problems[i] && !(is_test[i] && !a.include_tests)) out.skipped.push_back({entries[i].path, *problems[i]});
  out.files = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) out.files += !problems[i] && !(is_test[i] && !a.include_tests);
  out.parsed = parsed.load();
  out.cached = cached.load();
  if (memo) {
    memo->trees.keep_only(paths);
    memo->prose.keep_only(paths);
  }
  if (a.facts_cache) {
    std::erase_if(new_blobs, [](const auto& kv) { return kv.first.empty(); });
    if (memo) {
      std::lock_guard lock(memo->mutex);
      for (const auto& [blob, key] : new_blobs) memo->blob_facts.emplace(blob, key);
    }
    std::erase_if(new_facts, [](const auto& kv) { return kv.first.empty(); });
    new_facts.insert(new_facts.end(), new_blobs.begin(), new_blobs.end());
    a.facts_cache->put_all(new_facts);
  }

  phase("3 classes, link");
  // Pass 3: the classes of the whole repository, so that a custom exception
  // defined in one file resolves to its base wherever it is raised. From
  // here on the index is only read.
  analyze::ClassIndex classes;
  for (std::size_t i = 0; i < entries.size(); ++i)
    classes.add(paths[i], facts[i].classes);  // a test file read as evidence has none
  out.classes = classes.size();
  {
    // Import roots as before test files were read: of the files that give records.
    std::vector<std::string> listed;
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (!is_test[i] || a.include_tests) listed.push_back(paths[i]);
    out.import_roots = source::import_roots(listed);
  }
  // A class raised in one file and defined in another shows there as it
  // does where it is defined.
  // Python's pass (scan/python/): a second language brings its own here.
  // It changes only sites' messages and alternatives: a file whose linked
  // text (linked_facts_text) is unchanged has the facts its facts key names.
  std::vector<std::uint64_t> before_linking(entries.size());
  auto linked_hash = [&](std::size_t i) {
    return facts[i].sites.empty() ? 0 : util::fnv1a64(linked_facts_text(facts[i], false));
  };
  for (std::size_t i = 0; i < entries.size(); ++i) before_linking[i] = linked_hash(i);
  // JavaScript's pass: before Python's, as it renames the classes. It
  // reads other files (code tables, classes that do not name themselves),
  // so a JavaScript file's records are keyed by its facts as linked.
  std::vector<bool> javascript(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const scan::Frontend* f = scan::frontend_for(paths[i]);
    javascript[i] = f && f->language() != "python";
  }
  scan::link_javascript_imported_constants(facts, javascript, paths);
  scan::link_javascript(facts, javascript);
  scan::link_javascript_caller_messages(facts, javascript, paths);
  std::vector<bool> python(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) python[i] = !javascript[i];
  {
    std::vector<const model::FileFacts*> whole_facts(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) whole_facts[i] = &whole(i);
    scan::link_imported_constants(facts, python, whole_facts, paths);
    scan::link_class_displays(facts, python, whole_facts, paths);
    scan::link_caller_messages(facts, python, whole_facts, paths);
    std::vector<std::string> module_names(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (python[i]) module_names[i] = analyze::module_name(paths[i], out.import_roots);
    scan::link_module_names(facts, python, module_names);
  }
  std::vector<char> linked(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i)
    linked[i] = javascript[i] || linked_hash(i) != before_linking[i];

  phase("4 analyze");
  // Pass 4: analyze each file's sites with the index (static analyst and
  // per-site lints). A file analyzed before (at another revision, in an
  // earlier scan) with the same content, the same facts and the same
  // resolution of its sites' classes gives the same records, stamped with
  // this revision: they come from the cache, as facts do.
  std::vector<std::vector<model::ErrorRecord>> per_file(entries.size());
  std::vector<std::pair<std::string, std::string>> new_records(a.facts_cache ? entries.size() : 0);
  std::atomic<std::size_t> reused{0};
  const std::size_t prose_before = memo ? memo->prose.reused.load() : 0;
  {
    Progress progress(a.progress ? "analyze" : "", a.progress ? entries.size() : 0);
    parallel_for(entries.size(), jobs, [&](std::size_t i) {
      if (!facts[i].sites.empty()) {
        analyze::FileContext ctx{out.repo, paths[i], out.sha, out.link_ref, out.analyzed_at,
                                 contents[i], &classes, &whole(i).docstrings, memo ? &memo->prose : nullptr};
        std::string key;
        bool known = false;
        if (a.facts_cache) {
          key = records_key(out.repo, paths[i], facts_keys[i], facts[i], linked[i], javascript[i], classes);
          std::shared_ptr<const std::vector<model::ErrorRecord>> held;
          if (memo) {
            std::lock_guard lock(memo->mutex);
            held = memo->records.find(key);
          }
          if (held) {
            per_file[i] = *held;
            for (auto& r : per_file[i]) analyze::stamp(r, ctx);
            known = true;
          } else if (auto text = a.facts_cache->get(key)) {
            known = records_from_lines(*text, ctx, per_file[i]);
            if (known && memo) {
              std::lock_guard lock(memo->mutex);
              memo->records.put(key, per_file[i]);
            }
          }
        }
        if (known) {
          ++reused;
        } else {
          if (contents[i].empty()) {
            // Its blob was known, so it was not read in pass 2.
            auto content = (*tree)->read(entries[i]);
            if (content) {
              if (content->size() <= options.max_file_size) source::decode_declared_encoding(*content);
              contents[i] = std::move(*content);
            }
            ctx.source = contents[i];
          }
          per_file[i] = analyze::analyze_file(ctx, facts[i].sites);
          if (a.facts_cache) {
            new_records[i] = {key, records_to_lines(per_file[i])};
            if (memo) {
              std::lock_guard lock(memo->mutex);
              memo->records.put(std::move(key), per_file[i]);
            }
          }
        }
        // analyze_file returns records in line order: put the facts in the same.
        std::stable_sort(facts[i].sites.begin(), facts[i].sites.end(),
                         [](const auto& x, const auto& y) { return x.line < y.line; });
      }
      progress.tick();
    });
  }
  out.reused = reused.load();
  if (memo) out.prose_reused = memo->prose.reused.load() - prose_before;
  if (memo) {
    memo->facts.next_revision();
    memo->records.next_revision();
  }
  if (a.facts_cache) {
    std::erase_if(new_records, [](const auto& kv) { return kv.first.empty(); });
    a.facts_cache->put_all(new_records);
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    for (auto& r : per_file[i]) out.records.push_back(std::move(r));
    for (auto& s : facts[i].sites) out.sites.push_back(std::move(s));
  }

  // Pass 5: the evidence of each record (cli/scan_evidence.h): its
  // tests, entry points and docs, over the whole repository's files, so
  // after the records cache (a file's evidence depends on other files).
  if (a.evidence) {
    // Where the tests ran from, as their interpreter printed paths.
    const std::string root = std::filesystem::absolute(a.path).lexically_normal().string();
    std::vector<const model::FileFacts*> whole_facts(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) whole_facts[i] = &whole(i);
    const EvidenceInput in{.tree = **tree,
                           .prefix = prefix,
                           .entries = entries,
                           .paths = paths,
                           .is_test = is_test,
                           .facts = whole_facts,
                           .held = held,
                           .facts_keys = facts_keys,
                           .doc_entries = doc_entries,
                           .package_entries = package_entries,
                           .import_roots = out.import_roots,
                           .classes = classes,
                           .blame = a.blame && a.rev.has_value(),
                           .observed = a.observed,
                           .root = root,
                           .facts_cache = a.facts_cache,
                           .memo = memo,
                           .jobs = jobs};
    const EvidenceCounts counts = add_evidence(in, out.sites, out.records);
    out.doc_files = counts.doc_files;
    out.blamed = counts.blamed;
    out.observed = counts.observed;
  }
  phase("5f entry prose");
  // The public call, or where callers come from, from the entry points
  // found, quoting their docstrings.
  if (std::any_of(out.records.begin(), out.records.end(),
                  [](const model::ErrorRecord& r) { return !r.evidence.entry_points.empty(); })) {
    analyze::DocstringIndex docs;
    for (std::size_t i = 0; i < entries.size(); ++i) docs.add(paths[i], whole(i).docstrings);
    for (auto& r : out.records) analyze::write_entry_point_prose(r, docs);
  }

  phase("6 lints");
  // Pass 6: lints that need the whole repository.
  std::vector<model::ErrorRecord*> all;
  all.reserve(out.records.size());
  for (auto& r : out.records) all.push_back(&r);
  analyze::lint_duplicates(all);
  return out;
}

// The name and version of the npm package whose folder `path` is: its
// package.json names it and the folder is no git work tree. nullopt
// otherwise, or when package.json is unreadable or has no name.
std::optional<std::pair<std::string, std::string>> npm_package_at(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir(path);
  if (!fs::is_regular_file(dir / "package.json", ec) || fs::exists(dir / ".git", ec)) return std::nullopt;
  std::ifstream in(dir / "package.json", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("name") || !j["name"].is_string()) return std::nullopt;
  std::string name = j["name"].get<std::string>();
  // npm's own rule, loosely: lower case, @scope/name at most, no spaces.
  if (name.empty() || name.size() > 214 || name.find_first_of(" \t\n\\") != std::string::npos ||
      std::count(name.begin(), name.end(), '/') > (name.starts_with('@') ? 1 : 0))
    return std::nullopt;
  std::string version = j.contains("version") && j["version"].is_string() ? j["version"].get<std::string>() : "";
  return std::pair(std::move(name), std::move(version));
}

// What one revision's scan stored, for a summary over many.
struct Stored {
  std::size_t files = 0, records = 0;
};

int scan_revision(const ScanArgs& a, const std::optional<std::string>& rev, analyze::AnswerCache* cache,
                  FactsCache* facts, ScanMemo* memo, const analyze::LlmOptions& llm, store::Store& st,
                  Stored* stored = nullptr);

// --python: the interpreter's standard library as python/cpython at
// v<version> (prefix Lib), and each installed distribution as
// pypi/<normalized name> at its version, from the files its RECORD lists.
// A (name, version) already stored is not scanned again; one that fails is
// reported and the others go on.
int scan_python(const ScanArgs& a, analyze::AnswerCache* cache, FactsCache* facts, ScanMemo* memo,
                const analyze::LlmOptions& llm, store::Store& st) {
  auto t0 = std::chrono::steady_clock::now();
  auto env = query_python(*a.python);
  if (!env) {
    std::cerr << "errdex scan: " << env.error() << "\n";
    return 2;
  }
  struct Job {
    std::string repo, version, path, prefix;
    std::optional<std::vector<std::string>> files;
  };
  std::vector<Job> jobs;
  jobs.push_back({"python/cpython", "v" + env->version, env->stdlib, "Lib", std::nullopt});
  std::vector<std::string> failed;
  for (const auto& d : env->distributions) {
    if (!d.error.empty()) {
      failed.push_back(d.name + ": " + d.error);
      continue;
    }
    std::string name = normalized_name(d.name);
    if (name.empty()) continue;
    if (d.editable) jobs.push_back({"pypi/" + name, d.version, *d.editable, "", std::nullopt});
    else if (!d.files.empty()) jobs.push_back({"pypi/" + name, d.version, d.root, "", d.files});
  }
  std::size_t scanned = 0, known = 0, files = 0, records = 0;
  {
    Progress bar(a.quiet ? "" : "distributions", a.quiet ? 0 : jobs.size());
    for (const auto& job : jobs) {
      bar.tick();
      if (auto have = st.revision(job.repo, job.version); have && *have && (*have)->first.ref == job.version) {
        ++known;
        continue;
      }
      ScanArgs one = a;
      one.python.reset();
      one.path = job.path;
      one.repo = job.repo;
      one.ref = job.version;
      one.prefix = job.prefix;
      one.files = job.files;
      // An editable install's files are imported from its folder itself.
      one.installed_at = job.path;
      one.quiet = true;
      one.report = false;
      Stored got;
      if (int code = scan_revision(one, std::nullopt, cache, facts, memo, llm, st, &got); code != 0) {
        failed.push_back(job.repo + " " + job.version + ": scan failed (exit " + std::to_string(code) + ")");
        continue;
      }
      ++scanned;
      files += got.files;
      records += got.records;
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (a.json) {
    nlohmann::json j = {{"python", env->version}, {"distributions", jobs.size() - 1}, {"scanned", scanned},
                        {"alreadyStored", known}, {"files", files}, {"records", records}, {"seconds", secs},
                        {"failed", failed}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::printf("indexed Python %s: the standard library and %zu distributions; %zu scanned (%zu files, %zu records), "
                "%zu already in the store, in %.2f s\n",
                env->version.c_str(), jobs.size() - 1, scanned, files, records, known, secs);
    for (const auto& f : failed) std::printf("  failed %s\n", f.c_str());
  }
  return 0;
}

int run_scan(const ScanArgs& a) {
  if (a.analyst != "static" && a.analyst != "llm") {
    std::cerr << "errdex scan: --analyst must be static or llm, got '" << a.analyst << "'\n";
    return 2;
  }
  analyze::LlmOptions llm;
  if (a.analyst == "llm") {
    if (a.llm_url.empty() || a.llm_model.empty()) {
      std::cerr << "errdex scan: --analyst llm needs --llm-url and --llm-model\n";
      return 2;
    }
    if (auto ep = analyze::parse_llm_url(a.llm_url); !ep) {
      std::cerr << "errdex scan: " << ep.error() << "\n";
      return 2;
    }
    llm.url = a.llm_url;
    llm.model = a.llm_model;
    llm.concurrency = a.llm_concurrency;
    llm.timeout_ms = static_cast<int>(a.llm_timeout * 1000);
    llm.max_retries = a.llm_retries;
  }

  if (a.path.empty() == !a.python) {
    std::cerr << "errdex scan: give a PATH to scan, or --python [INTERPRETER]\n";
    return 2;
  }
  if (a.ref && a.revs.size() + (a.revs_glob ? 1 : 0) > 1) {
    std::cerr << "errdex scan: --ref names one revision; several are named by their --rev\n";
    return 2;
  }
  // Every --rev named is looked up before any is scanned: a typo in the
  // second must not cost the scan of the first, nor store it alone.
  for (const auto& rev : a.revs)
    if (auto tree = source::open_tree(a.path, rev, {}); !tree) {
      std::cerr << "errdex scan: " << tree.error() << " (nothing scanned)\n";
      return 2;
    }
  // Read once, before the store is opened: a file that cannot be read
  // fails fast.
  std::shared_ptr<const analyze::Observations> observations;
  if (!a.observed.empty()) {
    // Lines of one version: another revision's raise lines are elsewhere.
    // A tag glob may match any number of revisions.
    if (a.python || a.revs_glob || a.revs.size() > 1) {
      std::cerr << "errdex scan: --observed is what the tests of one tree did: scan that one path or --rev\n";
      return 2;
    }
    if (a.no_evidence) {
      std::cerr << "errdex scan: --observed gives evidence.tests; it cannot go with --no-evidence\n";
      return 2;
    }
    auto read = analyze::read_observations(a.observed);
    if (!read) {
      std::cerr << "errdex scan: " << read.error() << "\n";
      return 2;
    }
    observations = std::make_shared<const analyze::Observations>(std::move(*read));
  }
  auto st = open_store_for_write(a.db);
  if (!st) {
    std::cerr << "errdex scan: " << st.error() << "\n";
    return 2;
  }
  // The store and the caches are opened before any work, so that a store
  // this user may not write, or one without a cache, fails fast.
  std::unique_ptr<analyze::AnswerCache> cache;
  if (a.analyst == "llm") {
    auto opened = open_llm_cache(a.db);
    if (!opened) {
      std::cerr << "errdex scan: " << opened.error() << "\n";
      return 2;
    }
    cache = std::move(*opened);
  }

  std::vector<std::optional<std::string>> revisions(a.revs.begin(), a.revs.end());
  if (a.revs_glob) {
    auto tags = source::matching_tags(a.path, *a.revs_glob);
    if (!tags) {
      std::cerr << "errdex scan: " << tags.error() << "\n";
      return 2;
    }
    if (tags->empty()) {
      std::cerr << "errdex scan: no tag matches '" << *a.revs_glob << "'\n";
      return 1;
    }
    revisions.insert(revisions.end(), tags->begin(), tags->end());
  }
  if (revisions.empty()) revisions.emplace_back();  // the folder as it is
  std::unique_ptr<FactsCache> facts;
  if (!a.no_cache) {
    auto opened = open_facts_cache(a.db);
    if (!opened) {
      std::cerr << "errdex scan: " << opened.error() << "\n";
      return 2;
    }
    facts = std::move(*opened);
  }
  // Kept between the revisions (and distributions) this command scans.
  // When the process ends with the scan, the memo is not freed: freeing
  // two revisions' facts, parse trees and records, and every stored
  // revision's sites, cost a scan of 20 sympy revisions about 2 % of its
  // CPU, for nothing.
  auto memo = std::make_unique<ScanMemo>();
  // --no-cache is the reference the caches are checked against: no
  // statement of a file is taken from its earlier scan either.
  memo->trees.reuse_scans(!a.no_cache);
  auto done = [&](int code) {
    if (a.exits_after) static_cast<void>(memo.release());
    return code;
  };
  if (a.python) return done(scan_python(a, cache.get(), facts.get(), memo.get(), llm, **st));
  // A published package (a folder holding package.json, not a git work
  // tree: node_modules/semver, an unpacked tarball) is npm/<name> at its
  // version unless --repo and --ref say otherwise.
  ScanArgs scan = a;
  scan.observations = observations;
  if (!a.repo && a.revs.empty() && !a.revs_glob)
    if (auto pkg = npm_package_at(a.path)) {
      // A scoped @scope/pkg is npm/@scope__pkg: a repository is owner/name,
      // and frames under node_modules/@scope/pkg read it so.
      std::string name = pkg->first;
      if (auto slash = name.find('/'); slash != std::string::npos) name.replace(slash, 1, "__");
      scan.repo = "npm/" + name;
      if (!scan.ref && !pkg->second.empty()) scan.ref = pkg->second;
    }
  // Each revision is its own dataset: one that fails is reported, and the
  // others are still scanned. A file unchanged since an earlier revision
  // (or an earlier scan) is not parsed again.
  int code = 0;
  for (const auto& rev : revisions)
    code = std::max(code, scan_revision(scan, rev, cache.get(), facts.get(), memo.get(), llm, **st));
  return done(code);
}

int scan_revision(const ScanArgs& a, const std::optional<std::string>& rev, analyze::AnswerCache* cache,
                  FactsCache* facts, ScanMemo* memo, const analyze::LlmOptions& llm, store::Store& st,
                  Stored* stored) {
  auto t0 = std::chrono::steady_clock::now();
  PipelineInput in{a.path, rev, a.repo, a.prefix, a.sha, a.ref, a.jobs, !a.quiet, a.include_tests, facts, memo, a.files};
  in.evidence = !a.no_evidence;
  in.blame = a.blame;
  in.observed = a.observations.get();
  auto run = run_pipeline(in);
  if (!run) {
    std::cerr << "errdex scan: " << run.error() << "\n";
    return 2;
  }
  PipelineOutput& out = *run;

  // Pass 7 (optional): the LLM rewrites the prose; its answers are cached
  // in the store's database.
  std::optional<analyze::LlmStats> llm_stats;
  if (cache) {
    std::vector<analyze::LlmJob> jobs;
    jobs.reserve(out.records.size());
    for (std::size_t i = 0; i < out.records.size(); ++i) jobs.push_back({&out.sites[i], &out.records[i]});
    Progress progress(a.quiet ? "" : "llm", a.quiet ? 0 : jobs.size());
    llm_stats = analyze::run_llm_analyst(llm, jobs, *cache, out.analyzed_at, [&] { progress.tick(); });
  }

  phase("8 site ids");
  // Pass 8: the revision's name (--ref, else the --rev asked for unless it
  // is the sha itself), and each site's key across revisions. A site whose
  // message changed since a stored revision keeps that revision's id.
  std::string ref = a.ref ? *a.ref : rev && !out.sha.starts_with(*rev) ? *rev : "";
  std::vector<std::string> keys(out.records.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    keys[i] = store::site_key(out.records[i].file_path, out.sites[i].class_name, out.sites[i].function);
  std::size_t kept_ids = 0;
  // A stored revision's sites are read once per command: the memo keeps
  // them, and the revisions this command stores.
  auto memo_key = [&](const store::Revision& r) {
    return out.repo + '\n' + r.sha + '\n' + r.ref + '\n' + r.dataset_version;
  };
  if (auto revisions = st.revisions(out.repo); revisions && !revisions->empty()) {
    // The stored revisions' sites, from the memo or else the store, each
    // read once per command.
    std::vector<std::vector<store::SiteAt>> read;
    auto sites_of = [&](const store::Revision& r) -> const std::vector<store::SiteAt>* {
      if (memo)
        if (auto it = memo->sites.find(memo_key(r)); it != memo->sites.end()) return &it->second;
      auto sites = st.revision(out.repo, r.ref.empty() ? r.sha : r.ref);
      if (!sites || !*sites) return nullptr;
      if (memo) return &(memo->sites[memo_key(r)] = std::move((*sites)->second));
      return &read.emplace_back(std::move((*sites)->second));
    };
    std::vector<std::string> names;
    for (const auto& r : *revisions) names.push_back(memo_key(r));
    store::SiteIdIndex fresh;
    store::SiteIdIndex* index = &fresh;
    std::size_t from = 0;
    if (memo) {
      // The revisions indexed before are still the first ones (a scan in
      // version order may store one before them: then all are added again).
      index = &memo->site_index;
      if (memo->site_index_of.size() <= names.size() &&
          std::equal(memo->site_index_of.begin(), memo->site_index_of.end(), names.begin())) {
        from = memo->site_index_of.size();
      } else {
        memo->site_index = {};
        memo->site_index_of.clear();
      }
    }
    for (std::size_t k = from; k < revisions->size(); ++k) {
      if (const auto* sites = sites_of((*revisions)[k])) index->add(*sites);
      if (memo) memo->site_index_of.push_back(names[k]);
    }
    kept_ids = index->keep(out.records, keys);
  }

  phase("9a json");
  // Pass 9: one transaction replaces the dataset of (repo, sha, ref). From
  // here on readers see the new records.
  if (a.installed_at) out.import_roots.push_back(*a.installed_at);
  store::Dataset ds{out.repo, out.sha, out.analyzed_at, std::move(out.records), out.import_roots, {}, ref, std::move(keys), {}};
  // Bodies (model/restamp.h) serialised on every core here, so the
  // transaction below only writes. A record as the last revision stored it
  // but for its stamp keeps that body, which the store holds already.
  // Its key too: the store need not hash it again.
  ds.record_bodies.resize(ds.records.size());
  ds.record_body_keys.resize(ds.records.size());
  // --no-cache serialises every record, as a reference for the cached scan.
  ScanMemo::Stored* last = memo && !a.no_cache && memo->last_stored.repo == out.repo ? &memo->last_stored : nullptr;
  std::atomic<std::size_t> restamped{0};
  // The last revision's bodies are moved, not copied (ids are unique on
  // both sides, so each is taken once): from here until pass 9c sets them
  // again, the memo holds no revision.
  if (memo) memo->last_stored.repo.clear();
  parallel_for(ds.records.size(), a.jobs > 0 ? a.jobs : std::max(1u, std::thread::hardware_concurrency()),
               [&](std::size_t i) {
                 if (last)
                   if (auto it = last->by_id.find(ds.records[i].id); it != last->by_id.end())
                     if (model::same_but_stamp(last->records[it->second], ds.records[i])) {
                       ds.record_bodies[i] = std::move(last->bodies[it->second]);
                       ds.record_body_keys[i] = std::move(last->body_keys[it->second]);
                       ++restamped;
                       return;
                     }
                 ds.record_bodies[i] = model::body_json(ds.records[i]);
                 ds.record_body_keys[i] = util::content_key(ds.record_bodies[i]);
               });
  phase("9b ingest");
  if (auto s = st.ingest(ds); !s) {
    std::cerr << "errdex scan: storing failed: " << s.error() << "\n";
    return 2;
  }
  if (memo) {
    std::vector<store::SiteAt> sites;
    sites.reserve(ds.records.size());
    for (std::size_t i = 0; i < ds.records.size(); ++i) {
      const auto& r = ds.records[i];
      sites.push_back({out.repo, ref, out.sha, r.id, r.file_path, r.error_class, r.error_message, ds.site_keys[i],
                       r.line_number});
    }
    // In dataset order, not Store::revision's: SiteIdIndex reads them as a set.
    memo->sites[memo_key(store::Revision{ref, out.sha, out.analyzed_at})] = std::move(sites);
  }
  phase("9c after");
  const std::size_t n_records = ds.records.size();
  std::map<std::string, std::size_t> by_rule;
  for (const auto& r : ds.records)
    for (const auto& l : r.lints) by_rule[l.rule]++;
  if (memo) {
    // From here on the records are the memo's.
    ScanMemo::Stored& kept = memo->last_stored;
    kept.repo = out.repo;
    kept.by_id.clear();
    for (std::size_t i = 0; i < n_records; ++i) kept.by_id.emplace(ds.records[i].id, i);
    kept.records = std::move(ds.records);
    kept.bodies = std::move(ds.record_bodies);
    kept.body_keys = std::move(ds.record_body_keys);
  }
  if (stored) *stored = {out.files, n_records};
  if (!a.report) return 0;
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::map<std::string, int> by_reason;
  for (const auto& s : out.skipped) by_reason[s.reason.substr(0, s.reason.find(':'))]++;
  if (a.json) {
    nlohmann::json j = {{"repo", out.repo},     {"sha", out.sha},       {"dirty", out.dirty},
                        {"files", out.files},   {"parsed", out.parsed}, {"records", n_records},
                        {"seconds", secs},      {"db", a.db},           {"classes", out.classes},
                        {"testFiles", out.test_files}, {"ref", ref}, {"keptIds", kept_ids},
                        {"cachedFiles", out.cached}, {"reusedFiles", out.reused}, {"restampedRecords", restamped.load()},
                        {"incrementalParses", out.incremental}, {"reusedProse", out.prose_reused}, {"docFiles", out.doc_files}, {"blamedFiles", out.blamed}};
    j["lints"] = by_rule;
    j["analyst"] = a.analyst;
    if (in.observed)
      j["observed"] = {{"observations", out.observed.observations},
                       {"linked", out.observed.linked},
                       {"records", out.observed.records},
                       {"unreadLines", in.observed->bad_lines}};
    if (llm_stats)
      j["llm"] = {{"model", llm.model},
                  {"requests", llm_stats->requests},
                  {"cacheHits", llm_stats->cache_hits},
                  {"rewritten", llm_stats->rewritten},
                  {"fieldsAccepted", llm_stats->fields_accepted},
                  {"fieldsRejected", llm_stats->fields_rejected},
                  {"failed", llm_stats->failed},
                  {"problems", llm_stats->problems}};
    j["skipped"] = nlohmann::json::array();
    for (const auto& s : out.skipped) j["skipped"].push_back({{"path", s.path}, {"reason", s.reason}});
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::string at = out.sha == std::string(40, '0')
                         ? out.link_ref != out.sha ? "no commit (a folder outside git; links pin to " + out.link_ref + ")"
                                                   : "no commit (a folder outside git: --ref or --sha pins its links)"
                         : out.sha.substr(0, 10);
    if (!ref.empty() && ref != out.link_ref) at = ref + " (" + at + ")";
    std::printf("scanned %s at %s%s: %zu files, %zu records in %.2f s\n", out.repo.c_str(), at.c_str(),
                out.dirty ? " (work tree has uncommitted changes)" : "", out.files, n_records, secs);
    if (out.cached)
      std::printf("%zu of the %zu files holding a raise or throw unchanged since an earlier scan: their facts came from "
                  "the cache%s\n",
                  out.cached, out.parsed,
                  out.reused ? (", and so did the records of " + std::to_string(out.reused) + " of them").c_str() : "");
    if (kept_ids)
      std::printf(kept_ids == 1 ? "%zu site whose message changed since a stored revision keeps its id\n"
                                : "%zu sites whose message changed since a stored revision keep their id\n",
                  kept_ids);
    if (out.test_files)
      std::printf("left out %zu test files (tests/, test/, testing/, test_*.py, *_test.py, conftest.py; "
                  "--include-tests keeps them)\n",
                  out.test_files);
    if (in.observed) {
      std::printf("observed: %zu of %zu errors the tests got were raised at a record's line: %zu records name a test "
                  "seen raising them\n",
                  out.observed.linked, out.observed.observations, out.observed.records);
      if (const std::size_t bad = in.observed->bad_lines)
        std::printf(bad == 1
                        ? "observed: %zu line could not be read (not JSON from errdex.observe) and was left out\n"
                        : "observed: %zu lines could not be read (not JSON from errdex.observe) and were left out\n",
                    bad);
    }
    if (!by_rule.empty()) {
      std::printf("lints:");
      for (const auto& [rule, n] : by_rule) std::printf(" %s %zu", rule.c_str(), n);
      std::printf(" (errdex lint lists them)\n");
    }
    if (llm_stats) {
      std::printf("llm %s: %zu records rewritten, %zu from cache, %zu requests, %zu fields kept static, %zu failed\n",
                  llm.model.c_str(), llm_stats->rewritten, llm_stats->cache_hits, llm_stats->requests,
                  llm_stats->fields_rejected, llm_stats->failed);
      for (const auto& p : llm_stats->problems) std::printf("  llm: %s\n", p.c_str());
    }
    if (!out.skipped.empty()) {
      std::printf("skipped %zu:", out.skipped.size());
      for (const auto& [reason, n] : by_reason) std::printf(" %s %d", reason.c_str(), n);
      std::printf("\n");
      constexpr std::size_t k_listed = 20;  // --json lists them all
      for (std::size_t i = 0; i < out.skipped.size() && i < k_listed; ++i)
        std::printf("  skip %s (%s)\n", out.skipped[i].path.c_str(), out.skipped[i].reason.c_str());
      if (out.skipped.size() > k_listed)
        std::printf("  ... %zu more (--json lists every one)\n", out.skipped.size() - k_listed);
    }
  }
  return 0;
}

}  // namespace errdex::cli
