#pragma once
// A tree of files at one revision: a plain directory, or a commit of a git
// repository read through libgit2 without a checkout. Decides which files are
// worth scanning and says why it skipped the others.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "util/expected.h"

namespace errdex::source {

struct Skip {
  std::string path;    // relative to the tree root
  std::string reason;  // "binary", "invalid-utf8", "too-large", "dependency-dir", "symlink-loop", "not-regular", "unreadable: …"
};

struct Entry {
  std::string path;  // relative to the tree root, '/'-separated
  std::uint64_t size = 0;
  // The git blob id (40 hex digits) of a file read from a git revision: two
  // entries with the same id hold the same bytes. "" for files on disk.
  std::string blob;
};

// The commit that last changed a line, as git blame finds it.
struct LineOrigin {
  int line = 0;         // 1-based, in the file at the tree's revision
  std::string sha;      // 40 hex
  std::string summary;  // the commit message's first line
  std::string date;     // author date, ISO 8601 in UTC ("2024-03-01T12:00:00Z")
};

struct Options {
  // Files larger than this are skipped as "too-large".
  std::uint64_t max_file_size = 8 * 1024 * 1024;
  // File name suffixes to list (".py").
  std::vector<std::string> extensions = {".py"};
};

class SourceTree {
 public:
  virtual ~SourceTree() = default;
  // The 40-hex commit the tree belongs to; "" for a directory outside git.
  virtual const std::string& sha() const = 0;
  // Where the tree's root sits inside its git repository ("" for the top,
  // or outside git), '/'-separated: the default for --prefix.
  virtual const std::string& repo_path() const = 0;
  // True when a work tree differs from its HEAD commit.
  virtual bool dirty() const = 0;
  // The files to scan, sorted by path. Call once.
  virtual std::vector<Entry> list(std::vector<Skip>& skipped) = 0;
  // Reads one listed file. Thread-safe. An error is a reason to skip it.
  virtual Expected<std::string> read(const Entry& e) const = 0;
  // The id of a listed file's content in its repository (the git blob id,
  // 40 hex); "" for a tree without history.
  virtual std::string content_id(const Entry&) const { return {}; }
  // Blame: for each of `lines` (1-based) of a listed file, the commit at or
  // before the tree's revision that last changed it, in the order asked.
  // Only a git revision has history: a directory (even inside a work tree,
  // whose files may differ from any commit) gives none. A line past the end
  // or a failure of libgit2 gives no origin for that line. Thread-safe;
  // costs a walk of the file's history back to its oldest line asked.
  virtual std::vector<LineOrigin> blame(const Entry&, const std::vector<int>& lines) const {
    (void)lines;
    return {};
  }
};

// Opens `path`. With `rev`, `path` must be inside a git repository and the
// tree is that revision's (sha, tag or branch); `subdir` then restricts it to
// a folder of the repository. Without `rev`, `path` is read from disk, and
// its sha is HEAD of the enclosing repository if there is one.
Expected<std::unique_ptr<SourceTree>> open_tree(const std::string& path,
                                                const std::optional<std::string>& rev,
                                                const Options& options);

// The files `files` (relative to `root`, '/'-separated: a distribution's
// RECORD) of the folder `root`, and no others; outside git (no sha).
// Errors: `root` is not a folder.
Expected<std::unique_ptr<SourceTree>> open_files(const std::string& root, std::vector<std::string> files,
                                                 const Options& options);

// The tags of the git repository holding `path` whose names match `glob`
// (fnmatch, e.g. "v3.12.*"), sorted as versions (v3.12.2 before v3.12.10).
// Errors: `path` is not in a git repository.
Expected<std::vector<std::string>> matching_tags(const std::string& path, const std::string& glob);

// Checks the content of a read file: an empty optional when it can be
// scanned, else the skip reason ("binary", "invalid-utf8", "too-large").
std::optional<std::string> content_problem(const std::string& content, const Options& options);

// A Python file that is not UTF-8 but declares its encoding (PEP 263: a
// `coding[:=]name` comment on line 1 or 2, e.g. `# -*- coding: latin-1 -*-`)
// is converted to UTF-8 in place, lines unchanged. False, and `content`
// untouched, when it declares none, or one iconv does not know, or its
// bytes are not valid in it.
bool decode_declared_encoding(std::string& content);

// A file's path as recorded, from the repository's top: `prefix` (where the
// scanned folder sits in the repository, "" at its top; slashes at its ends
// are ignored), then `rel`, the file's path in the scanned folder.
std::string path_in_repo(const std::string& prefix, const std::string& rel);

}  // namespace errdex::source
