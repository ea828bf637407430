#pragma once
// Lints: findings about a throw site's message that mislead or leave users
// guessing, read off the same facts the analysts use.
#include <optional>
#include <string>
#include <vector>

#include "model/error_record.h"
#include "model/throw_site.h"

namespace errdex::analyze {

// Rule names, as stored in ErrorRecord::lints and shown by `errdex lint`.
inline constexpr const char* k_rule_misleading = "misleading-interpolation";
inline constexpr const char* k_rule_duplicate = "duplicate-message";
inline constexpr const char* k_rule_unshown = "guard-value-not-shown";
inline constexpr const char* k_rule_terse = "terse-message";

// Seed 2's slip: the message shows `shown` (an interpolation whose name the
// guard does not test) while its text names `tested`, which the guard does
// test; `meant` is `shown` with the one name replaced, and occurs in the
// guard's condition.
struct Misleading {
  std::string shown;   // "len(num_heads)"
  std::string name;    // "num_heads"
  std::string tested;  // "head_dim"
  std::string meant;   // "len(head_dim)"
  std::string condition;
};
std::optional<Misleading> find_misleading(const model::ThrowSite& s);

// The lints of one site: misleading-interpolation, guard-value-not-shown,
// terse-message. `builtin_base` is the built-in class the site's class
// resolves to ("" if unknown), which exempts e.g. StopIteration subclasses
// from terse-message.
std::vector<model::Lint> lint_site(const model::ThrowSite& s, const std::string& builtin_base);

// Repository-wide: adds duplicate-message to every record whose class and
// message (with at least two words of text) are raised from several places.
// Records are identified by their file and line in the lint's text.
void lint_duplicates(std::vector<model::ErrorRecord*>& records);

// Names read by a Python expression given as text, dotted names kept whole
// (`len(self.layers)` → len, self.layers); string literals skipped.
std::vector<std::string> expression_names(const std::string& expr);

}  // namespace errdex::analyze
