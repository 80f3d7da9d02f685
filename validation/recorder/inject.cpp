// libgpusched_record_inject.so: the CUDA injection library (CUDA_INJECTION64_PATH) that spools CUPTI activity records for gpusched-record.
//
// The driver calls InitializeInjection() inside cuInit. It enables the activity kinds below,
// writes every completed activity buffer as spool lines (spool_format.h) to
// $GPUSCHED_RECORD_SPOOL_DIR/spool.<pid>.tsv, flushes every 100 ms (so a killed program leaves
// what was recorded up to then), at exit flushes everything and adds the driver's device
// properties; on SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT it flushes (best effort) and lets
// the signal go on. gpusched-record turns the spool into the trace JSON.
#include <cuda.h>
#include <cupti.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "spool_format.h"

namespace {

constexpr std::size_t kBufferBytes = std::size_t{8} << 20;
constexpr std::uint32_t kFlushPeriodMs = 100;

std::mutex g_mutex;
std::FILE* g_spool = nullptr;
pid_t g_pid = 0;
std::atomic<bool> g_in_signal{false};
struct sigaction g_previous[32];
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/// One spool line: the type letter, then tab-separated fields.
class Line {
public:
    explicit Line(char type) : text_(1, type) {}
    Line& operator<<(std::uint64_t v) { return field(std::to_string(v)); }
    Line& operator<<(std::int64_t v) { return field(std::to_string(v)); }
    Line& operator<<(std::uint32_t v) { return field(std::to_string(v)); }
    Line& operator<<(std::int32_t v) { return field(std::to_string(v)); }
    Line& operator<<(const char* s) { return field(gpusched::record::spool_escape(s ? s : "")); }
    [[nodiscard]] std::string str() const { return text_ + "\n"; }

private:
    Line& field(const std::string& f) {
        text_ += '\t';
        text_ += f;
        return *this;
    }
    std::string text_;
};

void write_spool(const std::string& text) {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_spool || text.empty()) return;
    std::fwrite(text.data(), 1, text.size(), g_spool);
    std::fflush(g_spool);
}

std::uint32_t u32(std::uint32_t v) { return v; }

void append_record(std::string& out, const CUpti_Activity* record) {
    namespace spool = gpusched::record::spool;
    switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
            const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            Line l(spool::kKernel);
            l << k->start << k->end << k->deviceId << k->contextId << k->streamId << k->correlationId
              << u32(k->registersPerThread) << k->staticSharedMemory << k->dynamicSharedMemory << k->gridX << k->gridY
              << k->gridZ << k->blockX << k->blockY << k->blockZ << k->clusterX << k->clusterY << k->clusterZ
              << k->graphId << k->name;
            out += l.str();
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
            Line l(spool::kMemcpy);
            l << m->start << m->end << m->deviceId << m->contextId << m->streamId << m->correlationId << m->bytes
              << u32(m->copyKind) << u32(m->srcKind) << u32(m->dstKind);
            out += l.str();
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
            Line l(spool::kMemset);
            l << m->start << m->end << m->deviceId << m->contextId << m->streamId << m->correlationId << m->bytes
              << u32(m->memoryKind) << m->value;
            out += l.str();
            break;
        }
        case CUPTI_ACTIVITY_KIND_RUNTIME:
        case CUPTI_ACTIVITY_KIND_DRIVER: {
            const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(record);
            const bool runtime = record->kind == CUPTI_ACTIVITY_KIND_RUNTIME;
            const char* name = nullptr;
            if (cuptiGetCallbackName(runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, a->cbid, &name) !=
                CUPTI_SUCCESS)
                name = nullptr;
            const std::string fallback = (runtime ? "runtime_cbid_" : "driver_cbid_") + std::to_string(a->cbid);
            Line l(runtime ? spool::kRuntime : spool::kDriver);
            l << a->start << a->end << a->processId << a->threadId << a->correlationId << u32(a->cbid)
              << (name ? name : fallback.c_str());
            out += l.str();
            break;
        }
        case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
            const auto* s = reinterpret_cast<const CUpti_ActivitySynchronization2*>(record);
            Line l(spool::kSync);
            l << s->start << s->end << u32(s->type) << s->contextId << s->streamId << s->correlationId << s->cudaEventId;
            out += l.str();
            break;
        }
        case CUPTI_ACTIVITY_KIND_CUDA_EVENT: {
            const auto* e = reinterpret_cast<const CUpti_ActivityCudaEvent2*>(record);
            Line l(spool::kEvent);
            l << e->correlationId << e->contextId << e->streamId << e->eventId << e->deviceId << e->deviceTimestamp;
            out += l.str();
            break;
        }
        case CUPTI_ACTIVITY_KIND_STREAM: {
            const auto* s = reinterpret_cast<const CUpti_ActivityStream*>(record);
            Line l(spool::kStream);
            l << s->contextId << s->streamId << static_cast<std::int32_t>(s->priority) << u32(s->flag) << s->correlationId;
            out += l.str();
            break;
        }
        case CUPTI_ACTIVITY_KIND_DEVICE: {
            const auto* d = reinterpret_cast<const CUpti_ActivityDevice5*>(record);
            Line l(spool::kDevice);
            l << d->id << d->name << d->globalMemorySize << d->computeCapabilityMajor << d->computeCapabilityMinor
              << d->maxThreadsPerBlock << d->maxWarpsPerMultiprocessor * d->numThreadsPerWarp << d->maxRegistersPerBlock
              << d->maxRegistersPerMultiprocessor << d->numThreadsPerWarp << d->maxSharedMemoryPerBlock
              << d->maxSharedMemoryPerMultiprocessor << d->numMultiprocessors << std::int64_t{-1};
            out += l.str();
            break;
        }
        default: break;
    }
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t* buffer, size_t, size_t valid) {
    std::string out;
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) append_record(out, record);
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS && dropped > 0)
        out += (Line(gpusched::record::spool::kDropped) << static_cast<std::uint64_t>(dropped)).str();
    std::free(buffer);
    write_spool(out);
}

