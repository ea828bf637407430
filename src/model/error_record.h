#pragma once
// The error record of docs (record-format.md, schema version 2): one per
// throw site. Plain data; JSON in and out through record_json.h.
#include <optional>
#include <string>
#include <vector>

namespace errdex::model {

// How a record's analysis fields were written (schema version 3).
struct Analysis {
  std::string analyst;  // "static" or "llm"
  // LLM only: the model named to the server, the prompt version, and the
  // fields whose text came from the model (the rest are the static draft's).
  std::string model;
  int prompt_version = 0;
  std::vector<std::string> fields;
  std::string at;  // ISO 8601 UTC with ms

  bool operator==(const Analysis&) const = default;
};

// A finding about the throw site's message (schema version 3).
struct Lint {
  std::string rule;     // "misleading-interpolation", "duplicate-message", ...
  std::string level;    // "warning" or "note"
  std::string message;  // one sentence, names the expressions involved

  bool operator==(const Lint&) const = default;
};

// Another message the same statement can raise (schema version 3): the
// other branch that built it, a helper's other return, or a caller's
// argument when the message is the function's parameter.
struct MessageVariant {
  std::string error_message;
  std::string message_pattern;

  bool operator==(const MessageVariant&) const = default;
};

// A test of the repository that raises the error on purpose (schema
// version 3, `evidence.tests`).
struct TestEvidence {
  std::string file_path;
  int line_number = 0;
  std::string name;  // "WrapTestCase.test_bad_width"
  std::string code;  // the lines of the test that trigger it

  bool operator==(const TestEvidence&) const = default;
};

// A public function or method a user calls that can lead to the raise
// (`evidence.entryPoints`): its dotted name and the shortest call chain from
// it to the raising function, both ends included
// (["pkg.load", "pkg._read", "pkg._parse"]).
struct EntryPoint {
  std::string name;
  std::vector<std::string> chain;

  bool operator==(const EntryPoint&) const = default;
};

// A place in the repository's docs (Markdown, reST, a docstring) that
// quotes the message or names the class with the function (`evidence.docs`).
struct DocEvidence {
  std::string file_path;
  int line_number = 0;

  bool operator==(const DocEvidence&) const = default;
};

// The commit that introduced the raise line (`evidence.introduced`).
struct Introduced {
  std::string sha;
  std::string summary;
  std::string date;  // ISO 8601

  bool operator==(const Introduced&) const = default;
};

// What grounds a record beyond its own code (schema version 3): each part
// present only when found.
struct Evidence {
  std::vector<TestEvidence> tests;
  std::vector<EntryPoint> entry_points;
  std::vector<DocEvidence> docs;
  std::optional<Introduced> introduced;

  bool empty() const { return tests.empty() && entry_points.empty() && docs.empty() && !introduced; }
  bool operator==(const Evidence&) const = default;
};

struct ErrorRecord {
  std::string id;
  std::string repo;
  std::string slug;
  std::optional<std::string> error_code;
  std::string error_message;
  std::string message_pattern;
  std::string error_type;
  std::string error_class;
  std::optional<int> http_status;
  std::string severity;
  std::string file_path;
  int line_number = 0;
  std::string source_code;
  int source_code_start = 0;
  int source_code_end = 0;
  std::string github_url;
  std::string documentation;
  std::string trigger_scenarios;
  std::string common_situations;
  std::vector<std::string> solutions;
  std::string example_fix;
  std::string handling_strategy;
  std::optional<std::string> validation_code;
  std::optional<std::string> type_guard;
  std::optional<std::string> try_catch_pattern;
  std::vector<std::string> prevention_tips;
  std::vector<std::string> tags;
  std::optional<std::string> background_tag;
  std::string analyzed_sha;
  std::string analyzed_at;
  int schema_version = 2;
  // Version 3 fields, written only when present so version 2 lines keep
  // their exact bytes.
  std::optional<Analysis> analysis;
  std::vector<Lint> lints;
  std::vector<MessageVariant> message_variants;
  Evidence evidence;

  bool operator==(const ErrorRecord&) const = default;
};

// How a record's class is shown: a site that hands on an error it was
// given (`raise error` of a parameter, `throw err`) has none, and an empty
// name printed, or an empty link on a page, says nothing.
inline std::string shown_class(const std::string& error_class) {
  return error_class.empty() ? "(class unknown)" : error_class;
}

// One line of a dataset file: {"record": {...}, "datasetVersion": "..."}.
struct DatasetLine {
  ErrorRecord record;
  std::string dataset_version;
  // The revision's name (a tag, a version) when its dataset has one; a
  // line of the published format has none, and then no "ref" is written.
  std::string ref;
};

}  // namespace errdex::model
