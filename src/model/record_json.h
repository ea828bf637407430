#pragma once
// JSON for records and dataset lines, in the field order of the seed so that
// an imported line exports byte for byte the same.
#include <optional>
#include <string>
#include <string_view>

#include "model/error_record.h"
#include "util/expected.h"

namespace errdex::model {

// Compact JSON of the record, keys in record-format.md order.
std::string to_json(const ErrorRecord& r);
// `{"record":…,"datasetVersion":…}` on one line, no trailing newline.
std::string to_json(const DatasetLine& line);

// Whether `id` is a record id as the format writes it: 16 lowercase hex
// digits.
bool is_record_id(std::string_view id);
// The record id a user means by `text`: 16 hex digits in any case, given
// in lowercase (ids are copied from pages, logs and tools that upper-case
// hex); nullopt when `text` is no id.
std::optional<std::string> record_id_of(std::string_view text);

// Parses a record object. Unknown fields are ignored; a missing required
// field, a wrong type or invalid JSON is an error naming the field.
Expected<ErrorRecord> record_from_json(std::string_view json);
// Parses a record's messageVariants array (what record_from_json reads
// from that field; malformed entries are dropped).
Expected<std::vector<MessageVariant>> record_variants_from_json(std::string_view json);
// Parses one dataset line.
Expected<DatasetLine> dataset_line_from_json(std::string_view json);

}  // namespace errdex::model
