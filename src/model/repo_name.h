#pragma once
// What a record's `repo` and a revision's name may be: `owner/name`, which the site's addresses
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

// What a revision may be named on the command line: a tag, a branch, a sha
// or a folder's --ref. Not empty, and no blank or control character, which
// git refuses in a ref's name and no sha holds.
bool is_ref_name(std::string_view s);

}  // namespace errdex::model
