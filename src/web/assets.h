#pragma once
// The files of src/web/assets (templates, CSS), compiled into the binary at
// build time by embed_assets.cmake. The server reads nothing from disk.
#include <optional>
#include <string_view>

namespace errdex::web {

// The bytes of the asset with this file name ("error.html", "style.css"), or
// nothing. The view stays valid for the life of the process.
std::optional<std::string_view> asset(std::string_view name);

}  // namespace errdex::web
