// errdex: the command line. Parsing only; each subcommand's work is in its
// run_* function, called after its arguments are validated.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "cli/store_url.h"
#include "model/record_json.h"
#include "model/repo_name.h"
#include "web/url.h"

int main(int argc, char** argv) {
  using namespace errdex::cli;
  CLI::App app{"errdex: turns source repositories into an error knowledge base.\n"
               "Exit codes: 0 ok/found, 1 not found, 2 error."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");
  std::string db = default_db();
  bool json = false;
  auto add_db = [&](CLI::App* c) {
    c->add_option("--db", db,
                  "Store URL (sqlite:PATH or postgresql://USER:PASSWORD@HOST:PORT/DB); default $ERRDEX_DB or "
                  "sqlite:data/errdex.db");
  };
  auto add_json = [&](CLI::App* c) { c->add_flag("--json", json, "Print data as JSON"); };
  // A malformed id or URL is a usage error (exit 2), as the API answers a
  // malformed id with 400: not a record that was looked for and not found.
  const CLI::Validator record_id(
      [](std::string& s) {
        auto id = errdex::model::record_id_of(s);
        if (!id) return "not a record id (16 hex digits): " + s;
        s = *id;  // capitals are the same id
        return std::string();
      },
      "ID");
  // So is a repository name that is not owner/name (what scan --repo and
  // import accept), as the API answers ?repo= with 400.
  const CLI::Validator repo_name(
      [](std::string& s) {
        return errdex::model::is_repo_name(s) ? std::string() : "not a repository name (owner/name): " + s;
      },
      "O/N");
  // A revision's name with a blank or nothing in it names none that can be
  // stored: a usage error, not a revision that is not found.
  const CLI::Validator ref_name(
      [](std::string& s) {
        return errdex::model::is_ref_name(s) ? std::string() : "not a revision's name (empty, or a blank in it): '" + s + "'";
      },
      "REF");
  const CLI::Validator http_url(
      [](std::string& s) {
        return errdex::web::is_http_url(s) ? std::string() : "not an http:// or https:// URL: " + s;
      },
      "URL");

  ScanArgs scan;
  auto* c_scan = app.add_subcommand("scan", "Scan a directory or a git revision into records");
  c_scan->add_option("path", scan.path, "Directory to scan (a work tree, a folder in one, or any folder); not with --python");
  c_scan->add_option("--rev", scan.revs,
                     "Git revision to read without checkout (sha, tag or branch); give several to store each")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  c_scan->add_option("--revs", scan.revs_glob, "Every tag matching a glob, e.g. 'v3.12.*', each stored as a revision");
  c_scan->add_option("--repo", scan.repo, "owner/name for ids and GitHub links (default local/<folder>)");
  c_scan->add_option("--prefix", scan.prefix, "Where the scanned folder sits in the repository, e.g. Lib");
  c_scan->add_option("--sha", scan.sha, "analyzedSha for a folder outside git (40 hex)");
  c_scan->add_option("--ref", scan.ref,
                     "For a folder outside git whose commit is unknown: the tag that GitHub links point at (v3.11.7)")->check(ref_name);
  c_scan->add_option("-j,--jobs", scan.jobs, "Worker threads (default: all cores)")->check(CLI::Range(0, 256));
  c_scan->add_flag("-q,--quiet", scan.quiet, "No progress bar");
  c_scan->add_option("--python", scan.python,
                     "Scan an interpreter's standard library and installed distributions, each at its version")
      ->expected(0, 1)
      ->default_str("python3");
  c_scan->add_flag("--no-cache", scan.no_cache, "Parse every file, even one whose facts an earlier scan cached");
  c_scan->add_flag("--include-tests", scan.include_tests,
                   "Records from test code too (tests/, test/, testing/, test_*.py, *_test.py, conftest.py)");
  c_scan->add_flag("--no-evidence", scan.no_evidence,
                   "No evidence: no test, doc or history read, no call graph (faster; no evidence)");
  c_scan->add_option("--observed", scan.observed,
                     "What `python3 -m errdex.observe` wrote while this tree's tests ran: each error a test got "
                     "links its record to the test (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  c_scan->add_flag("--blame", scan.blame,
                   "With --rev: the commit that introduced each raise line (evidence.introduced), by git blame");
  c_scan->add_option("--analyst", scan.analyst, "Who writes the prose: static (default, offline) or llm")
      ->check(CLI::IsMember({"static", "llm"}));
  c_scan->add_option("--llm-url", scan.llm_url, "OpenAI-compatible server for --analyst llm, e.g. http://127.0.0.1:8000");
  c_scan->add_option("--llm-model", scan.llm_model, "Model name sent to the server");
  c_scan->add_option("--llm-concurrency", scan.llm_concurrency, "Requests in flight at once (default 4)")
      ->check(CLI::Range(1, 256));
  c_scan->add_option("--llm-timeout", scan.llm_timeout, "Seconds per request (default 60)")->check(CLI::Range(0.1, 3600.0));
  c_scan->add_option("--llm-retries", scan.llm_retries, "Retries after 429/5xx, with backoff (default 3)")
      ->check(CLI::Range(0, 10));
  add_db(c_scan);
  add_json(c_scan);

  LintArgs lint;
  auto* c_lint = app.add_subcommand("lint", "Report messages that mislead (exit 1 when there are findings)");
  c_lint->add_option("path", lint.path, "Directory to lint (a work tree, a folder in one, or any folder)")->required();
  c_lint->add_option("--rev", lint.rev, "Git revision to read without checkout (sha, tag or branch)");
  c_lint->add_option("--repo", lint.repo, "owner/name (default local/<folder>)");
  c_lint->add_option("--prefix", lint.prefix, "Where the folder sits in the repository, e.g. Lib");
  c_lint->add_option("--format", lint.format, "text (default), json or sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  c_lint->add_option("--level", lint.level, "Lowest level reported: note (default) or warning")
      ->check(CLI::IsMember({"note", "warning"}));
  c_lint->add_option("-j,--jobs", lint.jobs, "Worker threads (default: all cores)")->check(CLI::Range(0, 256));
  c_lint->add_flag("--include-tests", lint.include_tests, "Lint test code too (left out by default, as by scan)");

  std::string id;
  std::optional<std::string> repo, ref;
  auto* c_show = app.add_subcommand("show", "Show one record (of the current revision, or of --repo's --ref)");
  c_show->add_option("id", id, "Record id (16 hex)")->required()->transform(record_id);
  c_show->add_option("--repo", repo, "With --ref: the record's owner/name")->check(repo_name);
  c_show->add_option("--ref", ref, "With --repo: the record in this revision (ref, sha or a sha's first 7+ digits)")->check(ref_name);
  add_db(c_show);
  add_json(c_show);

  auto* c_list = app.add_subcommand("list", "List current records (or one revision's: --repo R --ref X)");
  c_list->add_option("--repo", repo, "Only this owner/name")->check(repo_name);
  c_list->add_option("--ref", ref, "With --repo: that revision's records")->check(ref_name);
  add_db(c_list);
  add_json(c_list);

  std::string text;
  int limit = 20;
  auto* c_search = app.add_subcommand("search", "Full-text search over messages, documentation and tags");
  c_search->add_option("text", text, "Words to look for")->required();
  c_search->add_option("--repo", repo, "Only this owner/name")->check(repo_name);
  c_search->add_option("--ref", ref, "With --repo: search that revision (default: the current ones)")->check(ref_name);
  c_search->add_option("--limit", limit, "Most hits to show")->check(CLI::Range(1, 10000));
  add_db(c_search);
  add_json(c_search);

  bool export_all = false;
  auto* c_export = app.add_subcommand(
      "export", "Write the current records as JSON Lines to stdout, each line naming its revision (\"ref\") when it has one");
  c_export->add_option("--repo", repo, "Only this owner/name")->check(repo_name);
  c_export->add_option("--ref", ref, "With --repo: that revision instead")->check(ref_name);
  c_export->add_flag("--all-revisions", export_all,
                     "Every stored revision, first to last per repository (import restores them all)");
  add_db(c_export);

  std::string file;
  auto* c_import = app.add_subcommand("import", "Read a dataset JSON Lines file ('-' for stdin)");
  c_import->add_option("file", file, "Dataset file")->required();
  add_db(c_import);
  add_json(c_import);

  std::optional<std::string> forget_ref;
  auto* c_forget = app.add_subcommand("forget", "Drop a repository's revision (--ref) or all its revisions");
  c_forget->add_option("repo", text, "owner/name")->required()->check(repo_name);
  c_forget->add_option("--ref", forget_ref, "The revision: its ref, sha or a sha's first 7+ digits")->check(ref_name);
  add_db(c_forget);

  auto* c_history = app.add_subcommand("history", "An error across the stored revisions of its repository");
  c_history->add_option("id", id, "Record id (16 hex)")->required()->transform(record_id);
  add_db(c_history);
  add_json(c_history);

  std::string diff_from, diff_to;
  auto* c_diff = app.add_subcommand("diff", "Errors added, removed, reworded, moved or changed in class between two revisions");
  c_diff->add_option("repo", text, "owner/name")->required()->check(repo_name);
  c_diff->add_option("from", diff_from, "The older revision: ref, sha or a sha's first 7+ digits")->required()->check(ref_name);
  c_diff->add_option("to", diff_to, "The newer revision")->required()->check(ref_name);
  add_db(c_diff);
  add_json(c_diff);

  const char* env_url = std::getenv("ERRDEX_URL");
  std::string base_url = env_url && *env_url ? env_url : "http://127.0.0.1:8080";
  auto* c_explain = app.add_subcommand(
      "explain", "Pass stdin through; under each Python traceback or JavaScript stack in it, where it was raised and how to fix it");
  c_explain->add_option("--url", base_url, "Where errdex serve answers, for the page links (default $ERRDEX_URL or http://127.0.0.1:8080)");
  add_db(c_explain);

  std::vector<std::string> run_command_args;
  auto* c_run = app.add_subcommand(
      "run", "Run a command; its output passes through, explained under each Python traceback or JavaScript stack; its exit code is kept");
  c_run->add_option("--url", base_url, "Where errdex serve answers, for the page links (default $ERRDEX_URL or http://127.0.0.1:8080)");
  // Everything from the command on is the command's, options included.
  c_run->prefix_command();
  c_run->allow_extras();
  c_run->footer("Usage: errdex run [--db URL] [--url URL] -- COMMAND [ARGS...]");
  add_db(c_run);

  auto* c_migrate = app.add_subcommand(
      "migrate", "Bring the store's schema to this errdex's version (opening a store does it too); safe to run from "
                 "several processes at once");
  add_db(c_migrate);

  auto* c_stats = app.add_subcommand("stats", "Counts per repository and field coverage");
  add_db(c_stats);
  add_json(c_stats);

  EnqueueArgs enqueue;
  auto* c_enqueue = app.add_subcommand(
      "enqueue", "Queue a scan for `errdex worker` (needs a PostgreSQL store); SOURCE and options as for scan");
  c_enqueue->add_option("source", enqueue.source, "Directory to scan, as the worker's machine sees it")->required();
  c_enqueue->add_option("--rev", enqueue.revs, "Git revision to read (give several to store each)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  c_enqueue->add_option("--repo", enqueue.repo, "owner/name for ids and GitHub links (default local/<folder>)");
  c_enqueue->add_option("--ref", enqueue.ref, "The revision's name, for a folder outside git")->check(ref_name);
  c_enqueue->add_option("--revs", enqueue.spec_options.revs_glob, "Every tag matching a glob, each stored as a revision");
  c_enqueue->add_option("--prefix", enqueue.spec_options.prefix, "Where the folder sits in the repository, e.g. Lib");
  c_enqueue->add_option("--sha", enqueue.spec_options.sha, "analyzedSha for a folder outside git (40 hex)");
  c_enqueue->add_flag("--include-tests", enqueue.spec_options.include_tests, "Records from test code too");
  c_enqueue->add_flag("--no-evidence", enqueue.spec_options.no_evidence, "No evidence: no test, doc or history read");
  c_enqueue->add_flag("--blame", enqueue.spec_options.blame, "With --rev: evidence.introduced, by git blame");
  c_enqueue->add_flag("--no-cache", enqueue.spec_options.no_cache, "Parse every file, even one scanned before");
  add_db(c_enqueue);
  add_json(c_enqueue);

  WorkerArgs worker;
  auto* c_worker = app.add_subcommand(
      "worker", "Take queued scans and run them, one at a time (needs a PostgreSQL store); run several, anywhere");
  c_worker->add_flag("--once", worker.once, "Exit when no job is queued or running (default: wait for more)");
  c_worker->add_option("--lease", worker.lease,
                       "Seconds a job is held without a heartbeat before another worker takes it again")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  c_worker->add_option("--max-attempts", worker.max_attempts, "A job whose worker was lost this often fails")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  c_worker->add_option("-j,--jobs", worker.jobs, "Scan threads (default: all cores)")->check(CLI::Range(0, 256));
  // Hidden: for tests that kill a worker in the middle of a job.
  c_worker->add_option("--pause-before-scan", worker.pause_before_scan)->check(CLI::Range(0, 3600))->group("");
  add_db(c_worker);

  JobsArgs jobs_args;
  auto* c_jobs = app.add_subcommand("jobs", "Show the scan queue, newest first (needs a PostgreSQL store)");
  c_jobs->add_option("--limit", jobs_args.limit, "Most jobs to show")->check(CLI::Range(1, 100000))->capture_default_str();
  add_db(c_jobs);
  add_json(c_jobs);

  ServeArgs serve;
  auto* c_serve = app.add_subcommand("serve", "Serve the site and the JSON API over HTTP");
  c_serve->add_option("--listen", serve.listen, "HOST:PORT to listen on (port 0: any free port)")
      ->capture_default_str();
  c_serve->add_option("--threads", serve.threads, "Worker threads (default: one per core)")->check(CLI::Range(0, 256));
  c_serve->add_option("--access-log", serve.access_log, "Access log: - (stderr), off, or a file")
      ->capture_default_str();
  c_serve->add_option("--report-url", serve.report_url, "GitHub new-issue URL for \"report a problem\" links")
      ->check(http_url);
  c_serve->add_option("--max-body", serve.max_body_bytes, "Largest request body in bytes (413 beyond)")
      ->check(CLI::Range(1024, 64 << 20))
      ->capture_default_str();
  add_db(c_serve);

  std::optional<std::string> match_text;
  int top = 5;
  auto* c_match = app.add_subcommand("match",
                                     "Find the throw sites behind a pasted error message or traceback, among every stored "
                                     "revision: a site is named once, by the revision its frames agree with, with the others "
                                     "as consistent");
  c_match->add_option("text", match_text, "The message or traceback (default: read stdin)");
  c_match->add_option("--top", top, "Most candidates to show (ties at the best score are all shown)")
      ->check(CLI::Range(1, 1000));
  std::optional<std::string> match_ref;
  c_match->add_option("--repo", repo, "Only this owner/name's records")->check(repo_name);
  c_match->add_option("--ref", match_ref, "With --repo: only this revision's records (ref, sha or a sha's first 7+ digits)")->check(ref_name);
  add_db(c_match);
  add_json(c_match);

  try {
    // `errdex run [options] -- COMMAND…`: what follows `--` is the command's,
    // never errdex's, whatever it looks like.
    std::vector<std::string> after_dashes;
    if (argc > 1 && std::string_view(argv[1]) == "run")
      for (int i = 2; i < argc; ++i)
        if (std::string_view(argv[i]) == "--") {
          after_dashes.assign(argv + i + 1, argv + argc);
          argc = i;
          break;
        }
    run_command_args = std::move(after_dashes);
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // A word that names no command: said so, not "a subcommand is required".
    std::string names;
    bool known = false;
    for (const CLI::App* c : app.get_subcommands({})) {
      names += (names.empty() ? "" : ", ") + c->get_name();
      known = known || (argc > 1 && c->get_name() == argv[1]);
    }
    if (argc > 1 && argv[1][0] != '-' && !known) {
      std::cerr << "errdex: no command \"" << argv[1] << "\"; the commands are " << names
                << " (errdex --help says what each does)\n";
      return 2;
    }
    app.exit(e);
    return 2;
  }

  try {
    if (*c_lint) return run_lint(lint);
    if (*c_scan) {
      scan.db = db;
      scan.json = json;
      scan.exits_after = true;
      return run_scan(scan);
    }
    if ((*c_show || *c_list || *c_search || *c_export) && ref && !repo) {
      std::cerr << "errdex: --ref needs --repo (a revision belongs to one repository)\n";
      return 2;
    }
    // $ERRDEX_URL too, which the parser does not see.
    if ((*c_explain || *c_run) && !errdex::web::is_http_url(base_url)) {
      std::cerr << "errdex: --url (or $ERRDEX_URL) is not an http:// or https:// URL: " << base_url << "\n";
      return 2;
    }
    if (*c_show) return run_show(db, id, repo, ref, json);
    if (*c_list) return run_list(db, repo, ref, json);
    if (*c_search) return run_search(db, text, repo, ref, limit, json);
    if (*c_export) return run_export(db, repo, ref, export_all);
    if (*c_import) return run_import(db, file, json);
    if (*c_stats) return run_stats(db, json);
    if (*c_migrate) return run_migrate(db);
    if (*c_forget) return run_forget(db, text, forget_ref);
    if (*c_explain) return run_explain(db, base_url);
    if (*c_run) {
      std::vector<std::string> command = run_command_args.empty() ? c_run->remaining() : run_command_args;
      return run_command(db, base_url, command);
    }
    if (*c_history) return run_history(db, id, json);
    if (*c_diff) return run_diff(db, text, diff_from, diff_to, json);
    if (*c_serve) {
      serve.db = db;
      return run_serve(serve);
    }
    if (*c_enqueue) {
      enqueue.db = db;
      enqueue.json = json;
      return run_enqueue(enqueue);
    }
    if (*c_worker) {
      worker.db = db;
      return run_worker(worker);
    }
    if (*c_jobs) {
      jobs_args.db = db;
      jobs_args.json = json;
      return run_jobs(jobs_args);
    }
    if (*c_match) return run_match(db, match_text, json, top, repo, match_ref);
  } catch (const std::exception& e) {
    std::cerr << "errdex: internal error: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
