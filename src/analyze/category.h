#pragma once
// Error categories, severities and HTTP statuses read off the class name.
#include <optional>
#include <string>
#include <string_view>

namespace errdex::analyze {

// The errorType of record-format.md for a class name as written
// ("errors.InvalidArgument" is judged by its last component). Unknown
// classes are "internal" unless their name says otherwise.
std::string category_of(std::string_view error_class);
// True when the name is one of Python's built-in exception classes.
bool is_builtin_exception(std::string_view error_class);
// A status when the class is a web framework's HTTP exception whose name
// says it (NotFound → 404, HTTPException with a literal status → that).
std::optional<int> http_status_of(std::string_view error_class);

}  // namespace errdex::analyze
