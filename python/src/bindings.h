// The C++ core of the Python module (gpusched._core): what each binding file adds, and the GPU they share.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::python {

/// GPU keys as the Python side passes them: (key, value) in order, values as text.
using GpuKeys = std::vector<std::pair<std::string, std::string>>;

/// The preset or GPU file `gpu` with `keys` set (hw::resolve_gpu_with_overrides); InputError naming
/// the key ("sm_count=0: key 'sm_count': expected an integer in [1, 100000], got '0'").
hw::GpuSpec resolve_gpu(const std::string& gpu, const GpuKeys& keys);

void add_gpu_bindings(pybind11::module_& m);
void add_simulate_bindings(pybind11::module_& m);
void add_sweep_bindings(pybind11::module_& m);

}  // namespace gpusched::python
