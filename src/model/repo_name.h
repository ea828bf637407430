#pragma once
// What a record's `repo` may be: `owner/name`, which the site's addresses
// (/repos/{owner}/{name}) and links are built from.
#include <string_view>

namespace errdex::model {

// True for `owner/name` the site can address: one '/', neither part empty,
// "." or ".." (a path would step out of /repos/), no control character.
// A folder scanned without --repo is `local/<its name>`, whatever it holds.
bool is_repo_name(std::string_view s);

// is_repo_name, each part of GitHub's letters, digits, '-', '_' and '.'
// only, the name maybe starting with npm's scope mark ('@', npm/@scope__pkg).
bool is_github_repo_name(std::string_view s);

}  // namespace errdex::model
