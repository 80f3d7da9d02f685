// JSON text pieces for the recorder's trace: string escaping and nanoseconds as microseconds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gpusched::record {

/// Appends `text` as a JSON string literal, quotes included: `"` and `\` escaped, control bytes
/// as \n, \t, \r, \b, \f or \u00XX, valid UTF-8 kept, every byte of an invalid UTF-8 sequence
/// replaced by U+FFFD (so the output is always valid JSON in UTF-8).
void append_json_string(std::string& out, std::string_view text);

/// `text` as a JSON string literal (append_json_string into a new string).
std::string json_string(std::string_view text);

/// Nanoseconds as microseconds with exactly three decimals, no floating point: 1234567 -> "1234.567".
std::string micros(std::uint64_t ns);

}  // namespace gpusched::record
