// A GPU's stream priority range: the `streams` section, CUDA's rule where it is absent, its text.
#include "stream_priority_range_io.h"

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::hw {

std::string StreamPriorityRange::text() const {
    if (least == greatest) return std::to_string(least) + " (the only level)";
    return std::to_string(least) + " (least) down to " + std::to_string(greatest) + " (greatest)";
}

StreamPriorityRange GpuSpec::stream_priorities() const {
    if (stream_priority_range) return *stream_priority_range;
    StreamPriorityRange rule;
    rule.stated = false;
    rule.greatest = cc_major * 10 + cc_minor >= 35 ? -1 : 0;
    return rule;
}

std::optional<StreamPriorityRange> parse_stream_priority_range(YamlFields& top) {
    const auto node = top.optional_child("streams");
    if (!node) return std::nullopt;
    YamlFields f(*node, top.source(), "streams");
    const auto pair = f.integer_list("priority_range", -1024, 1024);
    if (pair.size() != 2 || pair[0] < 0 || pair[1] > 0)
        f.fail("priority_range", "expected [least, greatest] in CUDA's numbers with greatest <= 0 <= least, e.g. [0, -5]");
    f.finish();
    StreamPriorityRange range;
    range.least = static_cast<int>(pair[0]);
    range.greatest = static_cast<int>(pair[1]);
    return range;
}

void write_stream_priority_range(std::ostream& y, const StreamPriorityRange& range) {
    y << "streams:\n  priority_range: [" << range.least << ", " << range.greatest << "]\n";
}

}  // namespace gpusched::hw
