// libFuzzer target: any bytes given to the GPU spec YAML reader (parse_gpu_spec) parse or throw InputError naming the source.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "reader_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    gpusched::fuzz::fuzz_gpu_spec(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
