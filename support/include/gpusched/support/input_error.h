// InputError: the one exception type for bad user input (maps to exit code 2 at the command line).
#pragma once

#include <stdexcept>
#include <string>

namespace gpusched {

/// Thrown for any invalid input: files, keys, flags, values. The message names
/// where (file:line, key or flag) and what is allowed; callers print it as is.
class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

/// A GPU spec whose fields are each valid but contradict one another (validate_gpu_spec),
/// e.g. more threads per block than per SM. Sweeps report such points in their row.
class InconsistentSpecError : public InputError {
public:
    using InputError::InputError;
};

}  // namespace gpusched
