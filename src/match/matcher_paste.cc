#include "match/matcher_paste.h"

#include <cctype>

#include "match/path_suffix.h"
#include "match/word_hash.h"

namespace errdex::match::detail {
namespace {

// Which of a traceback's exceptions to explain: the last printed, unless
// its innermost frame raises an object made elsewhere (`raise
// self._value`) and an earlier exception with the same class (IPython
// names it bare) and message has frames of its own. That is the object before it was handed on: a
// worker's exception that multiprocessing or concurrent.futures print as
// the cause of their copy. Its frames lead to where it was raised.
std::size_t explained_block(const std::vector<ExceptionBlock>& blocks) {
  const std::size_t last = blocks.size() - 1;
  const ExceptionBlock& b = blocks[last];
  if (b.frames.empty() || !b.frames.back().reraise) return last;
  for (std::size_t k = last; k-- > 0;)
    if (!blocks[k].frames.empty() && last_component(blocks[k].error_class) == last_component(b.error_class) &&
        blocks[k].message == b.message)
      return k;
  return last;
}

const std::vector<Frame> k_no_frames;

}  // namespace

void read_paste(const Index& m, std::string_view text, Paste& p) {
  // The parser's last question is usually about the class it settles on:
  // its answer is kept, so the class is not looked up twice.
  std::string_view asked;
  std::uint32_t asked_id = 0;
  auto known = [&](std::string_view last) {
    // Sites raise variables too (`raise exc`, `raise e`, `raise path`): a
    // name in lower case is a class only when it reads as one, or `path:
    // /srv/x` in a log line would be taken for an exception.
    if (!last.empty() && last[0] >= 'a' && last[0] <= 'z' && !reads_as_class(last)) return false;
    auto id = m.class_ids.find(word_hash(canonical_class(last, last)));
    asked = last;
    asked_id = id.empty() ? 0 : id.front();
    return asked_id != 0;
  };
  p.frames = &k_no_frames;
  p.single = parse_single_line(text, known, p.one);
  if (p.single) {
    p.error_class = p.one.error_class;
    p.whole = p.one.message;
  } else {
    p.tb = parse_traceback(text, known);
    p.truncated = p.tb.truncated;
    p.explained = explained_block(p.tb.exceptions);
    const ExceptionBlock& ex = p.tb.exceptions[p.explained];
    p.error_class = ex.error_class;
    p.whole = ex.message;
    p.frames = &ex.frames;
    // Python prints where a SyntaxError's text is wrong as a last `File
    // "x", line 1` with no `, in function`, under the frames (also inside
    // a message that quotes one: py_compile's PyCompileError): a place in
    // the text compiled, not a frame. The Python frame above it raised.
    // (Node's `file:line` above a V8 stack has no function either, and is
    // the throw; so is pytest's `x.py:12: ValueError`.)
    const auto& fs = ex.frames;
    if (fs.size() >= 2 && fs.back().function.empty() && !fs.back().raised_here && !fs[fs.size() - 2].function.empty() &&
        fs[fs.size() - 2].file.ends_with(".py")) {
      p.scratch_frames.assign(fs.begin(), fs.end() - 1);
      p.frames = &p.scratch_frames;
    }
    // A module the interpreter runs frozen (3.11+: os, codecs,
    // _collections_abc, importlib's bootstrap) prints `<frozen os>` for its
    // file: the standard library's file of that module path, read as an
    // installed one.
    if (!p.frames->empty()) {
      if (auto path = frozen_module_file(p.frames->back().file)) {
        if (p.frames != &p.scratch_frames) p.scratch_frames.assign(p.frames->begin(), p.frames->end());
        p.scratch_frames.back().file = std::move(*path);
        p.frames = &p.scratch_frames;
      }
    }
  }
  p.message = p.whole;
  if (p.message.size() > k_max_message) {
    p.message = p.message.substr(0, k_max_message);
    p.truncated = true;
  }
  p.last_class = p.single ? p.one.last_class : last_component(p.error_class);
  p.cls = !p.last_class.empty() && p.last_class.data() == asked.data() && p.last_class.size() == asked.size()
              ? asked_id
              : m.class_of(p.error_class);
}

bool raises_itself(std::string_view source) {
  for (std::string_view kw : {"raise", "throw"})
    if (source.starts_with(kw) && (source.size() == kw.size() || !(std::isalnum(static_cast<unsigned char>(source[kw.size()])) ||
                                                                    source[kw.size()] == '_')))
      return true;
  return false;
}

bool minified_name(std::string_view name, std::string& readable) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || !js_file(name)) return false;
  const std::string_view stem = name.substr(0, dot);
  if (!stem.ends_with(".min") || stem.size() == 4) return false;
  readable.assign(stem.substr(0, stem.size() - 4));
  readable.append(name.substr(dot));
  return true;
}

bool js_frame(std::string_view file) {
  if (auto q = file.find_first_of("?#"); q != std::string_view::npos) file = file.substr(0, q);
  return js_file(file);
}

std::uint32_t python_version_of_frames(const std::vector<Frame>& frames, std::vector<std::string_view>& parts) {
  for (auto f = frames.rbegin(); f != frames.rend(); ++f) {
    path_components(f->file, parts);
    if (std::uint32_t v = python_version_of_path(parts)) return v;
  }
  return 0;
}

}  // namespace errdex::match::detail
