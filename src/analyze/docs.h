#pragma once
// Evidence from the repository's documentation: doc files (Markdown, reST,
// text) and docstrings that quote a record's message or name its class with
// its function, linked to the record (record.evidence.docs).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/error_record.h"
#include "model/throw_site.h"

namespace errdex::analyze {

// What link_docs reads of one text that depends on that text alone: a scan
// of many revisions keeps it by content (a doc file's blob, a code file's
// facts) instead of working it out again every revision.
struct DocTextIndex {
  // The text with each whitespace run folded to one space (none at its
  // start), as quotes of a message are looked up in it (rule 1).
  std::string folded;
  std::vector<std::uint32_t> newlines;     // where each line of the text ended, in `folded`
  std::vector<std::uint32_t> word_starts;  // each word's first byte in `folded`
  // A doc file's paragraphs (up to a blank line, at most a few lines) and
  // the words each writes as code (`wrap`, `wrap(`, `.wrap`), for rule 4;
  // none for a docstring. Offsets in the text; lines from its first (0).
  struct Paragraph {
    std::uint32_t start = 0, end = 0;
  };
  struct CodeWord {
    std::uint32_t paragraph = 0, start = 0, size = 0;
    int line = 0;
  };
  std::vector<Paragraph> paragraphs;
  std::vector<CodeWord> code_words;
};
DocTextIndex index_doc_text(std::string_view text, bool docstring);

// One text to search: a doc file whole (`owner` empty, `docstring` false,
// `line` 1) or one docstring (FileFacts::docs).
struct DocSource {
  const std::string* path = nullptr;  // from the repository's top
  int line = 1;                       // the line `text` starts on
  std::string_view owner;             // a docstring's function or class, dotted within its file; "" for a module or a doc file
  std::string_view text;
  bool docstring = false;
  // index_doc_text(text, docstring) when the caller keeps it; else
  // link_docs works it out.
  const DocTextIndex* index = nullptr;
};

// Links each record to the docs that mention it, at most `max_docs`, one
// per file, in this order (then by path and line):
//  1. a text quoting the fixed part of its message (the longest literal run
//     of the template, whitespace folded: at least 20 characters and three
//     words), in the record's own file first; a literal that more than a
//     few records share links only texts in their own files;
//  2. the docstring of the raising function (of the class for a
//     constructor) that names the record's class;
//  3. the docstring of one of its entry points (evidence.entry_points)
//     that names the class;
//  4. a paragraph of a doc file that names the class and the function as
//     code (`wrap`, `wrap(`, `.wrap`); when more than a few records share
//     that pair, the paragraph must name the module too.
// Each link is the file and the line of the mention. `sites[i]` gave
// `records[i]`. Work is bounded: the texts are indexed once by the
// 8 bytes at each word start, and each literal is looked up there.
void link_docs(const std::vector<DocSource>& docs, const std::vector<model::ThrowSite>& sites,
               std::vector<model::ErrorRecord>& records, std::size_t max_docs = 3);

}  // namespace errdex::analyze
