// preset_for_device: a preset matches by one of its device_names, else by a word of the device's name, plus equal compute capability and SM count.
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
    CHECK(preset_for_device(device("NVIDIA A100-SXM4-80GB", 8, 0, 108)) == "a100");
    CHECK(preset_for_device(device("NVIDIA H200", 9, 0, 132)) == "h200");
}

TEST_CASE("the presets' device_names map the names CUDA reports for the GPUs users ask for") {
    struct Case {
        const char* name;
        int major, minor, sms;
        const char* preset;
    };
    const Case cases[] = {
        {"NVIDIA H100 PCIe", 9, 0, 114, "h100-pcie"},
        {"NVIDIA GH200 480GB", 9, 0, 132, "gh200"},
        {"NVIDIA B200", 10, 0, 148, "b200"},
        {"NVIDIA L40S", 8, 9, 142, "l40s"},
        {"NVIDIA L4", 8, 9, 58, "l4"},
        {"NVIDIA GeForce RTX 4090", 8, 9, 128, "rtx4090"},
        {"Tesla T4", 7, 5, 40, "t4"},
        {"NVIDIA A100-SXM4-40GB", 8, 0, 108, "a100-40gb"},  // the word rule alone would say a100 (80 GB)
        {"NVIDIA A100-PCIE-40GB", 8, 0, 108, "a100-40gb"},
        {"NVIDIA A100 80GB PCIe", 8, 0, 108, "a100-pcie"},
        {"Tesla V100-SXM2-16GB", 7, 0, 80, "v100"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        CHECK(preset_for_device(device(c.name, c.major, c.minor, c.sms)) == c.preset);
    }
}

TEST_CASE("a device of another configuration matches no preset") {
    CHECK(preset_for_device(device("NVIDIA L4", 8, 9, 60)).empty());               // a listed name, but 60 SMs (the preset: 58)
    CHECK(preset_for_device(device("NVIDIA H100 80GB HBM3", 8, 0, 132)).empty());  // compute capability differs
    CHECK(preset_for_device(device("NVIDIA GeForce RTX 4090", 8, 9, 76)).empty());  // a listed name, another SM count
    CHECK(preset_for_device(device("NVIDIA XH100 80GB", 9, 0, 132)).empty());     // "xh100" is not the word h100
    CHECK(preset_for_device(device("NVIDIA RTX PRO 6000 Blackwell Server Edition", 12, 0, 188)).empty());
}
