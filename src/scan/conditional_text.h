#pragma once
// A message interpolating a choice between texts — Python's `{'s' if n != 1
// else ''}`, JavaScript's `${n !== 1 ? 's' : ''}` — shows one of those
// texts, never the expression: the template is each text in turn.
// Pure functions over the interpolations' source text, for both languages.
#include <vector>

#include "model/throw_site.h"

namespace errdex::scan {

// The texts `t` may show: `t` itself when no interpolation is a conditional
// with a string literal among its branches; otherwise one template per
// combination of branches (each branch a literal's text, or the branch
// interpolated when it is not a literal), the first branches first. At most
// the first 3 such interpolations are expanded, into at most 8 templates.
std::vector<model::MessageTemplate> conditional_texts(const model::MessageTemplate& t);

}  // namespace errdex::scan
