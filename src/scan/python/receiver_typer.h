// What the receivers of a test's calls stand for: the call graph resolves
// `json.loads` through the test file's imports, but not `self.dec.decode`
// with `self.dec = JSONDecoder()` in `setUp`, nor `self.decimal.Decimal`
// with `decimal = P` in a subclass and `P = import_fresh_module('decimal',
// blocked=['_decimal'])` at the top. A ReceiverTyper reads those bindings
// (test_file_bindings.h) and says what a call as written stands for
// (`JSONDecoder.decode`, `decimal.Decimal`). Not thread-safe (a memo).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "scan/python/test_file_bindings.h"

namespace errdex::scan::python {

class ReceiverTyper {
 public:
  explicit ReceiverTyper(const TestFileBindings& b);

  // What `call` (as a test writes it, `self.` dropped) stands for, in the
  // test `test` ("Cls.test_x"); empty when nothing is known. A helper of
  // the test file (a method of the test's class or its bases, a function
  // of the module) stands for the calls of its body.
  std::vector<Value> rewrite(const std::string& call, const std::string& test, int depth = 0) const;

  // The key of the test file's function that `name` (no dot) calls from
  // `test`: a method of its class or of a base in the file, else a
  // module-level function; "" for none (or `test` itself).
  std::string helper(const std::string& name, const std::string& test) const;

  // Whether class `cls` is `base` or derives from it in the file.
  bool derives(const std::string& cls, const std::string& base, int depth = 0) const;

  // A call of a class the test file defines (`Handler` of `class
  // Handler(logging.Handler)`), or of one of its methods: a method it
  // defines runs the calls of its body, one it inherits is its base's; its
  // constructor runs its `__init__`, if it has one, and its base's.
  std::vector<Value> through_test_class(const Value& v, int depth = 0) const;

  static std::string class_of(const std::string& test);

 private:
  // The test machinery a helper calls, which runs no code under test.
  static bool is_machinery(std::string_view callee);

  // What the calls of helper `key` stand for, typed in its own scope; its
  // parameters' calls say nothing without the caller's arguments.
  std::vector<Value> helper_calls(const std::string& key, int depth) const;

  // The attribute `name` of class `cls`: its own, its bases' in the file,
  // else those of its subclasses in the file (a mixin's tests run with
  // their attributes).
  void class_attr(const std::string& cls, const std::string& name, std::vector<Value>& out, int depth,
                  bool down) const;

  // What the dotted name `text` stands for: its head resolved, the rest kept.
  std::vector<Value> expand(const Value& v, const std::string& test, int depth) const;

  // What name `head` of test `test` stands for: its local, its class's
  // attribute (`self.` is dropped from the calls), else a module-level name.
  std::vector<Value> values(const std::string& head, const std::string& test, int depth) const;

  const TestFileBindings& m_b;
  std::unordered_map<std::string, std::vector<std::string>> m_subclasses;
  mutable std::unordered_map<std::string, std::vector<Value>> m_helper_memo;
};

}  // namespace errdex::scan::python
