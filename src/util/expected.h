#pragma once
// A value or an error message: how expected failures travel between stages
// (gcc 12 has no std::expected). Exceptions are kept for the unrecoverable.
#include <string>
#include <utility>
#include <variant>

namespace errdex {

struct Error {
  std::string message;
};

template <typename T>
class Expected {
 public:
  Expected(T value) : m_v(std::move(value)) {}
  Expected(Error error) : m_v(std::move(error)) {}

  bool has_value() const { return m_v.index() == 0; }
  explicit operator bool() const { return has_value(); }
  // Precondition: has_value().
  T& value() { return std::get<0>(m_v); }
  const T& value() const { return std::get<0>(m_v); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  // Precondition: !has_value().
  const std::string& error() const { return std::get<1>(m_v).message; }

 private:
  std::variant<T, Error> m_v;
};

// For operations that return nothing on success.
struct Ok {};
using Status = Expected<Ok>;
inline Status ok() { return Ok{}; }

}  // namespace errdex
