// libFuzzer target: any bytes given to the calibration YAML reader (parse_calibration) parse or throw InputError naming the source.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "reader_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    gpusched::fuzz::fuzz_calibration(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
