#pragma once
// What the pages' templates read, built from records: small helpers the
// pages share (pages.cc, api.cc), and the error page's fields that the record alone
// gives (set_record_fields), apart from what the served snapshot adds
// (the site's function, related and same-message sites, history).
#include <kainjow/mustache.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "model/error_record.h"

namespace errdex::web {

using PageData = kainjow::mustache::data;

// JSON as text; invalid UTF-8 replaced, never thrown.
std::string dump(const nlohmann::json& j);
std::string error_url(const model::ErrorRecord& r);
std::string repo_url(const std::string& repo);
std::string sha10(const std::string& sha);
// What a GitHub link pins to: its commit (first 10 hex) or, for a tree
// whose commit is unknown, its tag.
std::string pinned_ref(const std::string& url, const std::string& sha);
// The first line of a message, cut at a word near 90 characters.
std::string title_of(const std::string& message);
// A list of one {value} when `v` holds text, else empty: a template's
// optional section.
PageData optional_value(const std::optional<std::string>& v);
// Prose items as HTML (prose_html: escaped, backticks as <code>).
PageData prose_list(const std::vector<std::string>& items);
std::string join(const std::vector<std::string>& v, const std::string& sep);

// The error page's fields from the record: place, message, highlighted
// source, GitHub link, prose, evidence, lints, message variants,
// provenance (with `dataset_version`) and the report link (`report_url`
// with the record named in its title and body).
void set_record_fields(PageData& d, const model::ErrorRecord& r, const std::string& dataset_version,
                       const std::string& report_url);

}  // namespace errdex::web
