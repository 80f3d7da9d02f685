// One-line kernel specs and the generic keys shared by every kernel generator.
#include "gpusched/workloads/kernel_spec.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/generator_registry.h"
#include "cluster_keys.h"

namespace gpusched::workloads {

namespace {

/// A generic key the spec gives and the generator does not take over with a key of its own name.
bool generic_given(const SpecArgs& args, const std::vector<SpecKeyInfo>& own, const std::string& key) {
    for (const auto& k : own)
        if (k.name == key) return false;
    return args.has(key);
}

void apply_grid(SpecArgs& args, KernelLaunch& launch, const std::vector<SpecKeyInfo>& own) {
    if (generic_given(args, own, "blocks")) {
        const std::int64_t blocks = args.integer("blocks", 1, kMaxSpecBlocks);
        const auto grid = grid_for_blocks(static_cast<std::uint64_t>(blocks));
        if (!grid)
            args.fail("blocks", std::to_string(blocks) + " blocks cannot form a grid with each dimension at most " +
                                    std::to_string(kMaxGridDim) + " (a prime factor is larger); choose another count");
        launch.grid = *grid;
    }
    if (generic_given(args, own, "grid"))
        launch.grid = args.dims("grid", kMaxGridDim, static_cast<std::uint64_t>(kMaxSpecBlocks));
}

/// Applies the generic keys, except those the generator's own keys (`own`) take over.
void apply_generic_keys(SpecArgs& args, KernelLaunch& launch, const std::vector<SpecKeyInfo>& own) {
    args.reject_both("threads", "block");
    args.reject_both("blocks", "grid");
    if (generic_given(args, own, "threads"))
        launch.block.x = static_cast<std::uint32_t>(args.integer("threads", 1, kMaxSpecThreads));
    if (generic_given(args, own, "block"))
        launch.block = args.dims("block", kMaxSpecThreads, static_cast<std::uint64_t>(kMaxSpecThreads));
    apply_grid(args, launch, own);
    launch.registers_per_thread = static_cast<int>(args.optional_integer("regs", 0, kMaxSpecRegisters).value_or(0));
    launch.dynamic_shared_bytes = args.optional_integer("smem", 0, kMaxSpecSharedBytes).value_or(0);
    launch.static_shared_bytes = args.optional_integer("static_smem", 0, kMaxSpecSharedBytes).value_or(0);
    launch.barriers_per_block = static_cast<int>(args.optional_integer("barriers", 0, kMaxSpecBarriers).value_or(1));
    if (args.has("carveout"))
        launch.carveout =
            hw::Carveout::parse(args.text("carveout"), args.where("carveout") + ": key '" + args.key_path("carveout") + "'");
    launch.stream = static_cast<int>(args.optional_integer("stream", 0, kMaxStreamId).value_or(0));
    if (args.has("name")) launch.name = args.label("name");
    apply_cluster_keys(args, launch);
}

void require_specs(std::size_t count, const std::string& where) {
    if (count == 0) throw InputError(where + ": no kernel spec given (expected NAME:key=value,...)");
}

/// Appends the launches of the application's spec number i (0-based).
void append_spec(Application& app, std::size_t i, const KernelSpec& spec) {
    SpecLaunches built = build_kernel_launches(spec);
    if (built.total() > kMaxSpecApplicationLaunches - app.launches.size())
        throw InputError(spec.where() + ": the application would have more than " +
                         std::to_string(kMaxSpecApplicationLaunches) + " launches (this spec stands for " +
                         std::to_string(built.total()) + ")");
    built.append_to(app);
    app.description += (i == 0 ? "" : " ") + spec.as_written();
}

}  // namespace

std::optional<Dim3> grid_for_blocks(std::uint64_t blocks) {
    const auto max_dim = static_cast<std::uint64_t>(kMaxGridDim);
    if (blocks == 0) return std::nullopt;
    if (blocks <= max_dim) return Dim3{static_cast<std::uint32_t>(blocks), 1, 1};
    std::optional<std::uint64_t> best_y;
    for (std::uint64_t d = 2; d <= blocks / d; ++d) {
        if (blocks % d != 0) continue;
        for (const std::uint64_t y : {d, blocks / d})
            if (y <= max_dim && blocks / y <= max_dim && (!best_y || y < *best_y)) best_y = y;
        if (best_y && *best_y <= d) break;
    }
    if (!best_y) return std::nullopt;
    return Dim3{static_cast<std::uint32_t>(blocks / *best_y), static_cast<std::uint32_t>(*best_y), 1};
}

SpecLaunches build_kernel_launches(SpecArgs& args) {
    const KernelGeneratorInfo* generator = find_kernel_generator(args.kernel());
    if (generator == nullptr) throw InputError(unknown_kernel_message(args.where(), args.kernel()));
    std::vector<std::string> allowed;
    for (const auto& key : generic_spec_keys()) allowed.push_back(key.name);
    for (const auto& key : generator->keys)
        if (std::find(allowed.begin(), allowed.end(), key.name) == allowed.end()) allowed.push_back(key.name);
    args.reject_unknown(allowed);

    SpecLaunches out;
    KernelLaunch& launch = out.launch;
    launch.name = generator->name;
    apply_generic_keys(args, launch, generator->keys);
    if (generator->sequence) {
        std::vector<KernelLaunch> all = generator->sequence(args, launch);
        if (all.empty()) throw std::logic_error("kernel generator '" + generator->name + "' produced no launches");
        for (const KernelLaunch& each : all) check_cluster_divides_grid(args, each);
        out.launch = std::move(all.front());
        out.then.assign(std::make_move_iterator(all.begin() + 1), std::make_move_iterator(all.end()));
        return out;
    }
    generator->build(args, launch);
    if (!launch.work) throw std::logic_error("kernel generator '" + generator->name + "' produced no work");
    if (launch.blocks() < 1 || launch.blocks() > static_cast<std::uint64_t>(kMaxSpecBlocks))
        args.fail_spec("the grid has " + std::to_string(launch.blocks()) + " blocks; allowed: 1.." +
                       std::to_string(kMaxSpecBlocks));
    if (launch.block.count() < 1 || launch.block.count() > static_cast<std::uint64_t>(kMaxSpecThreads))
        args.fail_spec("a block has " + std::to_string(launch.block.count()) + " threads; allowed: 1.." +
                       std::to_string(kMaxSpecThreads));
    check_cluster_divides_grid(args, launch);
    if (generator->launches) {
        out.count = generator->launches(launch);
        if (out.count < 1) throw std::logic_error("kernel generator '" + generator->name + "' asked for no launches");
    }
    if (generator->then) out.then = generator->then(launch);
    if (generator->after_each) out.after_each = generator->after_each(launch);
    return out;
}

void SpecLaunches::append_to(Application& app) const {
    const std::size_t first = app.launches.size();
    append_to(app.launches);
    if (after_each.empty() && app.operations.empty()) return;
    const auto kernel_op = [&app](std::size_t i) {
        Operation op;
        op.launch = i;
        op.stream = app.launches[i].stream;
        return op;
    };
    // Exactly the room needed when it is the first growth (a million calls of one spec), amortised after.
    const std::size_t needed = (app.operations.empty() ? first : app.operations.size()) +
                               (app.launches.size() - first) * (1 + after_each.size());
    if (needed > app.operations.capacity()) app.operations.reserve(std::max(needed, 2 * app.operations.capacity()));
    if (app.operations.empty())
        for (std::size_t i = 0; i < first; ++i) app.operations.push_back(kernel_op(i));
    for (std::size_t i = first; i < app.launches.size(); ++i) {
        app.operations.push_back(kernel_op(i));
        for (Operation op : after_each) {
            op.stream = app.launches[i].stream;
            app.operations.push_back(std::move(op));
        }
    }
}

KernelLaunch build_kernel_launch(SpecArgs& args) { return build_kernel_launches(args).launch; }

SpecLaunches build_kernel_launches(const KernelSpec& spec) {
    SpecArgs args(spec);
    return build_kernel_launches(args);
}

SpecLaunches parse_kernel_spec_launches(const std::string& spec, const std::string& where) {
    return build_kernel_launches(KernelSpec::parse(spec, where));
}

KernelLaunch parse_kernel_spec(const std::string& spec, const std::string& where) {
    return parse_kernel_spec_launches(spec, where).launch;
}

Application application_from_specs(const std::vector<std::string>& specs, const std::string& where) {
    require_specs(specs.size(), where);
    Application app;
    for (std::size_t i = 0; i < specs.size(); ++i)
        append_spec(app, i,
                    KernelSpec::parse(specs[i], specs.size() == 1 ? where : where + " #" + std::to_string(i + 1)));
    return app;
}

Application build_application(const std::vector<KernelSpec>& specs) {
    require_specs(specs.size(), "kernel spec");
    Application app;
    for (std::size_t i = 0; i < specs.size(); ++i) append_spec(app, i, specs[i]);
    return app;
}

}  // namespace gpusched::workloads
