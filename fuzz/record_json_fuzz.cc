// Any byte string given to the dataset-line parser yields a value or an
// error, and whatever parses serializes to a fixed point.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "model/record_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  (void)errdex::model::record_from_json(input);
  auto line = errdex::model::dataset_line_from_json(input);
  if (!line) return 0;
  std::string once = errdex::model::to_json(*line);
  auto again = errdex::model::dataset_line_from_json(once);
  if (!again || errdex::model::to_json(*again) != once) std::abort();
  return 0;
}
