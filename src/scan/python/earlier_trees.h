#pragma once
// Incremental parsing across revisions: the tree a file's last content
// parsed into, kept by path, so that its next content (a scan of the next
// revision, where the file changed) is parsed from it. The lines the two
// contents share keep their subtrees (tree-sitter's `ts_tree_edit` and
// `ts_parser_parse` with the old tree), and the parser reads only around
// the lines that changed. The tree is the one a parse from scratch gives:
// a reused tree with a syntax error anywhere is not trusted, and the
// content is parsed from scratch instead.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct TSParser;
struct TSTree;

namespace errdex::scan {

// What a frontend keeps of its last scan of a file besides the tree (its
// own type; python/file_scanner.h's DefinitionMemo), for the next content
// of the same path.
struct EarlierScan {
  virtual ~EarlierScan() = default;
};

// The trees, by path and pass (a frontend may parse a file more than once,
// e.g. an outline and then the whole file). Thread-safe; one revision's
// threads each parse their own paths.
class EarlierTrees {
 public:
  // At most `budget` bytes of source are held with their trees (a tree
  // takes several times its source's bytes): past it, a new tree is not
  // kept, and that file's next content is parsed from scratch.
  explicit EarlierTrees(std::size_t budget = std::size_t{32} << 20);
  ~EarlierTrees();
  EarlierTrees(const EarlierTrees&) = delete;
  EarlierTrees& operator=(const EarlierTrees&) = delete;

  // Drops the trees of every path not in `paths` (the files of the
  // revision just scanned): memory follows one revision's files.
  void keep_only(const std::vector<std::string>& paths);
  // Trees held.
  std::size_t size() const;
  // Parses that started from a kept tree of other text (and whose result
  // had no syntax error), and parses from scratch, since construction.
  std::size_t reused() const;
  std::size_t fresh() const;
  // Whether frontends may reuse what they kept of a file's last scan
  // (EarlierScan) besides its tree; on by default. Off, every scan reads
  // the whole tree (a reference to check that reuse against).
  void reuse_scans(bool on);

  struct Impl;
  std::unique_ptr<Impl> m;
};

// While one lives on a thread, the frontends' parses on that thread are of
// the file `path`: each starts from the tree kept in `trees` for that path
// and pass, and leaves its own tree there. A null `trees`: parses start
// from scratch and keep nothing. Scopes do not nest.
class ParsingFile {
 public:
  ParsingFile(EarlierTrees* trees, std::string path);
  ~ParsingFile();
  ParsingFile(const ParsingFile&) = delete;
  ParsingFile& operator=(const ParsingFile&) = delete;

  EarlierTrees* trees;
  std::string path;
};

// The ParsingFile of this thread, or null.
const ParsingFile* parsing_file();

// For the frontends: what was kept for `pass` of this thread's
// ParsingFile by keep_scan, or null (none, reuse off, or no ParsingFile).
std::shared_ptr<const EarlierScan> earlier_scan(std::string_view pass);
// Keeps `scan` for `pass` of this thread's ParsingFile, replacing what was
// kept; nothing without a ParsingFile or with reuse off.
void keep_scan(std::string_view pass, std::shared_ptr<const EarlierScan> scan);
// Whether keep_scan keeps anything on this thread (a frontend need not
// build what would be dropped).
bool keeps_scans();

// For the frontends: `source` parsed by `parser` (as ts_parser_parse_string
// does; the caller owns the tree, null when the parser gave up), from the
// tree this thread's ParsingFile keeps for `pass`, which the new tree then
// replaces.
TSTree* parse_reusing(TSParser* parser, std::string_view pass, std::string_view source);

// One edit of a text into another, in lines: old lines [old_begin,
// old_end) are replaced by new lines [new_begin, new_end) (a line ends
// after its '\n', or at the end of the text). In increasing order, not
// overlapping; lines outside them are equal in both texts, in order.
struct LineEdit {
  std::size_t old_begin, old_end, new_begin, new_end;
};
// The edits from `before` to `after`: a shortest line diff (Myers) when it
// needs at most `max_changes` inserted or deleted lines, else one edit from
// the first line that differs to the last.
std::vector<LineEdit> line_edits(std::string_view before, std::string_view after, std::size_t max_changes = 512);

}  // namespace errdex::scan
