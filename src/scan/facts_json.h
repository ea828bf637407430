#pragma once
// A file's scan facts as text and back, for the cache of facts keyed by file
// content (a file unchanged between revisions is not parsed again).
#include <string>
#include <string_view>

#include "model/throw_site.h"
#include "util/expected.h"

namespace errdex::scan {

// Identifies the scanner that made the facts: a hash of the scan stage's
// sources and of the facts' types, taken when errdex is built. Facts made by
// another build are never read as this one's.
std::string_view scanner_version();

std::string facts_to_json(const model::FileFacts& facts);
// One site as facts_to_json writes it: every field, in a fixed order;
// without `lines`, its line numbers (line, end_line, function_line, each
// guard's) as 0: what the site is wherever it stands.
std::string site_to_json(const model::ThrowSite& site, bool lines = true);
// Errors: not what facts_to_json writes.
Expected<model::FileFacts> facts_from_json(std::string_view text);

}  // namespace errdex::scan
