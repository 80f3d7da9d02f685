// Engine calibration of measured launches (the secant search on each launch's floor scale).
#include "gpusched/sim/execution/measured_calibration.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <exception>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <typeinfo>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_work.h"

namespace gpusched::sim {

namespace {

const hw::GpuSpec& preset(const std::string& name) {
    static std::mutex mutex;
    static std::map<std::string, hw::GpuSpec> cache;
    const std::lock_guard lock(mutex);
    if (const auto it = cache.find(name); it != cache.end()) return it->second;
    return cache.emplace(name, hw::resolve_gpu(name)).first->second;
}

/// The launch alone (stream 0, nothing else) on `gpu` with `work`: first block start to last block end, ps.
double alone_ps(const hw::GpuSpec& gpu, const workloads::KernelLaunch& launch,
                const std::shared_ptr<const workloads::BlockWork>& work, const DispatchPolicy& policy) {
    workloads::Application one;
    workloads::KernelLaunch copy = launch;
    copy.stream = 0;
    copy.work = work;
    one.launches.push_back(std::move(copy));
    Simulation run(gpu, one, policy, "shared");
    SummaryCollector summary;
    run.observe(summary);
    run.run();
    const auto& k = summary.summary().kernel(0);
    return k.start && k.end ? static_cast<double>(*k.end - *k.start) : 0;
}

/// The search's result: the calibrated work and its scale (nullptr when the launch never ran).
struct Found {
    std::shared_ptr<const workloads::BlockWork> work;
    double scale = 0;
};

Found calibrated(const workloads::KernelLaunch& launch, const workloads::KernelWork& work,
                 const workloads::KernelWork::CalibrationTarget& target, const DispatchPolicy& policy) {
    const hw::GpuSpec& gpu = preset(target.reference_gpu);
    const double goal = static_cast<double>(target.duration);
    double best_error = -1;
    Found best;
    auto attempt = [&](double k) {
        auto candidate = work.with_calibration(k);
        const double t = alone_ps(gpu, launch, candidate, policy);
        const double error = std::fabs(t - goal);
        if (best_error < 0 || error < best_error) {
            best_error = error;
            best = {candidate, k};
        }
        return t;
    };
    double k0 = 1, t0 = attempt(k0);
    if (t0 <= 0) return {};
    double k1 = std::clamp(goal / t0, 0.05, 20.0), t1 = attempt(k1);
    for (int run = 2; run < 6 && best_error > goal * 1e-3 && t1 != t0; ++run) {
        const double k2 = std::clamp(k1 + (goal - t1) * (k1 - k0) / (t1 - t0), 0.05, 20.0);
        k0 = k1;
        t0 = t1;
        k1 = k2;
        t1 = attempt(k1);
    }
    return best;
}

/// Everything calibrated() depends on: the policy (its type and name), the launch's shape, and the
/// work exactly (its target, the reference GPU's name included). Not the launch's name or stream.
std::string calibration_key(const workloads::KernelLaunch& launch, const workloads::KernelWork& work,
                            const DispatchPolicy& policy, bool with_type = true) {
    std::string key = (with_type ? std::string(typeid(policy).name()) : std::string()) + '|' + policy.name() + '|';
    for (const std::int64_t v :
         {std::int64_t{launch.grid.x}, std::int64_t{launch.grid.y}, std::int64_t{launch.grid.z}, std::int64_t{launch.block.x},
          std::int64_t{launch.block.y}, std::int64_t{launch.block.z}, std::int64_t{launch.registers_per_thread},
          launch.static_shared_bytes, launch.dynamic_shared_bytes, std::int64_t{launch.barriers_per_block},
          static_cast<std::int64_t>(launch.carveout.kind), std::int64_t{launch.carveout.percent},
          std::int64_t{launch.cluster ? launch.cluster->x : 0}, std::int64_t{launch.cluster ? launch.cluster->y : 0},
          std::int64_t{launch.cluster ? launch.cluster->z : 0}, std::int64_t{launch.cluster_nonportable ? 1 : 0}})
        key += std::to_string(v) + ',';
    return key + '|' + work.identity();
}

/// calibrated(), remembered for the process: a validation or sweep simulates one application on many
/// GPUs, and each Simulation calibrates its measured launches on the same reference GPU. The result is
/// deterministic, so a remembered one is the one a new search would find. A thread that asks for a
/// launch another thread is calibrating waits for that result instead of searching again. At most
/// kMaxRemembered launches are kept (then the memory starts over), so a process that simulates many
/// distinct traces stays bounded.
Found calibrated_once(const workloads::KernelLaunch& launch, const workloads::KernelWork& work,
                      const workloads::KernelWork::CalibrationTarget& target, const DispatchPolicy& policy) {
    using Result = Found;
    constexpr std::size_t kMaxRemembered = 1 << 16;
    static std::mutex mutex;
    static std::map<std::string, std::shared_future<Result>> remembered;
    const std::string key = calibration_key(launch, work, policy);
    std::promise<Result> promise;
    std::shared_future<Result> known;
    {
        const std::lock_guard lock(mutex);
        if (const auto it = remembered.find(key); it != remembered.end()) {
            known = it->second;
        } else {
            if (remembered.size() >= kMaxRemembered) remembered.clear();
            remembered.emplace(key, promise.get_future().share());
        }
    }
    if (known.valid()) return known.get();  // remembered, or being calibrated by another thread
    try {
        Result result = calibrated(launch, work, target, policy);
        promise.set_value(result);
        return result;
    } catch (...) {
        promise.set_exception(std::current_exception());
        const std::lock_guard lock(mutex);
        remembered.erase(key);
        throw;
    }
}

/// FNV-1a, 64 bits, of `text`, continued from the state `h`.
std::uint64_t fnv1a(std::string_view text, std::uint64_t h = 14695981039346656037ULL) {
    for (const unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
    return h;
}

/// The FNV-1a state after a preset's YAML (and a separator), hashed once per preset name: an import
/// labels every measured launch, and the YAML is some 10 KB.
std::uint64_t preset_state(const std::string& name) {
    static std::mutex mutex;
    static std::map<std::string, std::uint64_t> states;
    const std::lock_guard lock(mutex);
    if (const auto it = states.find(name); it != states.end()) return it->second;
    return states.emplace(name, fnv1a("|", fnv1a(hw::preset_yaml(name).value_or("")))).first->second;
}

/// The scale exactly: the shortest text that reads back as the same double.
std::string exact_text(double value) {
    char out[64];
    const auto end = std::to_chars(out, out + sizeof out, value).ptr;
    return std::string(out, end);
}

std::string label_of(const workloads::KernelLaunch& launch, const workloads::KernelWork& work,
                     const workloads::KernelWork::CalibrationTarget& target, const DispatchPolicy& policy, double scale) {
    // FNV-1a of: the reference preset's YAML, '|', the launch's shape and work, '|', the scale.
    const std::uint64_t h =
        fnv1a(calibration_key(launch, work, policy, false) + '|' + exact_text(scale), preset_state(target.reference_gpu));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return std::string(kCalibrationVersion) + "/" + policy.name() + "/" + hex;
}

/// The stored calibration when its label is the one this run would write for it, else the search (with a
/// note saying why when a stored one was set aside).
std::shared_ptr<const workloads::BlockWork> stored_or_calibrated(const workloads::KernelLaunch& launch,
                                                                 const workloads::KernelWork& work,
                                                                 const workloads::KernelWork::CalibrationTarget& target,
                                                                 const DispatchPolicy& policy) {
    const auto stored = work.stored_scale();
    if (!stored) return calibrated_once(launch, work, target, policy).work;
    if (work.stored_label() == label_of(launch, work, target, policy, *stored)) return work.with_calibration(*stored);
    const Found found = calibrated_once(launch, work, target, policy);
    if (!found.work) return nullptr;
    return work.with_calibration(found.scale, "calibrated_floor " + exact_text(*stored) + " (calibration '" +
                                                  work.stored_label() + "') was written for another policy, work, " +
                                                  target.reference_gpu + " preset or gpusched calibration version than this run's (" +
                                                  std::string(kCalibrationVersion) + "/" + policy.name() +
                                                  "): the engine calibrated the launch again");
}

}  // namespace

std::optional<WrittenCalibration> engine_calibration(const workloads::KernelLaunch& launch, const DispatchPolicy& policy) {
    const auto* work = dynamic_cast<const workloads::KernelWork*>(launch.work.get());
    if (work == nullptr) return std::nullopt;
    const auto target = work->calibration_target();
    if (!target) return std::nullopt;
    const Found found = calibrated_once(launch, *work, *target, policy);
    if (!found.work) return std::nullopt;
    return WrittenCalibration{exact_text(found.scale), label_of(launch, *work, *target, policy, found.scale)};
}

std::optional<std::string> calibration_label(const workloads::KernelLaunch& launch, const DispatchPolicy& policy,
                                             double scale) {
    const auto* work = dynamic_cast<const workloads::KernelWork*>(launch.work.get());
    const auto target = work ? work->calibration_target() : std::nullopt;
    if (!target) return std::nullopt;
    return label_of(launch, *work, *target, policy, scale);
}

std::size_t write_engine_calibrations(workloads::WorkloadDocument& document, const DispatchPolicy& policy) {
    // The document without its items (a copy of them would double an import's memory), for one item at a time.
    std::vector<workloads::WorkloadItem> items = std::move(document.items);
    document.items.clear();
    workloads::WorkloadDocument alone = document;
    alone.host.clear();  // its calls name the whole document's items, not the one item calibrated at a time
    document.items = std::move(items);
    std::size_t written = 0;
    for (workloads::WorkloadItem& item : document.items) {
        if (item.kind != workloads::Operation::Kind::kernel || item.kernel != "kernel") continue;
        std::erase_if(item.keys, [](const workloads::KernelKey& k) { return k.key == "calibrated_floor" || k.key == "calibration"; });
        if (std::none_of(item.keys.begin(), item.keys.end(), [](const auto& k) { return k.key == "measured"; })) continue;
        workloads::WorkloadItem one = item;
        one.id.clear();
        one.after.clear();
        one.repeat.reset();
        alone.items.assign(1, one);
        const workloads::Application app = workloads::build_application(alone);
        if (app.launches.size() != 1) continue;
        const auto found = engine_calibration(app.launches[0], policy);
        if (!found) continue;
        item.keys.push_back({"calibrated_floor", found->scale, false, ""});
        item.keys.push_back({"calibration", found->label, false, ""});
        ++written;
    }
    return written;
}

std::unique_ptr<workloads::Application> calibrate_measured_launches(const workloads::Application& app,
                                                                    const DispatchPolicy& policy) {
    // Distinct launches: by work object, and by description and shape (launches of one spec in
    // separate workload items have works of their own but the same answer).
    using Key = std::tuple<std::string, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t,
                           std::uint32_t, int, std::int64_t, std::int64_t>;
    std::map<const workloads::BlockWork*, std::shared_ptr<const workloads::BlockWork>> replaced;
    std::map<Key, std::shared_ptr<const workloads::BlockWork>> by_spec;
    for (const auto& launch : app.launches) {
        const auto* work = dynamic_cast<const workloads::KernelWork*>(launch.work.get());
        if (work == nullptr || replaced.count(launch.work.get()) != 0) continue;
        const auto target = work->calibration_target();
        if (!target) continue;
        const Key key{work->describe() + '\n' + work->stored_label(), launch.grid.x, launch.grid.y, launch.grid.z, launch.block.x, launch.block.y,
                      launch.block.z, launch.registers_per_thread, launch.static_shared_bytes, launch.dynamic_shared_bytes};
        auto& done = by_spec[key];
        if (!done) done = stored_or_calibrated(launch, *work, *target, policy);
        if (done) replaced[launch.work.get()] = done;
    }
    if (replaced.empty()) return nullptr;
    auto out = std::make_unique<workloads::Application>(app);
    out->launches.replace_works([&](const std::shared_ptr<const workloads::BlockWork>& w) {
        const auto it = replaced.find(w.get());
        return it == replaced.end() ? w : it->second;
    });
    return out;
}

}  // namespace gpusched::sim
