// spec_with_data_file: a run's workload spec pointing into the directory its data file came with.
#include "data_spec.h"

#include <filesystem>

#include "gpusched/support/input_error.h"

namespace gpusched::validation {

workloads::KernelSpec spec_with_data_file(const std::string& text, const std::string& kernel,
                                          const std::string& file_key, const std::string& dir,
                                          const std::string& where) {
    const auto bad = [&]() {
        throw InputError(where + ": workload_spec is not an " + kernel + " spec with " + file_key + "=: '" + text + "'");
    };
    if (workloads::KernelSpec::name_of(text) != kernel) bad();
    workloads::KernelSpec spec = workloads::KernelSpec::parse(text, "kernel spec");
    const auto file = spec.get(file_key);
    if (!file) bad();
    return spec.set(file_key, (std::filesystem::path(dir) / *file).string());
}

}  // namespace gpusched::validation
