// libFuzzer target: any bytes given to the trace importer (read_kineto_trace, build_application, imported_workload, write_workload) import or throw InputError naming the file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "reader_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    gpusched::fuzz::fuzz_kineto_trace(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
