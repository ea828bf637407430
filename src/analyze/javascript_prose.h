#pragma once
// The static analyst for JavaScript and TypeScript sites: the prose and
// code fields of a record, from facts of the code, in the language the
// site is written in. Offline and deterministic.
#include "analyze/static_prose.h"

namespace errdex::analyze {

// Whether the record's file is JavaScript or TypeScript (by its name).
bool is_javascript_file(std::string_view path);

// Fills the fields write_static_prose fills, for a JavaScript or
// TypeScript site. Every code field parses as JavaScript (TypeScript for a
// .ts file) by the scanner's grammar; a field that would not is left null
// (exampleFix, which the record must have, falls back to a comment).
void write_javascript_prose(const model::ThrowSite& site, model::ErrorRecord& r, const ProseContext& ctx);

}  // namespace errdex::analyze
