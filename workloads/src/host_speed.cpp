// A what-if on the host's CPU: every host thread's CPU times divided by a speed.
#include "gpusched/workloads/host_speed.h"

#include <cmath>
#include <sstream>

#include "gpusched/support/input_error.h"

namespace gpusched::workloads {

namespace {

Time divided(Time t, double speed) { return static_cast<Time>(std::llround(static_cast<double>(t) / speed)); }

}  // namespace

Time host_work(const Application& app) {
    Time total = 0;
    for (const auto& thread : app.host)
        for (const auto& call : thread.calls) total += call.gap + call.cpu;
    return total;
}

void scale_host_speed(Application& app, double speed, const std::string& what) {
    if (!std::isfinite(speed) || speed < kMinHostSpeed || speed > kMaxHostSpeed) {
        std::ostringstream message;
        message << what << ": expected a speed in [" << kMinHostSpeed << ", " << kMaxHostSpeed
                << "] (2 = a host CPU twice as fast as the trace's), got " << speed;
        throw InputError(message.str());
    }
    if (app.host.empty())
        throw InputError(what + ": the workload has no host timeline to scale (import a trace without "
                                "--frozen-gaps, or write a `host` section: docs/workloads.md \"Host timeline\")");
    for (auto& thread : app.host)
        for (auto& call : thread.calls) {
            call.gap = divided(call.gap, speed);
            call.cpu = divided(call.cpu, speed);
            if (call.submit) call.submit = divided(*call.submit, speed);  // rounding is monotone: still <= cpu
        }
}

}  // namespace gpusched::workloads
