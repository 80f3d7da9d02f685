// The workload-file keys of SM partitions (green contexts) and their cross-checks.
#include "partition_keys.h"

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/workload_file.h"

namespace gpusched::workloads {

namespace {

constexpr std::int64_t kMaxPartitions = 1024;

void check_index(int index, const WorkloadDocument& document, const std::string& where, const std::string& key) {
    if (index < static_cast<int>(document.partitions.size())) return;
    throw InputError(where + ": key '" + key + "': partition " + std::to_string(index) +
                     (document.partitions.empty()
                          ? std::string(" needs a top-level 'partitions' list (SM counts of the green contexts)")
                          : " does not exist (allowed: 0.." + std::to_string(document.partitions.size() - 1) +
                                ", the entries of 'partitions')"));
}

}  // namespace

int parse_stream_partition(YamlFields& f, bool has_sms) {
    const auto index = f.optional_integer("partition", 0, kMaxPartitions - 1);
    if (!index) return -1;
    if (has_sms) f.fail("partition", "give either 'sms' or 'partition', not both (the SM sets would overlap)");
    return static_cast<int>(*index);
}

void parse_partitions(YamlFields& top, const YAML::Node& root, const std::string& source, WorkloadDocument& document) {
    if (const auto node = top.optional_child("partitions")) {
        document.partitions_where = yaml_location(*node, source);
        if (!node->IsSequence() || node->size() == 0 || node->size() > static_cast<std::size_t>(kMaxPartitions))
            top.fail("partitions", "expected a non-empty list of SM counts, one per green context, e.g. [64, 64]");
        for (auto k : top.integer_list("partitions", 1, kMaxSmId)) document.partitions.push_back(static_cast<int>(k));
    }
    if (const auto index = top.optional_integer("partition", 0, kMaxPartitions - 1)) {
        document.partition = static_cast<int>(*index);
        check_index(*document.partition, document, yaml_location(root["partition"], source), "partition");
    }
    const YAML::Node streams = root["streams"];
    for (std::size_t i = 0; i < document.streams.size(); ++i)
        if (document.streams[i].partition >= 0)
            check_index(document.streams[i].partition, document, yaml_location(streams[i]["partition"], source),
                        "streams[" + std::to_string(i) + "].partition");
}

}  // namespace gpusched::workloads
