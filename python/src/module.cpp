// gpusched._core: the pybind11 module the Python package wraps; InputError becomes gpusched.InputError.
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "gpusched/support/input_error.h"

PYBIND11_MODULE(_core, m) {
    m.doc() = "gpusched's C++ core; use the gpusched package, not this module.";
    m.attr("version") = GPUSCHED_VERSION;
    // A ValueError subclass carrying the library's message (it names keys, files and lines).
    static pybind11::exception<gpusched::InputError> input_error(m, "InputError", PyExc_ValueError);
    pybind11::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const gpusched::InputError& e) {
            input_error(e.what());
        }
    });
    gpusched::python::add_gpu_bindings(m);
    gpusched::python::add_simulate_bindings(m);
    gpusched::python::add_sweep_bindings(m);
}
