#pragma once
// One function per `errdex` subcommand. Each returns the process exit code:
// 0 ok (found), 1 not found, 2 error. Errors are printed to stderr.
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>
#include <string>

#include "store/jobs.h"

namespace errdex::analyze {
struct Observations;
}

namespace errdex::cli {

struct ScanArgs {
  std::string path;
  std::vector<std::string> revs;            // --rev, each a revision of its own
  std::optional<std::string> revs_glob;     // --revs: tags matching a glob
  std::optional<std::string> repo;
  std::optional<std::string> prefix;
  std::optional<std::string> sha;
  std::optional<std::string> ref;
  std::string db;
  int jobs = 0;
  bool json = false;
  bool quiet = false;
  bool include_tests = false;  // records from test code too
  bool no_cache = false;       // parse every file, even one scanned before
  bool no_evidence = false;    // test files not read for evidence.tests
  bool blame = false;          // --rev: evidence.introduced by blame of each raise line
  // --observed: files `python3 -m errdex.observe` wrote while the tests of
  // this revision ran; their raises give records the tests seen raising
  // them (analyze/observed.h).
  std::vector<std::string> observed;
  // Set by the scan itself: what those files hold, read once.
  std::shared_ptr<const analyze::Observations> observations;
  // --python: the interpreter whose standard library and distributions
  // are scanned, each a repository at its version.
  std::optional<std::string> python;
  // Set by the scan itself, not by an option: only these files of `path`
  // (a distribution's), and no summary printed per revision.
  std::optional<std::vector<std::string>> files;
  // Set by --python: the absolute folder `path`'s files are imported from
  // there (site-packages, the standard library's folder). Stored with the
  // import roots, so a frame under it belongs to this dataset.
  std::optional<std::string> installed_at;
  bool report = true;
  // Set by the command line, whose process ends with the scan: what the
  // scan kept in memory between revisions (ScanMemo) is left to the exit
  // instead of freed. A worker scanning job after job frees it.
  bool exits_after = false;
  // "static" (default) or "llm"; the llm_* options apply to "llm" only.
  std::string analyst = "static";
  std::string llm_url;
  std::string llm_model;
  int llm_concurrency = 4;
  double llm_timeout = 60;  // seconds per request
  int llm_retries = 3;
};
int run_scan(const ScanArgs& a);

struct LintArgs {
  std::string path;
  std::optional<std::string> rev;
  std::optional<std::string> repo;
  std::optional<std::string> prefix;
  std::string format = "text";  // text, json or sarif
  std::string level = "note";   // report findings at or above: note, warning
  int jobs = 0;
  bool include_tests = false;
};
// Exit code 1 when findings exist, 0 when none, 2 on error.
int run_lint(const LintArgs& a);

// `ref` (with `repo`): that revision instead of the current ones.
int run_show(const std::string& db, const std::string& id, const std::optional<std::string>& repo,
             const std::optional<std::string>& ref, bool json);
int run_list(const std::string& db, const std::optional<std::string>& repo, const std::optional<std::string>& ref,
             bool json);
int run_search(const std::string& db, const std::string& text, const std::optional<std::string>& repo,
               const std::optional<std::string>& ref, int limit, bool json);
// The current records by default; `all_revisions`: every revision, first to
// last per repository.
int run_export(const std::string& db, const std::optional<std::string>& repo, const std::optional<std::string>& ref,
               bool all_revisions);
int run_import(const std::string& db, const std::string& file, bool json);
int run_stats(const std::string& db, bool json);
// Applies the store's pending schema migrations; 0 ok, 2 error.
int run_migrate(const std::string& db);
// Passes stdin to stdout unchanged; under each Python traceback in it, where
// it was raised, its values, the first fix and the page under `base_url`.
int run_explain(const std::string& db, const std::string& base_url);
// Runs `command`, its output passed through unchanged and explained as by
// run_explain (on the stream it was printed to); returns its exit status
// (128 + N when signal N ended it, 127 when it could not be run).
int run_command(const std::string& db, const std::string& base_url, const std::vector<std::string>& command);
// Exit 1 when nothing matched `repo` (and `ref`).
int run_forget(const std::string& db, const std::string& repo, const std::optional<std::string>& ref);
// Exit 1 when no stored revision holds the id.
int run_history(const std::string& db, const std::string& id, bool json);
// Exit 1 when either revision is not stored.
int run_diff(const std::string& db, const std::string& repo, const std::string& from, const std::string& to,
             bool json);

// The job queue of a PostgreSQL store (store/jobs.h); on another store
// each answers with an error, exit 2.
struct EnqueueArgs {
  std::string db;
  std::string source;  // made absolute: a worker may run elsewhere
  std::vector<std::string> revs;
  std::optional<std::string> repo, ref;
  // scan's other options (source, revs, repo and ref above are not read).
  store::JobSpec spec_options;
  bool json = false;
};
int run_enqueue(const EnqueueArgs& a);
struct WorkerArgs {
  std::string db;
  // Exit once no job is queued or running, instead of waiting for more.
  bool once = false;
  int lease = 60;        // seconds; heartbeats extend it every third of it
  int max_attempts = 3;  // a job whose worker was lost this often fails
  int jobs = 0;          // scan threads (0: every core)
  // For tests: seconds each job is held (heartbeats going) before its scan
  // starts, so that a test can kill a worker in the middle of a job.
  int pause_before_scan = 0;
};
// Exit 0 when every job it ran was stored, 2 when one failed (or the queue
// cannot be opened). SIGTERM or SIGINT: stops after the job in hand.
int run_worker(const WorkerArgs& a);
struct JobsArgs {
  std::string db;
  int limit = 100;
  bool json = false;
};
int run_jobs(const JobsArgs& a);

struct ServeArgs {
  std::string db;
  std::string listen = "127.0.0.1:8080";
  int threads = 0;
  std::string access_log = "-";
  std::string report_url;
  std::size_t max_body_bytes = 1 << 20;
};
int run_serve(const ServeArgs& a);
// `text` unset: read stdin. Exit 0 when a throw site was found, 1 when none.
// `repo`: only its records; `ref` (with `repo`): only that revision's
// (exit 1 when it is not stored).
int run_match(const std::string& db, const std::optional<std::string>& text, bool json, int top,
              const std::optional<std::string>& repo = std::nullopt, const std::optional<std::string>& ref = std::nullopt);

}  // namespace errdex::cli
