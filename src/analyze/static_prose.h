#pragma once
// The static analyst: the prose and code fields of a record, written only
// from facts of the code (guard, function, class, template). Offline and
// deterministic: the same facts always give the same text.
#include "model/error_record.h"
#include "model/throw_site.h"

namespace errdex::analyze {

// Fills documentation, triggerScenarios, commonSituations, solutions,
// exampleFix, handlingStrategy, validationCode, typeGuard, tryCatchPattern,
// preventionTips, tags and backgroundTag of `r`, whose identity fields
// (class, message, type, path) are already set.
void write_static_prose(const model::ThrowSite& site, model::ErrorRecord& r);

// The guard condition negated as Python source: `a != b` → `a == b`,
// `not x` → `x`, `x is None` → `x is not None`, else `not (cond)`.
std::string negate_condition(const std::string& cond);

}  // namespace errdex::analyze
