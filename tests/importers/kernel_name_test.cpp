// Kernel names: the documented sanitizing rule, its 64-character cap with a hash, and base names for matching.
#include <doctest/doctest.h>

#include "gpusched/importers/kernel_name.h"

using gpusched::importers::kernel_base_name;
using gpusched::importers::sanitize_kernel_name;

TEST_CASE("sanitize_kernel_name drops the return type and arguments and maps template brackets") {
    CHECK(sanitize_kernel_name("void gemm_kernel<128, 64>(float const*, float*, int)") == "gemm_kernel[128+64]");
    CHECK(sanitize_kernel_name("scale_kernel") == "scale_kernel");
    CHECK(sanitize_kernel_name("void ns::(anonymous namespace)::k<float*>(int)") == "k[float_]");  // the function's scopes go
    CHECK(sanitize_kernel_name("void at::native::reduce_kernel<512, 1>(int)") == "reduce_kernel[512+1]");
    CHECK(sanitize_kernel_name("void f<a::b, c::d>(int)") == "f[a::b+c::d]");  // scopes inside template arguments stay
    CHECK(sanitize_kernel_name("a$$b") == "a_b");  // a run of replaced characters is one '_'
    CHECK(sanitize_kernel_name("") == "kernel");
    CHECK(sanitize_kernel_name("void (int)") == "(int)");  // nothing before the argument list: kept
}

TEST_CASE("sanitize_kernel_name caps at 64 characters with a hash of the full name") {
    const std::string a = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                          "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)";
    const std::string b = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<double>, "
                          "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<double>, at::detail::Array<char*, 1>)";
    const std::string na = sanitize_kernel_name(a), nb = sanitize_kernel_name(b);
    CHECK(na.size() == 64);
    CHECK(na.substr(0, 55) == "vectorized_elementwise_kernel[4+at::native::FillFunctor");
    CHECK(na[55] == '#');
    CHECK(na != nb);  // same 55-character prefix, different hash
    CHECK(na == sanitize_kernel_name(a));
    for (const char c : na) CHECK(std::string("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+/#:()[]").find(c) != std::string::npos);
}

TEST_CASE("kernel_base_name is the function's own name") {
    CHECK(kernel_base_name("void gemm_kernel<128, 64>(float const*, float*, int)") == "gemm_kernel");
    CHECK(kernel_base_name("void a::b<int>::f<2>(int)") == "f");
    CHECK(kernel_base_name("gemm_kernel") == "gemm_kernel");
}