void note(const std::string& text) { write_spool((Line(gpusched::record::spool::kNote) << text.c_str()).str()); }

/// The driver's view of every device (adds the opt-in shared memory the CUPTI record lacks).
void write_driver_devices() {
    int count = 0;
    if (cuDeviceGetCount(&count) != CUDA_SUCCESS) return;
    std::string out;
    for (int i = 0; i < count; ++i) {
        CUdevice dev = 0;
        if (cuDeviceGet(&dev, i) != CUDA_SUCCESS) continue;
        char name[256] = {};
        std::size_t memory = 0;
        cuDeviceGetName(name, sizeof(name) - 1, dev);
        cuDeviceTotalMem(&memory, dev);
        const auto attr = [&](CUdevice_attribute a) {
            int v = -1;
            return cuDeviceGetAttribute(&v, a, dev) == CUDA_SUCCESS ? std::int64_t{v} : std::int64_t{-1};
        };
        Line l(gpusched::record::spool::kDevice);
        l << std::int64_t{i} << name << static_cast<std::uint64_t>(memory)
          << attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) << attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
          << attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK) << attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)
          << attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK) << attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR)
          << attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE) << attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)
          << attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)
          << attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) << attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
        out += l.str();
    }
    write_spool(out);
}

void finish() {
    if (getpid() != g_pid) return;  // a forked child without exec: the parent records
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    write_driver_devices();
}

void on_fatal_signal(int sig) {
    if (!g_in_signal.exchange(true) && getpid() == g_pid) {
        cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        note("the program received signal " + std::to_string(sig) + " (" + strsignal(sig) + ")");
    }
    sigaction(sig, &g_previous[sig], nullptr);
    raise(sig);
}

void enable(CUpti_ActivityKind kind, const char* name) {
    const CUptiResult r = cuptiActivityEnable(kind);
    if (r == CUPTI_SUCCESS) return;
    const char* why = nullptr;
    cuptiGetResultString(r, &why);
    note(std::string("activity kind ") + name + " not recorded: " + (why ? why : "unknown CUPTI error"));
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    const char* dir = std::getenv("GPUSCHED_RECORD_SPOOL_DIR");
    if (!dir || !*dir) {
        std::fprintf(stderr, "libgpusched_record_inject: GPUSCHED_RECORD_SPOOL_DIR is not set; run the program "
                             "through gpusched-record (nothing is recorded)\n");
        return 1;
    }
    g_pid = getpid();
    const std::string path = std::string(dir) + "/spool." + std::to_string(g_pid) + ".tsv";
    g_spool = std::fopen(path.c_str(), "w");
    if (!g_spool) {
        std::fprintf(stderr, "libgpusched_record_inject: cannot write '%s': %s (nothing is recorded)\n", path.c_str(),
                     std::strerror(errno));
        return 1;
    }
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS) {
        note("cuptiActivityRegisterCallbacks failed: nothing is recorded");
        return 1;
    }
    enable(CUPTI_ACTIVITY_KIND_DEVICE, "DEVICE");
    enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "CONCURRENT_KERNEL");
    enable(CUPTI_ACTIVITY_KIND_MEMCPY, "MEMCPY");
    enable(CUPTI_ACTIVITY_KIND_MEMSET, "MEMSET");
    enable(CUPTI_ACTIVITY_KIND_RUNTIME, "RUNTIME");
    enable(CUPTI_ACTIVITY_KIND_DRIVER, "DRIVER");
    enable(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "SYNCHRONIZATION");
    enable(CUPTI_ACTIVITY_KIND_CUDA_EVENT, "CUDA_EVENT");
    enable(CUPTI_ACTIVITY_KIND_STREAM, "STREAM");
    cuptiActivityEnableCudaEventDeviceTimestamps(1);
    cuptiActivityFlushPeriod(kFlushPeriodMs);
    std::atexit(finish);
    for (const int sig : kSignals) {
        struct sigaction action {};
        action.sa_handler = on_fatal_signal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_NODEFER;
        sigaction(sig, &action, &g_previous[sig]);
    }
    return 1;
}
