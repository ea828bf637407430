#include "analyze/category.h"

#include <algorithm>
#include <array>
#include <utility>

namespace errdex::analyze {
namespace {

std::string_view last_component(std::string_view cls) {
  auto dot = cls.rfind('.');
  return dot == std::string_view::npos ? cls : cls.substr(dot + 1);
}

bool contains(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

}  // namespace

std::string category_of(std::string_view error_class) {
  std::string_view c = last_component(error_class);
  // Exact built-ins first: their meaning is fixed by Python.
  static const std::array<std::pair<std::string_view, std::string_view>, 54> k_exact = {{
      {"ValueError", "validation"}, {"TypeError", "type"}, {"KeyError", "lookup"},
      {"IndexError", "lookup"}, {"LookupError", "lookup"}, {"AttributeError", "lookup"},
      {"NameError", "lookup"}, {"UnboundLocalError", "lookup"}, {"StopIteration", "state"},
      {"RuntimeError", "state"}, {"RecursionError", "internal"}, {"AssertionError", "internal"},
      {"NotImplementedError", "unsupported"}, {"ImportError", "dependency"},
      {"ModuleNotFoundError", "dependency"}, {"OSError", "io"}, {"IOError", "io"},
      {"EnvironmentError", "io"}, {"FileNotFoundError", "io"}, {"FileExistsError", "io"},
      {"IsADirectoryError", "io"}, {"NotADirectoryError", "io"}, {"EOFError", "io"},
      {"BlockingIOError", "io"}, {"PermissionError", "permission"}, {"TimeoutError", "timeout"},
      {"ConnectionError", "network"}, {"ConnectionRefusedError", "network"},
      {"ConnectionResetError", "network"}, {"ConnectionAbortedError", "network"},
      {"BrokenPipeError", "network"}, {"DeprecationWarning", "deprecation"},
      {"PendingDeprecationWarning", "deprecation"}, {"FutureWarning", "deprecation"},
      {"UnicodeDecodeError", "validation"}, {"UnicodeEncodeError", "validation"},
      {"OverflowError", "validation"}, {"ZeroDivisionError", "validation"},
      {"SyntaxError", "validation"}, {"MemoryError", "internal"},
      {"UnicodeError", "validation"}, {"UnicodeTranslateError", "validation"},
      {"IndentationError", "validation"}, {"TabError", "validation"},
      {"ArithmeticError", "validation"}, {"FloatingPointError", "validation"},
      {"StopAsyncIteration", "state"}, {"GeneratorExit", "state"}, {"BufferError", "state"},
      {"ReferenceError", "state"}, {"ChildProcessError", "io"}, {"InterruptedError", "io"},
      {"ProcessLookupError", "lookup"}, {"KeyboardInterrupt", "internal"},
  }};
  for (const auto& [name, cat] : k_exact)
    if (c == name) return std::string(cat);
  // Then the words a project's own class names use.
  static const std::array<std::pair<std::string_view, std::string_view>, 33> k_words = {{
      {"Deprecat", "deprecation"}, {"Timeout", "timeout"}, {"TimedOut", "timeout"},
      {"Permission", "permission"}, {"Forbidden", "permission"}, {"Unauthorized", "permission"},
      {"Auth", "permission"}, {"Connection", "network"}, {"Network", "network"}, {"HTTP", "network"},
      {"Socket", "network"}, {"Config", "configuration"}, {"Setting", "configuration"},
      {"Import", "dependency"}, {"Dependency", "dependency"}, {"NotImplemented", "unsupported"},
      {"Unsupported", "unsupported"}, {"NotFound", "lookup"}, {"Key", "lookup"},
      {"Type", "type"}, {"Value", "validation"}, {"Invalid", "validation"},
      {"Parse", "validation"}, {"Syntax", "validation"}, {"Decode", "validation"}, {"Encode", "validation"},
      {"Format", "validation"}, {"Argument", "validation"}, {"Option", "validation"},
      {"Platform", "unsupported"}, {"Lookup", "lookup"}, {"Index", "lookup"}, {"Closed", "state"},
  }};
  for (const auto& [word, cat] : k_words)
    if (contains(c, word)) return std::string(cat);
  if (contains(c, "Warning")) return "validation";
  if (contains(c, "IO") || contains(c, "File")) return "io";
  if (contains(c, "State")) return "state";
  return "internal";
}

bool is_builtin_exception(std::string_view error_class) {
  static const std::array<std::string_view, 64> k_builtins = {
      "BaseException", "Exception", "ArithmeticError", "AssertionError", "AttributeError",
      "BlockingIOError", "BrokenPipeError", "BufferError", "ChildProcessError",
      "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
      "EOFError", "EnvironmentError", "FileExistsError", "FileNotFoundError", "FloatingPointError",
      "GeneratorExit", "IOError", "ImportError", "IndentationError", "IndexError",
      "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError",
      "MemoryError", "ModuleNotFoundError", "NameError", "NotADirectoryError",
      "NotImplementedError", "OSError", "OverflowError", "PermissionError", "ProcessLookupError",
      "RecursionError", "ReferenceError", "RuntimeError", "StopAsyncIteration", "StopIteration",
      "SyntaxError", "SystemError", "SystemExit", "TabError", "TimeoutError", "TypeError",
      "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError",
      "UnicodeTranslateError", "ValueError", "ZeroDivisionError", "Warning", "UserWarning",
      "DeprecationWarning", "PendingDeprecationWarning", "RuntimeWarning", "SyntaxWarning",
      "FutureWarning", "ImportWarning", "ResourceWarning"};
  return std::find(k_builtins.begin(), k_builtins.end(), error_class) != k_builtins.end();
}

std::optional<int> http_status_of(std::string_view error_class) {
  std::string_view c = last_component(error_class);
  static const std::array<std::pair<std::string_view, int>, 14> k_status = {{
      {"BadRequest", 400}, {"Unauthorized", 401}, {"PaymentRequired", 402}, {"Forbidden", 403},
      {"NotFound", 404}, {"MethodNotAllowed", 405}, {"NotAcceptable", 406}, {"Conflict", 409},
      {"Gone", 410}, {"UnprocessableEntity", 422}, {"TooManyRequests", 429},
      {"InternalServerError", 500}, {"ServiceUnavailable", 503}, {"GatewayTimeout", 504},
  }};
  for (const auto& [name, status] : k_status)
    if (c == name || c == std::string(name) + "Error" || c == "HTTP" + std::string(name)) return status;
  return std::nullopt;
}

}  // namespace errdex::analyze
