// Kernel names: a demangled C++ name made into a workload `name` (1-64 of letters, digits and -_.+/#:()[]), deterministically.
#pragma once

#include <string>
#include <string_view>

namespace gpusched::importers {

/// The workload name for a kernel's full (demangled) name (docs/importing.md "Kernel names"):
///   1. a leading return type "void " is dropped, the argument list (the last top-level "(...)"
///      at the end) and the function's own scopes (up to the last "::" outside template
///      arguments): "void at::native::f<a::b>(float*, int)" -> "f<a::b>";
///   2. '<' becomes '[', '>' becomes ']', ',' becomes '+', blanks are dropped, every other
///      character outside letters, digits and -_.+/#:()[] becomes '_' (runs of '_' become one);
///   3. longer than 64: the first 55 characters, '#', and 8 hex digits of the 32-bit FNV-1a
///      hash of the full name (so two long names that share a prefix stay apart);
///   4. nothing left: "kernel".
/// sanitize_kernel_name("void at::native::reduce_kernel<512, 1>(int)") == "reduce_kernel[512+1]"
std::string sanitize_kernel_name(std::string_view full);

/// The function's base name: step 1 above without template arguments ("void a::b<int>::f<2>(int)"
/// -> "f"). Used to match names that tools print differently.
std::string kernel_base_name(std::string_view full);

/// `text` on one line, printable: control bytes become blanks (for YAML comments, CSV cells).
std::string printable(std::string_view text);

}  // namespace gpusched::importers
