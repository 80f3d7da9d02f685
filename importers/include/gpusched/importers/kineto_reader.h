// Reading a PyTorch profiler (Kineto) Chrome trace, or the CUPTI recorder's file in the same layout, into an ImportedTrace.
#pragma once

#include <string>

#include "gpusched/importers/gzip_stream.h"
#include "gpusched/importers/imported_trace.h"
#include "gpusched/importers/kineto_event.h"

namespace gpusched::importers {

/// The importer's caps on one file.
struct ReadLimits {
    StreamLimits stream;
    TraceLimits trace;
    int max_depth = 64;  ///< JSON nesting
};

/// Streams the file (plain JSON or gzip; nlohmann's SAX parser, so memory grows with the
/// records kept, not with the file) and keeps kernels, copies, memsets, the host calls that
/// issue or wait for them, cuda_sync events and ProfilerStep#N markers. Every problem is an
/// InputError "PATH: ..." naming the event ("traceEvents[I]") or text byte: not a Kineto
/// trace (no top-level object with a traceEvents array), JSON syntax, missing or absurd
/// fields, caps (ReadLimits).
ImportedTrace read_kineto_trace(const std::string& path, const ReadLimits& limits = {});

}  // namespace gpusched::importers
