// WorkloadDocument: equality of its data, and the Application its kernel items build.
#include "gpusched/workloads/workload_document.h"

#include <map>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/workload_file.h"

namespace gpusched::workloads {

namespace {

bool same_stream(const StreamConfig& a, const StreamConfig& b) {
    return a.id == b.id && a.priority == b.priority && a.sm_mask == b.sm_mask && a.partition == b.partition;
}

/// "WHERE: key 'PATH.KEY': what", as the reader's own errors name an item's keys.
[[noreturn]] void fail_at(const WorkloadItem& item, const std::string& where, const std::string& key, const std::string& what) {
    throw InputError((where.empty() ? item.where : where) + ": key '" + item.path + (key.empty() ? "" : "." + key) + "': " + what);
}

/// The operation of `item` with its names (no launch yet).
Operation operation_of(const WorkloadItem& item) {
    Operation op;
    op.set_where(item.where);
    op.kind = item.kind;
    op.stream = item.stream;
    op.copy = item.copy;
    op.delay = item.delay;
    if (!item.event.empty()) op.set_event(item.event);
    if (!item.id.empty()) op.set_id(item.id);
    for (const auto& id : item.after) op.add_after(id);
    return op;
}

/// The built launches of the document's kernel items by their spec (generator name and keys in order): items
/// alike share one build, so their launches share one work model (same_launch: the engine memoises their runs,
/// a million-launch document of a repeated training step holds one work per distinct kernel).
using BuiltSpecs = std::map<std::string, SpecLaunches>;

/// The spec of `item` as one text: its generator and each key=value with their lengths (no two specs collide).
std::string spec_key(const WorkloadItem& item) {
    std::string key = std::to_string(item.kernel.size()) + ':' + item.kernel;
    for (const KernelKey& k : item.keys)
        key += ';' + std::to_string(k.key.size()) + ':' + k.key + '=' + std::to_string(k.value.size()) + ':' + k.value;
    return key;
}

/// Appends the launches of one kernel item (and the operations its generator adds after each);
/// returns whether the generator added operations (streamcluster's copies).
bool add_kernel_item(const WorkloadItem& item, Application& app, BuiltSpecs& built_specs) {
    const std::string key = spec_key(item);
    auto found = built_specs.find(key);
    if (found == built_specs.end()) {
        std::vector<SpecEntry> entries;
        entries.reserve(item.keys.size());
        for (const KernelKey& k : item.keys) entries.push_back({k.key, k.value, k.where});
        SpecArgs args(item.kernel, item.where, item.path, std::move(entries));
        found = built_specs.emplace(key, build_kernel_launches(args)).first;  // count > 1: a multi-launch kernel (apsp-minplus)
    }
    const SpecLaunches& built = found->second;
    const std::size_t repeat = item.repeat.value_or(1);
    if (built.total() > kMaxWorkloadLaunches || app.launches.size() + repeat * built.total() > kMaxWorkloadLaunches)
        fail_at(item, item.repeat_where, item.repeat ? "repeat" : "",
                "the workload would have more than " + std::to_string(kMaxWorkloadLaunches) + " launches (after repeats)");
    Operation op;
    op.set_where(item.where);
    if (!item.id.empty()) op.set_id(item.id);
    for (const auto& id : item.after) op.add_after(id);
    const std::size_t first = app.launches.size();
    for (std::size_t i = 0; i < repeat; ++i) built.append_to(app.launches);
    if (!item.id.empty() && app.launches.size() - first != 1)
        fail_at(item, item.id_where, "id",
                "an id names one operation, but this item stands for " + std::to_string(app.launches.size() - first) +
                    " launches (give the id to a `record` after them instead)");
    // The generator's operations written by this item: one shared names record when they have none.
    OperationNames item_where;
    item_where.where = op.where();
    const SharedNames where_only(std::move(item_where));
    for (std::size_t i = first; i < app.launches.size(); ++i) {
        op.launch = i;
        op.stream = app.launches[i].stream;
        app.operations.push_back(op);
        for (Operation extra : built.after_each) {
            extra.stream = op.stream;
            if (extra.has_names())
                extra.set_where(op.where());
            else
                extra.share_names(where_only);
            app.operations.push_back(std::move(extra));
        }
    }
    return !built.after_each.empty();
}

/// The host threads with each launch's item replaced by its operation; an item a call launches
/// must be one kernel, copy or delay operation, launched by one call.
std::vector<HostThread> host_threads_of(const WorkloadDocument& document, const std::vector<std::size_t>& first_op,
                                        std::uint64_t rounds) {
    std::vector<HostThread> threads = document.host;
    const std::size_t items = document.items.size();
    std::vector<std::string> launched_at(items);
    for (HostThread& thread : threads) {
        const std::vector<HostCall> once = thread.calls;
        thread.calls.clear();
        thread.calls.reserve(once.size() * rounds);
        for (std::uint64_t round = 0; round < rounds; ++round)
            for (const HostCall& call : once) {
                thread.calls.push_back(call);
                thread.calls.back().round = static_cast<std::uint32_t>(round);
                for (std::size_t& op : thread.calls.back().ops) {
                    if (round > 0) {
                        op = first_op[round * items + op];  // the first round checked the item
                        continue;
                    }
                    if (op >= items)
                        throw InputError(call.where + ": key 'launch': item " + std::to_string(op) + " does not exist (the workload has " +
                                         std::to_string(items) + ")");
                    const WorkloadItem& item = document.items[op];
                    const auto fail = [&](const std::string& what) {
                        throw InputError(call.where + ": key 'launch': " + item.path + " (" + item.where + ") " + what);
                    };
                    if (item.kind == Operation::Kind::record || item.kind == Operation::Kind::wait)
                        fail("is an event; a launch issues kernels, copies and delays");
                    if (first_op[op + 1] - first_op[op] != 1)
                        fail("stands for " + std::to_string(first_op[op + 1] - first_op[op]) + " operations; a launch names one each");
                    if (!launched_at[op].empty()) fail("is launched twice (first at " + launched_at[op] + ")");
                    launched_at[op] = call.where.empty() ? "?" : call.where;
                    op = first_op[op];
                }
            }
    }
    return threads;
}

}  // namespace

bool operator==(const WorkloadItem& a, const WorkloadItem& b) {
    return a.kind == b.kind && a.kernel == b.kernel && a.keys == b.keys && a.repeat == b.repeat && a.stream == b.stream &&
           a.copy.direction == b.copy.direction && a.copy.pinned == b.copy.pinned && a.copy.bytes == b.copy.bytes &&
           a.delay == b.delay && a.event == b.event && a.id == b.id && a.after == b.after && a.notes == b.notes;
}

bool operator==(const WorkloadDocument& a, const WorkloadDocument& b) {
    return a.notes == b.notes && a.description == b.description && a.issue == b.issue && a.iterations == b.iterations &&
           a.partitions == b.partitions &&
           a.partition == b.partition &&
           std::equal(a.streams.begin(), a.streams.end(), b.streams.begin(), b.streams.end(), same_stream) &&
           a.items == b.items && a.host == b.host;
}

Application build_application(const WorkloadDocument& document) {
    Application app;
    app.description = document.description.value_or(document.source);
    app.streams = document.streams;
    app.partitions = document.partitions;
    app.partition = document.partition.value_or(-1);
    app.partitions_where = document.partitions_where;
    app.host_issue = document.issue.value_or(HostIssue::queued);
    bool plain = document.host.empty();  // only kernels, no ids, `after` or host: leave `operations` empty (launch order)
    const std::uint64_t rounds = document.iterations.value_or(1);
    const std::size_t items = document.items.size();
    // Item i of round r: operations first_op[r x items + i] .. first_op[r x items + i + 1].
    std::vector<std::size_t> first_op(static_cast<std::size_t>(rounds) * items + 1, 0);
    BuiltSpecs built_specs;
    for (std::uint64_t round = 0; round < rounds; ++round) {
        for (std::size_t i = 0; i < items; ++i) {
            const WorkloadItem& item = document.items[i];
            first_op[round * items + i] = app.operations.size();
            if (item.kind != Operation::Kind::kernel) {
                app.operations.push_back(operation_of(item));
                plain = false;
            } else {
                const bool extra = add_kernel_item(item, app, built_specs);
                plain = plain && !extra && item.id.empty() && item.after.empty();
            }
        }
        if (round == 0 && rounds > 1 && app.launches.size() * rounds > kMaxWorkloadLaunches)
            throw InputError(document.iterations_where + ": key 'iterations': " + std::to_string(rounds) + " iterations of " +
                             std::to_string(app.launches.size()) + " launches would be more than " +
                             std::to_string(kMaxWorkloadLaunches) + " launches");
    }
    first_op.back() = app.operations.size();
    if (!document.host.empty()) app.host = host_threads_of(document, first_op, rounds);
    if (plain) std::vector<Operation>().swap(app.operations);  // frees them: a million launches need none
    return app;
}

}  // namespace gpusched::workloads
