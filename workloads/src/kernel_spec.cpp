// One-line kernel specs and the generic keys shared by every kernel generator.
#include "gpusched/workloads/kernel_spec.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_generators.h"

namespace gpusched::workloads {

namespace {

std::string trim(const std::string& text) {
    const std::size_t begin = text.find_first_not_of(" \t");
    if (begin == std::string::npos) return "";
    const std::size_t end = text.find_last_not_of(" \t");
    return text.substr(begin, end - begin + 1);
}

std::string hex_byte(unsigned char c) {
    static constexpr char digits[] = "0123456789abcdef";
    return std::string("0x") + digits[c >> 4] + digits[c & 15];
}

[[noreturn]] void unknown_kernel(const std::string& where, const std::string& name) {
    throw InputError(where + ": unknown kernel '" + name + "' (known kernels: " + kernel_generator_names() + ")");
}

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
    if (generator == nullptr) unknown_kernel(args.where(), args.kernel());
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

SpecLaunches parse_kernel_spec_launches(const std::string& spec, const std::string& where) {
    if (spec.size() > kMaxSpecLength)
        throw InputError(where + ": kernel spec is " + std::to_string(spec.size()) + " characters long; at most " +
                         std::to_string(kMaxSpecLength) + " are allowed");
    for (std::size_t i = 0; i < spec.size(); ++i) {
        const auto c = static_cast<unsigned char>(spec[i]);
        if (c < 0x20 || c > 0x7e)
            throw InputError(where + ": kernel spec must be printable ASCII; found byte " + hex_byte(c) +
                             " at character " + std::to_string(i + 1));
    }
    const std::string text = trim(spec);
    const std::size_t colon = text.find(':');
    const std::string name = trim(text.substr(0, colon));
    if (name.empty())
        throw InputError(where + ": expected NAME or NAME:key=value,key=value,... (kernels: " +
                         kernel_generator_names() + "), got '" + spec + "'");
    if (find_kernel_generator(name) == nullptr) unknown_kernel(where, name);

    std::vector<SpecEntry> entries;
    if (colon != std::string::npos && !trim(text.substr(colon + 1)).empty()) {
        const std::string body = text.substr(colon + 1);
        std::size_t start = 0;
        while (true) {
            const std::size_t comma = body.find(',', start);
            const std::string item = trim(body.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
            const std::size_t equals = item.find('=');
            if (item.empty())
                throw InputError(where + ": empty item in kernel spec '" + spec + "' (expected key=value between commas)");
            if (equals == std::string::npos)
                throw InputError(where + ": key '" + item + "': expected key=value");
            const std::string key = trim(item.substr(0, equals));
            const std::string value = trim(item.substr(equals + 1));
            if (key.empty()) throw InputError(where + ": expected key=value, got '" + item + "'");
            if (value.empty()) throw InputError(where + ": key '" + key + "': empty value");
            entries.push_back({key, value, ""});
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    SpecArgs args(name, where, "", std::move(entries));
    return build_kernel_launches(args);
}

KernelLaunch parse_kernel_spec(const std::string& spec, const std::string& where) {
    return parse_kernel_spec_launches(spec, where).launch;
}

Application application_from_specs(const std::vector<std::string>& specs) {
    if (specs.empty()) throw InputError("--kernel: no kernel spec given (expected NAME:key=value,...)");
    Application app;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const std::string where = specs.size() == 1 ? "--kernel" : "--kernel #" + std::to_string(i + 1);
        SpecLaunches built = parse_kernel_spec_launches(specs[i], where);
        if (built.total() > kMaxSpecApplicationLaunches - app.launches.size())
            throw InputError(where + ": the application would have more than " +
                             std::to_string(kMaxSpecApplicationLaunches) + " launches (this spec stands for " +
                             std::to_string(built.total()) + ")");
        built.append_to(app);
        app.description += (i == 0 ? "" : " ") + specs[i];
    }
    return app;
}

}  // namespace gpusched::workloads
