// TimelineCsvWriter: the run as timeline metadata, then a row per completed block, in the timeline format of workloads.
#include "gpusched/sim/output/timeline_csv.h"

#include <stdexcept>
#include <utility>
#include <vector>

#include "gpusched/workloads/timeline_csv.h"

namespace gpusched::sim {

TimelineCsvWriter::TimelineCsvWriter(std::ostream& out, std::string tool_version)
    : out_(out), tool_version_(std::move(tool_version)) {}

void TimelineCsvWriter::on_begin(const RunInfo& info) {
    app_ = info.app;
    rows_ = 0;
    std::vector<std::pair<std::string, std::string>> metadata;
    if (info.gpu) {
        metadata.emplace_back("gpu", info.gpu->name + " (" + info.gpu->full_name + ")");
        metadata.emplace_back("sm_count", std::to_string(info.gpu->sm_count));
    }
    metadata.emplace_back("policy", info.policy);
    metadata.emplace_back("execution", info.execution);
    metadata.emplace_back("tool_version", tool_version_);
    if (app_) {
        metadata.emplace_back("workload", app_->description);
        for (std::size_t i = 0; i < app_->launches.size(); ++i) {
            const auto& l = app_->launches[i];
            metadata.emplace_back("launch." + std::to_string(i), l.name + " blocks=" + std::to_string(l.blocks()) +
                                                                     " threads=" + std::to_string(l.threads_per_block()) +
                                                                     " stream=" + std::to_string(l.stream));
        }
    }
    workloads::write_timeline_head(out_, "gpusched timeline", metadata);
}

void TimelineCsvWriter::on_block_completed(const BlockRecord& b) {
    if (!app_ || b.launch >= app_->launches.size())
        throw std::out_of_range("TimelineCsvWriter: block of an unknown launch");
    workloads::write_timeline_row(out_, {app_->launches[b.launch].name, b.launch, b.block, b.sm, b.dispatch, b.start, b.end});
    ++rows_;
}

void TimelineCsvWriter::on_end(Time makespan) {
    (void)makespan;
    out_.flush();
}

}  // namespace gpusched::sim
