// The runner's event-timed host loop as simulator operations (see host_timed_run.h).
#include "host_timed_run.h"

#include <string>
#include <utility>
#include <vector>

namespace gpusched::validation {

namespace {

workloads::Operation event_op(workloads::Operation::Kind kind, const std::string& name, int stream) {
    workloads::Operation op;
    op.kind = kind;
    op.set_event(name);
    op.stream = stream;
    return op;
}

}  // namespace

workloads::Application event_timed_host_calls(workloads::Application app, int streams) {
    using Kind = workloads::Operation::Kind;
    std::vector<workloads::Operation> ops{event_op(Kind::record, "start", 0)};
    if (streams > 1) {
        ops.push_back(event_op(Kind::record, "fork", 0));
        for (int c = 1; c < streams; ++c) ops.push_back(event_op(Kind::wait, "fork", c));
    }
    for (workloads::Operation& op : app.issue_order()) ops.push_back(std::move(op));
    for (int c = 1; c < streams; ++c) {
        const std::string join = "join" + std::to_string(c);
        ops.push_back(event_op(Kind::record, join, c));
        ops.push_back(event_op(Kind::wait, join, 0));
    }
    ops.push_back(event_op(Kind::record, "stop", 0));
    app.operations = std::move(ops);
    app.host_issue = workloads::HostIssue::calls;
    return app;
}

}  // namespace gpusched::validation
