// preset_for_device: a preset matches by a word of the device's name plus equal compute capability and SM count.
#include <doctest/doctest.h>

#include "gpusched/importers/device_preset.h"

using gpusched::importers::preset_for_device;
using gpusched::importers::TraceDevice;

namespace {
TraceDevice device(const std::string& name, int major, int minor, int sms) {
    TraceDevice d;
    d.name = name;
    d.cc_major = major;
    d.cc_minor = minor;
    d.sm_count = sms;
    return d;
}
}  // namespace

TEST_CASE("CUDA device names map to the presets of the same chip configuration") {
    CHECK(preset_for_device(device("NVIDIA H100 80GB HBM3", 9, 0, 132)) == "h100");  // the validation machine
    CHECK(preset_for_device(device("NVIDIA A100-SXM4-80GB", 8, 0, 108)) == "a100");  // words: nvidia, a100, sxm4, 80gb
    CHECK(preset_for_device(device("NVIDIA H200", 9, 0, 132)) == "h200");
}

TEST_CASE("a device of another configuration matches no preset") {
    CHECK(preset_for_device(device("NVIDIA H100 PCIe", 9, 0, 114)).empty());       // 114 SMs, the preset has 132
    CHECK(preset_for_device(device("NVIDIA H100 80GB HBM3", 8, 0, 132)).empty());  // compute capability differs
    CHECK(preset_for_device(device("NVIDIA GeForce RTX 4090", 8, 9, 128)).empty());
    CHECK(preset_for_device(device("NVIDIA XH100 80GB", 9, 0, 132)).empty());     // "xh100" is not the word h100
}
